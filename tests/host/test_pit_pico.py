"""`sabot pit` following four production virtual boards and the emulated production Pico while all five deal at once
(issue 39): every record the pit took into the casino's database, and every byte of its copies, is what `sabot
pull-log` pulls from each shoe afterwards, and `sabot fleet ingest` of the pulls adds nothing. Minutes of emulation:
make test-pico runs it (pico_long), make test runs tests/host/test_pit.py's two boards."""

import json
import threading

import duckdb
import pytest

from sabot.pico import play
from tests.host.test_nuit import board, enrol
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)
from tests.host.test_pit import PitProcess, live_board, scenario
from tests.host.test_pit_follows_pico import enrolled_pico
from tests.host.test_vboard import sabot as run_sabot

BOARDS = (41, 42, 43, 44)
PICO = 45
PICO_DEAL = "game chemin_de_fer\nseance table=3\nshoe seed=45\n" + "no_more_bets\ndraw 6\n" * 4
# The Pico's croupier as the virtual boards' (test_pit.LIVE_MS): a draw pressed 40 ms after the last card's step, as
# tools/pico/pico.mjs's croupier does by default, falls within the shoe's 60 ms after a card (a double feed's watch,
# S-ONE), refused, once a pit's read had the loop answer it first
GAP_US = 250000


@pytest.mark.pico
@pytest.mark.pico_long
@pytest.mark.req("F-INGEST", "P-PULL", "H-VERIFY", "J-EVERY")
def test_four_virtual_boards_and_the_emulated_pico_deal_at_once_into_one_pit_and_the_pulls_agree_byte_for_byte(
        tmp_path, mpy_build, image, monkeypatch):  # noqa: F811
    (tmp_path / "casino.key").write_text(bytes(range(32, 64)).hex())
    monkeypatch.chdir(tmp_path)
    shoes, pico, pit = {}, None, None
    try:
        for sabot in BOARDS:
            shoe, port = board(tmp_path, sabot)
            enrol(tmp_path, port)
            shoe.close()
        pico = enrolled_pico(tmp_path, PICO)
        (tmp_path / "stranger").mkdir()  # PitProcess's extra port: none here
        pit = PitProcess(tmp_path)
        dealt = {}
        dealer = threading.Thread(target=lambda: dealt.update(play(pico, _write(tmp_path, PICO_DEAL), gap_us=GAP_US)))
        dealer.start()
        for n, sabot in enumerate(BOARDS):
            shoes[sabot] = live_board(tmp_path, sabot, scenario(n + 1, sabot, forced=False))
        dealer.join(timeout=1800)
        assert not dealer.is_alive()
        pit.wait(lambda t: all(t[s]["road"] and len(t[s]["road"]) == 6 and not t[s]["coup"]["open"] for s in BOARDS)
                 and t[PICO]["road"] and len(t[PICO]["road"]) == 4 and not t[PICO]["coup"]["open"], timeout=900)
        pit.stop()
        pit = None
        ports = {s: "b%d/fs.tty" % s for s in BOARDS}
        ports[PICO] = "pico/shoe.flash.tty"
        for sabot, port in ports.items():
            done = run_sabot("pull-log", "--port", port, "pulled-%d" % sabot, "--quiet")
            assert done.returncode == 0, done.stderr
    finally:
        if pit:
            pit.stop()
        for shoe in shoes.values():
            shoe.close()
        if pico:
            pico.stop()
            (tmp_path / "pico-events.json").write_text(json.dumps(list(pico.events)))
    for sabot in ports:
        copy, pulled = tmp_path / "pit" / ("sabot-%04d" % sabot), tmp_path / ("pulled-%d" % sabot)
        names = sorted(p.name for p in copy.iterdir())
        assert names == sorted(p.name for p in pulled.iterdir() if p.suffix in (".sbj", ".sbc")), (sabot, names)
        for name in names:
            assert (copy / name).read_bytes() == (pulled / name).read_bytes(), (sabot, name)
    with duckdb.connect(str(tmp_path / "casino.duckdb"), read_only=True) as con:
        rows = dict(con.execute("SELECT sabot, count(*) FROM records GROUP BY sabot").fetchall())
    assert set(rows) == set(ports)
    ingest = run_sabot("fleet", "ingest", *("pulled-%d" % s for s in ports), "--db", "casino.duckdb", "--casino",
                       "deauville", "--registry", "shoes.json")
    assert ingest.returncode == 0 and ingest.stdout.count("already in the database") == len(ports), ingest.stdout


def _write(folder, text):
    path = folder / "pico-deal.txt"
    path.write_text(text)
    return path
