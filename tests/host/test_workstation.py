"""The workstation's own commands: `sabot doctor` (each problem said with the command that fixes it, exit 0 or 1,
--json), every --help listing its exit codes (sabot/exit_codes.py), and `sabot completion bash`."""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from sabot import doctor
from sabot.cli import main, parser
from sabot.exit_codes import EXIT_CODES


@pytest.fixture
def clone(tmp_path):
    """A clone as doctor sees it: its venv set up after its requirements, and no node_modules."""
    root = tmp_path / "clone"
    (root / ".venv" / "bin").mkdir(parents=True)
    for name in ("requirements.txt", "package.json", "package-lock.json", "Makefile"):
        (root / name).write_text("MP_URL ?= https://example.org/micropython-1.28.0.tar.xz\n" if name == "Makefile"
                                 else "")
    past = time.time() - 60
    for name in ("requirements.txt", "package.json", "package-lock.json"):
        os.utime(root / name, (past, past))
    (root / ".venv" / "bin" / "python").write_text("")
    (root / ".venv" / ".setup-done").write_text("")
    return root


@pytest.fixture
def pty_port():
    master, slave = os.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def doctor_says(capsys, *args):
    status = main(["doctor", *args])
    return status, capsys.readouterr().out.splitlines()


def public_key():
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    return key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)[1:].hex()


def test_doctor_says_a_missing_node_modules_with_the_command_that_fixes_it(clone, capsys, pty_port, tmp_path):
    status, lines = doctor_says(capsys, "--root", str(clone), "--port", pty_port,
                                "--registry", str(tmp_path / "none.json"))
    assert status == 1
    assert "OK : venv : %s prêt" % (clone / ".venv") in lines
    assert ("À corriger : node_modules : absent (le port WebAssembly de MicroPython, pour --runtime micropython32 et "
            "sabot web) → make -C %s setup" % clone) in lines
    assert "OK : port %s : prêt" % pty_port in lines
    assert lines[-1].startswith("sabot doctor : 1 point(s) à corriger")
    assert [line for line in lines if line.startswith("À corriger :")] == [
        line for line in lines if "node_modules" in line]


def test_doctor_in_the_clone_says_make_setup_and_json_says_the_same(clone, tmp_path, pty_port):
    sabot = str(Path(sys.executable).parent / "sabot")
    run = subprocess.run([sabot, "doctor", "--root", ".", "--json", "--port", pty_port, "--registry",
                          str(tmp_path / "none.json")], cwd=clone, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    said = json.loads(run.stdout)
    assert said["ok"] is False
    failed = [c for c in said["checks"] if c["required"] and not c["ok"]]
    assert [(c["id"], c["fix"]) for c in failed] == [("node_modules", "make setup")]


def test_doctor_passes_once_node_modules_is_there(clone, capsys, pty_port, tmp_path):
    (clone / "node_modules").mkdir()
    (clone / "node_modules" / ".package-lock.json").write_text("{}")
    status, lines = doctor_says(capsys, "--root", str(clone), "--port", pty_port,
                                "--registry", str(tmp_path / "none.json"))
    assert status == 0 or any("Node" in line and "À corriger" in line for line in lines)
    assert any(line.startswith("OK : node_modules") for line in lines)


def test_doctor_checks_the_ports_given_and_a_virtual_board_s_missing_one(clone, capsys, tmp_path):
    status, lines = doctor_says(capsys, "--root", str(clone), "--port", str(tmp_path / "shoe.tty"))
    assert status == 1
    assert any(line.startswith("À corriger : port %s : absent" % (tmp_path / "shoe.tty"))
               and line.endswith("→ sabot vboard --fs %s &" % (tmp_path / "shoe")) for line in lines)
    regular = tmp_path / "notaport"
    regular.write_text("")
    assert doctor.port(str(regular), True)["message"].startswith("port %s : pas un port série" % regular)


def test_doctor_checks_each_entry_of_the_casino_s_registry(clone, capsys, pty_port, tmp_path):
    registry = tmp_path / "shoes.json"
    good = {"sabot": 41, "public_key": public_key(), "casino_key": "00" * 8, "enrolled": "2026-12-01T09:00:00+00:00"}
    registry.write_text(json.dumps({"shoes": [good]}))
    (clone / "node_modules").mkdir()
    (clone / "node_modules" / ".package-lock.json").write_text("{}")
    status, lines = doctor_says(capsys, "--root", str(clone), "--port", pty_port, "--registry", str(registry))
    assert "OK : registre %s : 1 sabot(s), chaque entrée bien formée" % registry in lines
    twice = dict(good, public_key=public_key())
    broken = {"sabot": 42, "public_key": "00" * 64, "casino_key": None, "enrolled": "2026-12-01T09:00:00+00:00"}
    registry.write_text(json.dumps({"shoes": [good, twice, broken]}))
    status, lines = doctor_says(capsys, "--root", str(clone), "--port", pty_port, "--registry", str(registry))
    assert status == 1
    said = next(line for line in lines if "registre" in line)
    assert said.startswith("À corriger : registre %s : " % registry)
    assert "entrée 3 (sabot 42) : public_key n'est pas une clé publique P-256" in said
    assert "sabot 41 : 2 entrées (1, 2)" in said
    assert said.endswith("→ sabot key enrol --port PORT --registry %s" % registry)
    registry.write_text("{not json")
    status, lines = doctor_says(capsys, "--root", str(clone), "--port", pty_port, "--registry", str(registry))
    assert status == 1 and any(line.startswith("À corriger : registre %s : illisible" % registry) for line in lines)


def test_doctor_on_a_clone_with_nothing_says_make_setup_first(tmp_path, capsys):
    status, lines = doctor_says(capsys, "--root", str(tmp_path), "--port", "/nonexistent/ttyACM9")
    assert status == 1
    assert lines[0] == "À corriger : venv : pas de .venv prêt dans %s → make -C %s setup" % (tmp_path, tmp_path)


def parsers(top, path=()):
    yield " ".join(path), top
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, path + (name,))


def test_every_command_s_help_lists_its_exit_codes():
    tree = dict(parsers(parser()))
    assert set(tree) == set(EXIT_CODES), "sabot/exit_codes.py: commands missing %s, gone %s" % (
        sorted(set(tree) - set(EXIT_CODES)), sorted(set(EXIT_CODES) - set(tree)))
    for path, command in tree.items():
        text = command.format_help()
        assert "\nexit codes:\n  0  " in text, path
        assert "  2  " in text, path
        codes = EXIT_CODES[path]
        assert ("  1  %s\n" % codes[1] in text) if codes[1] else "  1  " not in text.split("exit codes:")[1], path


def test_sabot_help_shows_its_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["log", "verify", "--help"])
    assert capsys.readouterr().out.endswith("exit codes:\n  0  clean\n  1  findings\n  2  unusable input\n")


def test_bash_completion_completes_the_commands_and_their_options(tmp_path, capsys):
    assert main(["completion", "bash"]) == 0
    script = tmp_path / "sabot.bash"
    script.write_text(capsys.readouterr().out)
    assert "complete -o bashdefault -F _shtab_sabot sabot" in script.read_text()
    probe = ('source %s; complete_at() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _shtab_sabot sabot "${@: -1}" '
             '"${@: -2:1}"; echo "${COMPREPLY[*]}"; }; complete_at sabot doc; complete_at sabot log verify --reg; '
             'complete_at sabot fleet ch' % script)
    run = subprocess.run(["bash", "-c", probe], capture_output=True, text=True)
    assert run.stdout.splitlines() == ["doctor", "--registry --registry-signer", "check"], run.stderr
