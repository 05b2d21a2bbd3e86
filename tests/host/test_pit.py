"""`sabot pit` (issue 39) with real processes: production virtual boards dealing live (`sabot vboard --live`) into
one `sabot pit follow`, the pit's page in headless Chromium. A forced card shows on the pit's page as it happens (the
test waits on the page); the pit stopped and started again mid-coup and a shoe's power cut mid-coup lose nothing and
duplicate nothing; a shoe not in the casino's registry is a finding and nothing of it is written; afterwards every
copy the pit kept is byte for byte what `sabot pull-log` pulls, and `sabot fleet ingest` of the pull finds every record
already in the database."""

import json
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from sabot.production_link import restarted_production
from sabot.web.chromium import Chromium
from tests.host.test_nuit import board, enrol
from tests.host.test_vboard import VirtualBoard
from tests.host.test_web import needs_chromium

SABOT = str(Path(sys.executable).parent / "sabot")
COUP = "no_more_bets\ndraw 6\n"
# A program that opens the casino's database (between two of the pit's writes) and holds it until its input ends.
HOLDER = """import duckdb, sys, time
for _ in range(400):
    try:
        con = duckdb.connect(sys.argv[1])
        break
    except duckdb.IOException:
        time.sleep(0.05)
print('open', flush=True)
sys.stdin.read()
"""
FORCED = "force\nclear_alarm\n"  # a card pulled past the locked gate, then the supervisor's key (S-FORCED)
LIVE_MS = "250"  # between two of the croupier's commands


def scenario(table, seed, forced):
    return ("game chemin_de_fer\nseance table=%d\nshoe seed=%d\n" % (table, seed) + COUP * 3
            + (FORCED if forced else "") + COUP * 3)


