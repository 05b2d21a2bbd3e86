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
