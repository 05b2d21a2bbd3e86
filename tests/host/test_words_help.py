"""What the commands say, read as their users read them (issue 40, finding 15): each `--help` true of what the
command does, `log show` telling the stop card from the burnt cards."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")


def said(*args, cwd=None):
    done = subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.mark.req("P-PULL", "H-VERIFY")
def test_each_help_says_what_the_command_does():
    top = " ".join(said("--help").stdout.split())
    for command in ("pull-log", "seance"):
        line = top[top.index(command + " "):][:200]
        assert "over the protocol" in line and "over mpremote" in line, line  # production and development shoes
    report = " ".join(said("report", "--help").stdout.split())
    assert "without it, the development key" not in report and "format 3 journal's key file" in report
    verify = " ".join(said("log", "verify", "--help").stdout.split())
    assert "without it, the development key" not in verify
    synth = " ".join(said("fleet", "synth", "--help").stdout.split())
    assert "keys/sabot-NNNN.key" not in synth and "CASINO/shoes.json" in synth and "at least this many" in synth


@pytest.mark.req("H-EXPORT", "S-STOP")
def test_log_show_says_the_stop_card_apart_from_the_burnt_cards(tmp_path):
    assert said("sim", SCENARIOS / "full_shoe_chemin_de_fer.txt", "--log", "journal", "--quiet",
                cwd=tmp_path).returncode == 0
    shown = said("log", "show", "journal", cwd=tmp_path).stdout
    stop = [line for line in shown.splitlines() if "arrêt" in line and "sortie" in line]
    assert len(stop) == 1 and stop[0].strip().startswith("carte d'arrêt sortie, en position"), shown
    assert not [line for line in shown.splitlines() if line.strip().startswith("brûlées") and "arrêt" in line]
    english = said("log", "show", "journal", "--lang", "en", cwd=tmp_path).stdout
    assert "stop card out, position" in english