class PitProcess:
    def __init__(self, folder):
        self.process = subprocess.Popen(
            [SABOT, "pit", "follow", "--registry", "shoes.json", "--db", "casino.duckdb", "--casino", "deauville",
             "--dir", "pit", "--http", "0", "--port", "stranger/fs.tty"], cwd=folder, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        first = self.process.stdout.readline()
        assert first.startswith("sabot pit : "), first + self.process.stderr.read()
        self.url = first.split(" sur ")[1].split(",")[0]

    def state(self):
        import urllib.request

        with urllib.request.urlopen(self.url + "state.json", timeout=10) as answer:
            return json.loads(answer.read())

    def wait(self, done, timeout=300):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if done({t["sabot"]: t for t in state["tables"]}):
                return state
            time.sleep(0.2)
        raise AssertionError("the pit did not get there: %s" % json.dumps(self.state())[:2000])

    def stop(self):
        self.process.terminate()
        out, err = self.process.communicate(timeout=30)
        assert "Traceback" not in err, err
        return out


def live_board(tmp_path, sabot, text, gap_ms=LIVE_MS):
    """The enrolled board started again, dealing text live while it serves, a command every gap_ms."""
    folder = tmp_path / ("b%d" % sabot)
    (folder / "scenario.txt").write_text(text)
    return VirtualBoard(folder, "--scenario", str(folder / "scenario.txt"), "--live", gap_ms, production=True)


def restart_without_scenario(tmp_path, sabot):
    """The board's power back after a cut: its journal recovered, dealing no scenario again."""
    fs = tmp_path / ("b%d" % sabot) / "fs"
    config = json.loads((fs / "config.json").read_text())
    config.pop("scenario", None)
    config.pop("live", None)
    (fs / "config.json").write_text(json.dumps(config))
    shoe = VirtualBoard(fs.parent, production=True)
    restarted_production(shoe.port)
    return shoe


@needs_chromium
@pytest.mark.req("S-FORCED", "J-TAMPER", "F-INGEST", "P-PULL", "H-VERIFY")
def test_two_shoes_dealing_live_into_the_pit_a_forced_card_on_its_page_a_restart_and_a_cut_lose_nothing(
        tmp_path, mpy_build, monkeypatch):
    (tmp_path / "casino.key").write_text(bytes(range(32, 64)).hex())
    monkeypatch.chdir(tmp_path)
    shoes, pit, browser = {}, None, None
    try:
        for sabot in (21, 22):  # enrolled into the registry with their ports, then switched off
            shoe, port = board(tmp_path, sabot)
            enrol(tmp_path, port)
            shoe.close()
        (tmp_path / "stranger-casino").mkdir()
        (tmp_path / "stranger-casino" / "casino.key").write_text(bytes(range(64, 96)).hex())
        stranger, _ = board(tmp_path / "stranger-casino", 99)  # a shoe the casino never enrolled, on a port given
        (tmp_path / "stranger").mkdir()
        (tmp_path / "stranger" / "fs.tty").symlink_to(stranger.port)
        shoes[99] = stranger
        pit = PitProcess(tmp_path)
        (tmp_path / "browser").mkdir()
        browser = Chromium(tmp_path / "browser" / "profile", tmp_path / "browser")
        browser.navigate(pit.url)
        shoes[21] = live_board(tmp_path, 21, scenario(5, 77, forced=True))
        shoes[22] = live_board(tmp_path, 22, scenario(6, 78, forced=False))
        # the forced card on the pit's page, as it happens: the page polled, nothing slept
        said = browser.wait_for("(document.querySelector('#findings li[data-id=\"S-FORCED\"]') || {}).textContent",
                                timeout=300)
        assert "sabot 21, table 5 : S-FORCED" in said and "extraite de force" in said, said
        assert browser.evaluate("document.querySelector('tr[data-sabot=\"21\"]').className") == "flagged"
        # the casino's database read by `sabot fleet` while the pit writes into it: the shoes' records there already
        during = subprocess.run([SABOT, "fleet", "check", "--db", "casino.duckdb", "--json"], capture_output=True,
                                text=True, timeout=120)
        assert during.returncode in (0, 1), during.stderr
        assert {s["sabot"] for s in json.loads(during.stdout)["inventory"]} >= {21}, during.stdout
        # the database held by another program a while: said on the pit's page, its writes kept until it is let go
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, "casino.duckdb"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout.readline() == "open\n"
            # its PID awaited: the fleet check above may have held the database a moment too, and been said so
            waiting = browser.wait_for("!document.getElementById('database').hidden && document.getElementById("
                                       "'database').textContent.includes('(PID %d)') && document.getElementById("
                                       "'database').textContent" % holder.pid, timeout=60)
        finally:
            holder.communicate("")
        assert waiting.startswith("Base du casino en attente : casino.duckdb is open in another program"), waiting
        browser.wait_for("document.getElementById('database').hidden", timeout=60)
        # the pit stopped and started again mid-séance, then a power cut at shoe 22 mid-coup
        pit.stop()
        pit = PitProcess(tmp_path)
        pit.wait(lambda t: t[22]["records"] >= 20 and t[22]["coup"] and t[22]["coup"]["open"])
        shoes.pop(22).close()  # the power cut: the VM gone, its port with it
        shoes[22] = restart_without_scenario(tmp_path, 22)
        ends = pit.wait(lambda t: t[21]["road"] and len(t[21]["road"]) == 6 and not t[21]["coup"]["open"]
                        and t[22]["link"] == "suivi" and t[22]["records"] >= 20)
        page = browser.evaluate("document.body.innerText")  # the pit's page
        browser.navigate(pit.url + "table/21")  # table 5's screen: a roadmap cell opens its coup, card by card
        browser.wait_for("!!document.querySelector('.road-cell[data-coup=\"2\"]')")
        browser.click(".road-cell[data-coup='2']")
        recalled_page = browser.wait_for("document.title.startsWith('Coup 2') && document.body.innerText")
        out = pit.stop()  # the pit lets go of the ports: now the pull
        pit = None
        pulled = {}
        for sabot in (21, 22):
            done = subprocess.run([SABOT, "pull-log", "--port", "b%d/fs.tty" % sabot, "pulled-%d" % sabot,
                                   "--quiet"], capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr
            pulled[sabot] = tmp_path / ("pulled-%d" % sabot)
    finally:
        if browser:
            browser.close()
        if pit:
            pit.stop()
        for shoe in shoes.values():
            shoe.close()
    by = {t["sabot"]: t for t in ends["tables"]}
    assert by[99]["link"] == "refusé" and "n'est pas au registre" in by[99]["why"]
    assert [f["id"] for f in ends["findings"] if f["sabot"] == 99] == ["K-REGISTRY"]
    assert [f["id"] for f in ends["findings"] if f["sabot"] == 21] == ["S-FORCED"]
    assert [f["id"] for f in ends["findings"] if f["sabot"] == 22] == []  # a power cut is not a finding
    assert "S-FORCED" in page
    assert recalled_page.startswith("Journal intègre") and "Table 5 — séance 1 — coup 2" in recalled_page
    assert "signature vérifiée" in recalled_page and "non vérifiée" not in recalled_page
    for sabot in (21, 22):  # the pit's copy is what the pull brings, byte for byte
        copy = tmp_path / "pit" / ("sabot-%04d" % sabot)
        names = sorted(p.name for p in copy.iterdir())
        assert names == sorted(p.name for p in pulled[sabot].iterdir() if p.suffix in (".sbj", ".sbc")), names
        for name in names:
            assert (copy / name).read_bytes() == (pulled[sabot] / name).read_bytes(), (sabot, name)
    with duckdb.connect(str(tmp_path / "casino.duckdb"), read_only=True) as con:
        rows = dict(con.execute("SELECT sabot, count(*) FROM records GROUP BY sabot").fetchall())
        assert con.execute("SELECT count(*) FROM (SELECT DISTINCT sabot, seq FROM records)").fetchone()[0] == sum(
            rows.values())  # nothing twice
        kept = con.execute("SELECT sabot, id FROM journal_findings ORDER BY sabot").fetchall()
        raised = con.execute("SELECT sabot, table_no, seq IS NOT NULL, id FROM pit_findings ORDER BY sabot").fetchall()
    assert set(rows) == {21, 22}  # nothing of the stranger's journal: its finding alone, and 21's
    assert kept == [(21, "S-FORCED"), (99, "K-REGISTRY")], kept
    assert raised == [(21, 5, True, "S-FORCED"), (99, None, False, "K-REGISTRY")], raised  # once, the pit restarted
    ingest = subprocess.run([SABOT, "fleet", "ingest", "pulled-21", "pulled-22", "--db", "casino.duckdb", "--casino",
                             "deauville", "--registry", "shoes.json"], capture_output=True, text=True, cwd=tmp_path)
    assert ingest.returncode == 0, ingest.stdout + ingest.stderr
    assert ingest.stdout.count("already in the database") == 2, ingest.stdout  # every record there already
    with duckdb.connect(str(tmp_path / "casino.duckdb"), read_only=True) as con:
        assert dict(con.execute("SELECT sabot, count(*) FROM records GROUP BY sabot").fetchall()) == rows
    assert "CONSTAT sabot 21, table 5 : S-FORCED" in out  # the pit started again says it again, at once
    # a dispute: table 5's coup 2, card by card from the pit's copy, its checkpoints checked, and the floor's PDF
    recalled = subprocess.run([SABOT, "pit", "recall", "--dir", "pit", "--table", "5", "--coup", "2", "--registry",
                               "shoes.json", "--pdf", "coup-2.pdf"], capture_output=True, text=True, cwd=tmp_path)
    assert recalled.returncode == 0, recalled.stdout + recalled.stderr
    said = recalled.stdout.splitlines()
    assert said[0].startswith("JOURNAL INTÈGRE — table 5, séance 1, coup 2 (chemin de fer), sabot 21"), said
    assert len([line for line in said if line.startswith("  ")]) in (4, 5, 6)  # its cards, each with its time
    assert "point de contrôle" in recalled.stdout and "SIGNATURE FAUSSE" not in recalled.stdout
    assert all(line.endswith("signature vérifiée") for line in said if line.startswith("point de contrôle"))
    assert (tmp_path / "coup-2.pdf").read_bytes()[:5] == b"%PDF-"


@pytest.mark.req("J-TAMPER", "H-VERIFY", "F-INGEST")
def test_a_shoe_whose_journal_was_altered_on_its_flash_is_a_finding_in_the_pit_and_its_database_and_adds_nothing(
        tmp_path, mpy_build, monkeypatch):
    """A card's record changed on the shoe's flash (the board on the bench) before the pit follows it: the pit's
    verification finds the chain broken, says it, keeps it in the database, and writes none of that journal."""
    from firmware.layout import HEADER_SIZE

    (tmp_path / "casino.key").write_text(bytes(range(32, 64)).hex())
    monkeypatch.chdir(tmp_path)
    shoe, port = board(tmp_path, 23, scenario(7, 79, forced=False))  # dealt at its start, before it serves
    enrol(tmp_path, port)
    shoe.close()
    segment = sorted((tmp_path / "b23" / "fs" / "journal").glob("*.sbj"))[0]
    data = bytearray(segment.read_bytes())
    data[HEADER_SIZE + (len(data) - HEADER_SIZE) // 2] ^= 0x04  # a byte of a record in the middle, a card's or not
    segment.write_bytes(bytes(data))
    shoe = restart_without_scenario(tmp_path, 23)
    (tmp_path / "stranger").mkdir()
    pit = PitProcess(tmp_path)
    try:
        state = pit.wait(lambda t: t[23]["findings"])
    finally:
        out = pit.stop()
        shoe.close()
    assert [f["id"] for f in state["findings"] if f["sabot"] == 23] == ["J-TAMPER"], state["findings"]
    assert "CONSTAT sabot 23" in out and "J-TAMPER" in out and "intégrité rompue" in out, out
    with duckdb.connect(str(tmp_path / "casino.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM records").fetchone()[0] == 0
        assert con.execute("SELECT sabot, id FROM journal_findings").fetchall() == [(23, "J-TAMPER")]

