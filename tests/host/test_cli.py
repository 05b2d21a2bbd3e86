"""The `sabot` command as people expect it: --version, help for every option, progress bars on a terminal only,
--quiet, `log show` in French, one finding for a wrong key in the report too (H-EXPORT, H-VERIFY)."""

import argparse
import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from hashlib import sha256
from pathlib import Path

import pytest

from boards.sim import p256
from boards.sim.board import SimBoard
from boards.sim.element import SimElement, journal_key
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.storage import FileStorage
from firmware.version import VERSION
from sabot import tool_version
from sabot.cli import parser
from sabot.report.cli import report
from tests.conftest import SCENARIOS
from tests.host.test_rollback import with_element

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300)


def on_a_terminal(*args):
    """(exit status, what the terminal showed on stderr) of a command whose stderr is a pseudo-terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal has a size
    process = subprocess.Popen([SABOT, *map(str, args)], stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return process.wait(timeout=300), shown.decode(errors="replace")


def every_action(top):
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from ((name + " " + where, a) for where, a in every_action(sub))
        elif not isinstance(action, argparse._HelpAction):
            yield "", action


@pytest.mark.req("H-EXPORT")
def test_version_names_the_tool_and_the_firmware():
    done = sabot("--version")
    assert done.returncode == 0 and done.stdout.strip() == "sabot %s (firmware %s)" % (tool_version(), VERSION)


@pytest.mark.req("H-EXPORT")
def test_every_option_and_argument_has_its_help():
    missing = [(where, action.dest) for where, action in every_action(parser()) if not action.help]
    assert not missing


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli") / "incidents"
    assert sabot("sim", SCENARIOS / "incidents.txt", "--log", folder, "--quiet").returncode == 0
    return folder


@pytest.mark.req("H-SIM")
def test_sim_quiet_prints_the_summary_alone(journal, tmp_path):
    loud = sabot("sim", SCENARIOS / "incidents.txt", "--log", tmp_path / "loud")
    quiet = sabot("sim", SCENARIOS / "incidents.txt", "--log", tmp_path / "quiet", "--quiet")
    assert quiet.returncode == 0 and len(quiet.stdout.splitlines()) < len(loud.stdout.splitlines()) // 5
    assert "24 cards out of the shoe, 24 journalled" in quiet.stdout and "journal:" in quiet.stdout


@pytest.mark.req("H-VERIFY", "H-EXPORT")
@pytest.mark.parametrize("command", [["log", "verify"], ["log", "show"], ["log", "export"], ["report"]])
def test_long_work_shows_progress_on_a_terminal_and_not_with_quiet(command, journal, tmp_path):
    extra = ["-o", tmp_path / "r.html"] if command == ["report"] else []
    status, shown = on_a_terminal(*command, journal, *extra)
    assert status in (0, 1) and "%|" in shown and ("report" if command == ["report"] else command[1]) in shown, shown
    status, shown = on_a_terminal(*command, journal, *extra, "--quiet")
    assert "%|" not in shown, shown
    piped = sabot(*command, journal, *([] if not extra else ["-o", tmp_path / "p.html"]))
    assert "%|" not in piped.stderr  # not a terminal: no bar


@pytest.mark.req("H-EXPORT")
def test_log_show_in_french_by_default_with_dates_and_the_seances_game_and_employee(journal):
    """French, as verify and the report speak: --lang en for English."""
    text = sabot("log", "show", journal).stdout
    assert ("Séance 1 ouverte le 2026-11-30 09:00:00 (UTC+01:00) : table 5, chemin de fer, affectée par "
            "l'employé") in text
    assert "brûlées   A♥" not in text and "ALARME : extraction forcée" in text and "gagnant : banque" in text
    assert "Séance 1 opened" in sabot("log", "show", journal, "--lang", "en").stdout


@pytest.mark.req("J-TAMPER", "H-VERIFY", "H-EXPORT")
def test_a_journal_checked_with_another_elements_public_key_gets_one_finding_naming_both_key_ids(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")), segment_records=8)
    with_element(board, tmp_path, SimElement(bytes(range(32))))
    run(parse("seance table=1\nshoe seed=1\n" + "no_more_bets\ndraw 6\n" * 6), board)
    board.close()
    assert len(list((tmp_path / "journal").glob("*.sbj"))) > 3
    theirs = sha256(b"sabot element id " + journal_key(bytes(range(32)))).digest()[:8].hex()
    given = tmp_path / "other.pub"
    given.write_text(p256.public_key(p256.scalar(bytes(32))).hex())
    mine = sha256(b"sabot element id " + bytes.fromhex(given.read_text())).digest()[:8].hex()
    done = sabot("log", "verify", tmp_path / "journal", "--json", "--public-key", given)
    findings = [f for f in json.loads(done.stdout)["findings"] if "another element" in f["message"]]
    assert len(findings) == 1 and theirs in findings[0]["message"] and mine in findings[0]["message"]
    page = tmp_path / "r.html"
    assert report([tmp_path / "journal"], page, public_key=str(given)) == 0
    text = page.read_text(encoding="utf-8")
    assert text.count("écrit sous un autre élément sécurisé, d&#x27;identifiant %s" % theirs) == 1


@pytest.mark.req("H-VERIFY")
def test_verify_speaks_french_to_people_by_default_english_on_request_and_json_for_programs(tmp_path):
    journal = tmp_path / "journal"
    sim = subprocess.run([SABOT, "sim", str(SCENARIOS / "incidents.txt"), "--log", str(journal), "--quiet"],
                         capture_output=True, text=True)
    assert sim.returncode == 0, sim.stderr
    french = subprocess.run([SABOT, "log", "verify", str(journal)], capture_output=True, text=True)
    assert french.returncode == 1 and "résultat : 2 constat(s)" in french.stdout
    assert "carte A♥ extraite de force, sabot verrouillé (brûlée)" in french.stdout
    assert "intégrité : intacte" in french.stdout and "clé de DÉVELOPPEMENT" in french.stdout
    english = subprocess.run([SABOT, "log", "verify", str(journal), "--lang", "en"], capture_output=True, text=True)
    assert english.returncode == 1 and "result: 2 finding(s)" in english.stdout and "card AH forced" in english.stdout
    as_json = json.loads(subprocess.run([SABOT, "log", "verify", str(journal), "--json"], capture_output=True,
                                        text=True).stdout)
    assert [f["id"] for f in as_json["findings"]] == ["S-FORCED", "S-ONE"] and "forced" in as_json["findings"][0][
        "message"]


@pytest.mark.req("H-VERIFY", "H-EXPORT")
def test_the_project_carries_the_regulation_and_requirements_it_cites_and_points_outside_it_nowhere():
    from tests.conftest import ROOT

    cited = ("docs/regulation/casino-games-articles-58-62.fr.txt", "docs/regulation/REQUIREMENTS.md")
    for name in cited:
        assert (ROOT / name).is_file() and (ROOT / name).stat().st_size > 1000, name
    readme = (ROOT / "README.md").read_text()
    assert "`docs/regulation/`" in readme and "`docs/regulation/REQUIREMENTS.md`" in readme
    assert "casino-games-articles-58-62.fr.txt" in (ROOT / "host_tools/sabot/report/regulation.py").read_text()
    texts = [p for p in ROOT.glob("*.md")] + [p for folder in ("docs", "boards", "host_tools", "firmware", "tests")
                                               for p in (ROOT / folder).rglob("*") if p.suffix in (".md", ".py")]
    # test_make_sources and test_technician_path quote the Makefile's word of where it looked
    outside = [p.relative_to(ROOT) for p in texts if "../shared" in p.read_text(errors="replace")
               and p.name not in ("test_cli.py", "test_make_sources.py", "test_technician_path.py")]
    assert not outside, outside  # a clone has nothing beside it


@pytest.mark.req("H-FIRMWARE", "H-VERIFY")
def test_a_missing_bundle_and_a_missing_key_file_are_said_missing_in_one_line(tmp_path):
    done = subprocess.run([SABOT, "firmware", "verify", "--port", "/dev/null", "--bundle", tmp_path / "dist/sim-0"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Errno" not in done.stderr
    assert done.stderr == "sabot firmware verify: error: no bundle %s (no manifest.json in it): make dist BOARD=... " \
                          "makes dist/BOARD-%s\n" % (tmp_path / "dist/sim-0", VERSION)
    done = subprocess.run([SABOT, "log", "verify", tmp_path, "--key", tmp_path / "sabot-0042.key"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr == "sabot log verify: erreur : %s : aucun fichier de clé de ce nom " \
        "(%s: no such key file)\n" % (tmp_path / "sabot-0042.key", tmp_path / "sabot-0042.key")  # French first
    done = subprocess.run([SABOT, "log", "verify", tmp_path, "--key", tmp_path / "sabot-0042.key", "--lang", "en"],
                          capture_output=True, text=True)
    assert done.stderr == "sabot log verify: error: %s: no such key file\n" % (tmp_path / "sabot-0042.key")
