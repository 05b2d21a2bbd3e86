"""`sabot pit` following the emulated production Pico while its croupier deals (issue 34). The pit reads the shoe's
segments and its newest bytes after every record; the shoe answers each read from what its ring keeps
(firmware/ring_recent.py), so its croupier's draws open the gate as promptly as with no pit. Walking the ring for
each read held the loop 120 to 180 ms a read by the fourth coup: a draw waited up to 144 ms for its gate, the
emulated croupier had taken the card back by then (100 ms), and the shoe jammed. Here every card the tableau allows
comes out, the same cards in the same coups as the sim's shoe deals from the same scenario, no alarm, and the pit's
copy is the shoe's journal. Each draw's gate opens within the longest pass the loop may take (bench/budgets.json's
pico.flood.longest_pass_ms, the croupier's patience), in the chip's simulated time: the walk made 160 ms here."""

import json

import pytest

from boards.rpi_pico import pins
from sabot.pico import Pico, play
from sabot.pico_vboard import factory
from sabot.production_link import restarted_production
from tests.conftest import ROOT
from tests.host.forge import played, write
from tests.host.test_nuit import enrol
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)
from tests.host.test_pit import PitProcess
from tests.host.test_vboard import sabot

PICO = 45
COUPS = 6  # the ring holds more undrained frames coup after coup until a drain: the walk's reads grew with them
DEAL = "game chemin_de_fer\nseance table=3\nshoe seed=45\n" + "no_more_bets\ndraw 6\n" * COUPS
GAP_US = 80000  # a press 40 ms after the last card's step, the emulator's, falls within the shoe's watch for a double
# feed, 60 ms after a card (S-ONE): refused, once a pit's read had the loop answer it first


def _cards(folder):
    """(coup, card, hand, disposition) of each card the journal in folder says came out, from `sabot log export`."""
    done = sabot("log", "export", folder, "--quiet")
    assert done.returncode in (0, 1) and done.stdout, done.stderr  # 1: the development key's checks, not ours here
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return [(r["coup"], r["card"], r["hand"], r["disposition"]) for r in rows if r["event"] == "card"]


def enrolled_pico(tmp_path, sabot=PICO):
    """The emulated production Pico from the factory's bench (its config.json: the given number, table 3, a card
    reader), started and enrolled into tmp_path's shoes.json under its casino.key, its port pico/shoe.flash.tty."""
    flash = tmp_path / "pico" / "shoe.flash"
    flash.parent.mkdir()
    code = factory(flash, {"config.json": json.dumps({"board": "rpi_pico", "sabot": sabot, "table": 3,
                                                      "game": "chemin_de_fer", "reader": True})})
    pico = Pico(flash).start()
    try:
        restarted_production(pico.port)
        (flash.parent / "shoe.flash.tty").symlink_to(pico.port)
        enrol(tmp_path, "pico/shoe.flash.tty", code)
    except BaseException:
        pico.stop()
        raise
    return pico


def _draws_to_gate_ms(events):
    """From each press of the draw button to the gate's opening that answered it, in simulated ms (the emulator's
    events); a press the gate did not answer before the next one (refused: the tableau's) has none."""
    waits, pressed = [], None
    for event in events:
        if event["ev"] == "press":
            pressed = event["t_us"] if event["pin"] == pins.DRAW else None
        elif event["ev"] == "pin" and event["pin"] == pins.GATE and event["level"] != pins.GATE_LOCKED and pressed:
            waits.append((event["t_us"] - pressed) / 1000)
            pressed = None
    return waits


@pytest.mark.pico
@pytest.mark.req("P-PULL", "S-ONE", "J-EVERY", "H-SIM")
def test_a_pit_following_the_pico_as_it_deals_keeps_no_draw_waiting_and_copies_every_record(
        tmp_path, mpy_build, image, monkeypatch):  # noqa: F811
    (tmp_path / "casino.key").write_text(bytes(range(32, 64)).hex())
    monkeypatch.chdir(tmp_path)
    pico, pit = enrolled_pico(tmp_path), None
    try:
        (tmp_path / "stranger").mkdir()  # PitProcess's extra port: none here
        pit = PitProcess(tmp_path)
        (tmp_path / "deal.txt").write_text(DEAL)
        dealt = play(pico, tmp_path / "deal.txt", gap_us=GAP_US)
        state = pit.wait(lambda t: t[PICO]["road"] and len(t[PICO]["road"]) == COUPS and not t[PICO]["coup"]["open"],
                         timeout=120)
        table = {t["sabot"]: t for t in state["tables"]}[PICO]
        assert table["alarms"] == [] and table["findings"] == [] and table["link"] == "suivi", table
        pit.stop()
        pit = None
        pulled = sabot("pull-log", "--port", "pico/shoe.flash.tty", "pulled", "--quiet")
        assert pulled.returncode == 0, pulled.stderr
    finally:
        if pit:
            pit.stop()
        pico.stop()
    waits = _draws_to_gate_ms(pico.events)
    budget = json.loads((ROOT / "bench" / "budgets.json").read_text())["budgets"]["pico.flood.longest_pass_ms"]
    assert len(waits) == dealt["dealt"] and max(waits) <= budget["max"], waits
    sim = _cards(write(tmp_path / "sim", played(DEAL)))
    assert len(sim) > 4 * COUPS and dealt["dealt"] == len(sim), dealt  # each draw the tableau allows, none taken back
    assert _cards(tmp_path / "pit" / ("sabot-%04d" % PICO)) == sim
    copy, pull = tmp_path / "pit" / ("sabot-%04d" % PICO), tmp_path / "pulled"
    for kept in copy.iterdir():
        assert kept.read_bytes() == (pull / kept.name).read_bytes(), kept.name
