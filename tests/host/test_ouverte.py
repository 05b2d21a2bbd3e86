"""Article 61 at banque ouverte: each séance's exact start time, from the journal, declared in French to the
authorities the article names (O-START)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sabot.ouverte.declaration import RECIPIENTS
from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")


def _sim(tmp_path, scenario):
    log = tmp_path / scenario
    subprocess.run([SABOT, "sim", str(SCENARIOS / scenario), "--log", str(log), "--quiet"], check=True,
                   capture_output=True)
    rows = [json.loads(line) for line in subprocess.run([SABOT, "log", "export", str(log)], capture_output=True,
                                                        text=True).stdout.splitlines()]
    return log, rows


def _declare(*args):
    return subprocess.run([SABOT, "ouverte", "declaration", *map(str, args)], capture_output=True, text=True)


@pytest.mark.req("O-START")
def test_each_banque_ouverte_seance_is_declared_with_its_exact_start_to_the_three_authorities(tmp_path):
    log, rows = _sim(tmp_path, "deux_tableaux_ouverte.txt")
    done = _declare(log, "--establishment", "Casino de Deauville", "--allow-development-key")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("DÉCLARATION DE L'HEURE DE DÉBUT DES SÉANCES DE BACCARA À BANQUE OUVERTE")
    assert "Établissement : Casino de Deauville" in text
    assert all(r in text for r in RECIPIENTS)
    opened = [r for r in rows if r["event"] == "seance"]
    assert opened
    for row in opened:  # the journal says 08:00:00.500 UTC: the declaration says 09 h 00 min 00 s in Paris
        hour, minute, second = row["time"][11:19].split(":")
        line = next(li for li in text.splitlines() if li.startswith("Séance n° %d," % row["seance"]))
        assert "à %02d h %s min %s s (heure de Paris, UTC+01:00)" % (int(hour) + 1, minute, second) in line
        assert "enregistrement n° %d" % row["seq"] in line
    assert "dont l'intégrité a été vérifiée" in text


@pytest.mark.req("O-START")
def test_a_journal_without_banque_ouverte_declares_none_and_a_development_key_journal_is_no_proof(tmp_path):
    log, _ = _sim(tmp_path, "full_shoe_chemin_de_fer.txt")
    done = _declare(log)
    assert done.returncode == 1
    assert "aucune séance de baccara à banque ouverte" in done.stdout
    assert "N'EST PAS ÉTABLIE" in done.stdout


def test_the_declaration_replaces_no_file_unasked(tmp_path):
    out = tmp_path / "declaration.txt"
    out.write_text("the casino's own notes\n")
    done = _declare(tmp_path, "-o", out)
    assert done.returncode == 2 and "--force" in done.stderr
    assert out.read_text() == "the casino's own notes\n"


def _played(text, meddle=None):
    """The journal's folder of a scenario played on the sim board, with meddle(board, line) run before each line's
    command: a shoe whose state a fault corrupted, so that it writes what the specified shoe would refuse."""
    from boards.sim.board import SimBoard
    from boards.sim.flash import MemoryStorage
    from boards.sim.runner import act
    from boards.sim.scenario import parse
    from firmware import games

    storage = MemoryStorage(1 << 22)
    board = SimBoard(storage)
    board.power_on()
    game = games.CHEMIN_DE_FER
    for line, command, a, b in parse(text):
        if meddle:
            meddle(board, line)
        game = act(board, game, command, a, b)
    return {n: bytes(d) for n, d in storage.files.items()}


def _findings(tmp_path, files):
    from firmware.devkey import DEVELOPMENT_KEY
    from sabot.verify import check
    from tests.host.test_tamper import write

    _, _, findings = check([write(tmp_path / "j", files)], DEVELOPMENT_KEY)
    return [(f.id, f.message) for f in findings]


_DAY = ("seance table=1 game=deux_tableaux_ouverte\nshoe seed=1\nno_more_bets\ndraw 6\ncoup_end\nseance_close\n"
        "wait 3600000\nseance table=1 game=deux_tableaux_ouverte\nseance_close\nwait 3600000\n"
        "seance table=1 game=deux_tableaux_ouverte\n")


@pytest.mark.req("O-SEANCES", "O-BREAK", "O-DRAW", "H-VERIFY")
def test_the_bundled_article_61_scenario_refuses_journals_and_verifies(tmp_path):
    log, rows = _sim(tmp_path, "banque_ouverte_article61.txt")
    refused = [r["detail"] for r in rows if r["event"] == "refusal"]
    assert refused == ["the break after the day's first séance is not over (Article 61)",
                       "two banque ouverte séances already this day (Article 61)"]
    assert [r["detail"] for r in rows if r["event"] == "draw"] == ["3 candidates, random value 149: the bank to "
                                                                     "player 3"]
    verify = subprocess.run([SABOT, "log", "verify", str(log), "--allow-development-key"], capture_output=True,
                            text=True)
    assert verify.returncode == 0, verify.stdout
    shown = subprocess.run([SABOT, "log", "show", str(log)], capture_output=True, text=True).stdout
    assert "ouverture de séance refusée : déjà deux séances de banque ouverte dans la journée (article 61)" in shown
    assert "banque adjugée par tirage au sort : 3 candidats, valeur tirée 149 : banque au joueur n° 3" in shown


@pytest.mark.req("O-SEANCES", "H-VERIFY")
def test_a_third_seance_in_a_casino_day_is_a_finding(tmp_path):
    def forget(board, line):  # a shoe that lost the day's count
        if line == 11:
            board.shell.ctl.ouverte.rank = 0

    assert _findings(tmp_path, _played(_DAY)) == []
    found = _findings(tmp_path, _played(_DAY, forget))
    assert [i for i, _ in found] == ["O-SEANCES", "O-SEANCES"]
    assert "séance 3 at banque ouverte in one casino day: two at most" in found[1][1]


@pytest.mark.req("O-BREAK", "H-VERIFY")
def test_a_second_seance_before_the_break_is_over_is_a_finding(tmp_path):
    def hurry(board, line):  # a shoe whose break was shortened after the first séance
        if line == 8:
            board.shell.ctl.ouverte.closed -= 3600

    found = _findings(tmp_path, _played(_DAY.replace("wait 3600000\n", "wait 1800000\n", 1), hurry))
    assert [i for i, _ in found][:1] == ["O-BREAK"] and "the break is 60 min" in found[0][1]


@pytest.mark.req("O-DRAW", "H-VERIFY")
def test_a_draw_whose_winner_the_random_value_does_not_give_is_a_finding(tmp_path):
    text = "seance table=1 game=deux_tableaux_ouverte\ncandidate 4\ncandidate 8\nadjudicate\nshoe seed=1\n"

    def swap(board, line):  # the shoe's candidates changed in its memory, not in its journal
        if line == 4:
            day = board.shell.ctl.ouverte
            day.candidates[0], day.candidates[1] = day.candidates[1], day.candidates[0]

    assert _findings(tmp_path, _played(text)) == []
    found = _findings(tmp_path, _played(text, swap))
    assert [i for i, _ in found] == ["O-DRAW"] and "the random value" in found[0][1]
