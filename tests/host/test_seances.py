"""S-IDENT (Article 58): a séance records who assigned the shoe to which table; across journals, a shoe kept
at one table for N consecutive séances is flagged, and a deux tableaux shoe loaded twice in one séance."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.devkey import DEVELOPMENT_KEY
from firmware.records import R_SEANCE, R_SEANCE_CLOSE
from sabot.journalfile import CARD, CODE, CONDITION, DISPOSITION, TYPE, Reader, load_segments
from tests.host.test_vboard import VirtualBoard

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300)


def journal(tmp_path, name, text):
    scenario = tmp_path / (name + ".txt")
    scenario.write_text(text)
    assert sabot("sim", scenario, "--log", tmp_path / name).returncode == 0
    return tmp_path / name


@pytest.mark.req("S-IDENT")
def test_seances_over_mpremote_record_table_game_and_who(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path)  # the build installed, the controller serving
    try:
        opened = sabot("seance", "open", "--port", board.port, "--table", 12, "--game", "deux_tableaux_ouverte",
                       "--by", 4711)
        assert opened.returncode == 0 and "seance 1 opened at table 12" in opened.stdout, opened.stderr
        closed = sabot("seance", "close", "--port", board.port)
        assert closed.returncode == 0 and "seance 1 closed" in closed.stdout
        assert sabot("pull-log", "--port", board.port, tmp_path / "pulled").returncode == 0
    finally:
        board.close()
    records = list(Reader(load_segments([tmp_path / "pulled"]), DEVELOPMENT_KEY))
    opened = [r.fields for r in records if r.fields[TYPE] == R_SEANCE]
    assert [(f[CODE], f[CARD], f[DISPOSITION] | f[CONDITION] << 8) for f in opened] == [(12, 2, 4711)]
    assert [r.fields[CODE] for r in records if r.fields[TYPE] == R_SEANCE_CLOSE] == [12]


@pytest.mark.req("S-IDENT", "H-VERIFY")
def test_the_same_table_in_consecutive_seances_is_flagged_across_journals(tmp_path):
    day = [journal(tmp_path, "day%d" % i, "seance table=%d\nshoe seed=%d\nno_more_bets\ndraw 6\n" % (table, i))
           for i, table in enumerate((3, 3, 3, 5, 3))]
    # Each journal alone is clean; together they show sabot 1 at table 3 in three consecutive séances.
    assert sabot("log", "verify", "--lang", "en", day[0], "--allow-development-key").returncode == 0
    run = sabot("log", "verify", "--lang", "en", *day, "--json")
    assert run.returncode == 1
    findings = json.loads(run.stdout)["findings"]
    assert [(f["id"], f["article"]) for f in findings] == [("S-IDENT", "Article 58")]
    assert "assigned to table 3 in 3 consecutive séances" in findings[0]["message"]
    assert findings[0]["journal"] == str(day[2])
    relaxed = sabot("log", "verify", "--lang", "en", *day, "--same-table", "4", "--allow-development-key")
    assert relaxed.returncode == 0, relaxed.stdout


@pytest.mark.req("G-DTL", "H-VERIFY")
def test_a_deux_tableaux_shoe_loaded_twice_in_one_seance_is_flagged(tmp_path):
    twice = journal(tmp_path, "twice", "game deux_tableaux_limitee\nseance table=1\nshoe seed=1\nno_more_bets\n"
                    "draw 9\nshoe seed=2\nno_more_bets\ndraw 9\n")
    run = sabot("log", "verify", "--lang", "en", twice, "--json")
    found = json.loads(run.stdout)["findings"]
    assert [f["id"] for f in found] == ["G-DTL"] and "new cards each séance" in found[0]["message"]
    once = journal(tmp_path, "once", "game deux_tableaux_limitee\nseance table=1\nshoe seed=1\nno_more_bets\n"
                   "draw 9\nseance table=2\nshoe seed=2\nno_more_bets\ndraw 9\n")
    assert sabot("log", "verify", "--lang", "en", once, "--allow-development-key").returncode == 0
