"""Commissioning a new shoe as README.md tells the technician, step by step on the virtual board through the real
mpremote: make deploy (the bundle, checked by hash), sabot key install, sabot seance open, cards dealt, sabot
pull-log, sabot log verify with the casino's key, sabot firmware verify. Then the board behaves as a Pico does:
a soft reset reboots the controller (journal recovered, gate locked), and its config and key survive a restart."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.journal import Key
from firmware.records import R_BOOT, R_SEANCE
from sabot.journalfile import TYPE, Reader, load_segments
from sabot.shoe_link import mpremote
from sabot.verify import read_key
from tests.conftest import ROOT
from tests.host.test_vboard import VirtualBoard

SABOT = str(Path(sys.executable).parent / "sabot")
MPREMOTE = str(Path(sys.executable).parent / "mpremote")
DEAL = "shoe seed=4\nno_more_bets\ndraw 6\nno_more_bets\ndraw 6\n"


def run(*args, cwd=None):
    done = subprocess.run([*map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done


def sabot(*args):
    return run(SABOT, *args)


def gate_and_controller(port):
    said = mpremote(port, "exec", "from firmware.runtime import Runtime\nr = Runtime.current\n"
                    "print(r is not None, r.shell.gate.is_open if r else None)")
    return said.split()


def deal(port, tmp_path):
    (tmp_path / "deal.txt").write_text(DEAL)
    mpremote(port, "fs", "--no-verbose", "cp", str(tmp_path / "deal.txt"), ":deal.txt")
    mpremote(port, "exec", "from boards.vboard import board as vboard\nvboard.play('deal.txt')")


@pytest.mark.req("H-FIRMWARE", "H-VERIFY", "J-TAMPER", "S-IDENT")
def test_a_new_shoe_commissioned_as_the_readme_says_verifies_clean_under_its_key(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path, "--blank")
    try:
        bundle = tmp_path / "bundle"
        made = run("make", "--no-print-directory", "deploy", "BOARD=sim", "PORT=%s" % board.port,
                   "DIST=%s" % bundle, cwd=ROOT)
        assert made.returncode == 0, made.stdout + made.stderr
        manifest = json.loads((bundle / "manifest.json").read_text())
        assert manifest["board"] == "sim" and "files on %s match" % board.port in made.stdout
        assert (board.fs / "manifest.json").read_bytes() == (bundle / "manifest.json").read_bytes()

        key = tmp_path / "sabot-0042.key"
        assert sabot("key", "new", key).returncode == 0
        secret = key.read_text().strip()
        installed = sabot("key", "install", "--port", board.port, key)
        key_id = Key(read_key(key)).id.hex()
        assert installed.returncode == 0 and "key id %s installed" % key_id in installed.stdout
        assert secret not in installed.stdout + installed.stderr  # the secret is never printed
        assert (board.fs / "keys" / "sabot.key").read_text().strip() == secret  # keys/ made on a fresh board

        opened = sabot("seance", "open", "--port", board.port, "--table", 12, "--game", "chemin_de_fer", "--by", 4711)
        assert opened.returncode == 0 and "seance 1 opened at table 12" in opened.stdout, opened.stderr
        deal(board.port, tmp_path)
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "journal")
        assert pulled.returncode == 0, pulled.stderr
        verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--key", key)
        assert verified.returncode == 0 and "result: clean" in verified.stdout, verified.stdout
        assert "DEVELOPMENT" not in verified.stdout
        challenged = sabot("firmware", "verify", "--port", board.port, "--bundle", bundle)
        assert challenged.returncode == 0 and "MATCH" in challenged.stdout, challenged.stdout + challenged.stderr

        # Under the development key, one finding says which key signed it and which was given.
        wrong = sabot("log", "verify", "--lang", "en", tmp_path / "journal")
        assert wrong.returncode == 1 and wrong.stdout.count("J-TAMPER") == 1
        assert key_id in wrong.stdout and Key(read_key(None)).id.hex() in wrong.stdout
    finally:
        board.close()


@pytest.mark.req("S-FAILSAFE", "J-DURABLE")
def test_a_soft_reset_reboots_the_controller_and_a_restart_keeps_config_key_and_journal(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path, "--blank")
    try:
        assert sabot("deploy", "--port", board.port, mpy_build).returncode == 0
        (board.fs / "config.json").write_text(json.dumps({"board": "sim", "sabot": 42}))
        key = tmp_path / "casino.key"
        assert sabot("key", "new", key).returncode == 0
        assert sabot("key", "install", "--port", board.port, key).returncode == 0
        deal(board.port, tmp_path)
        # mpremote without `resume`: a soft reset, as a technician's plain `mpremote exec` does on a Pico.
        reset = run(MPREMOTE, "connect", board.port, "exec", "print('after the reset')")
        assert reset.returncode == 0 and "after the reset" in reset.stdout, reset.stderr
        assert gate_and_controller(board.port) == ["True", "False"]  # recovered, gate locked
    finally:
        board.close()
    again = VirtualBoard(tmp_path)  # the same filesystem: a Pico powered off and on
    try:
        assert json.loads((again.fs / "config.json").read_text()) == {"board": "sim", "sabot": 42}
        assert sabot("seance", "open", "--port", again.port, "--table", 3).returncode == 0
        assert sabot("pull-log", "--port", again.port, tmp_path / "journal").returncode == 0
    finally:
        again.close()
    segments = load_segments([tmp_path / "journal"])
    assert {s.sabot for s in segments} == {42} and {s.key_id for s in segments} == {Key(read_key(key)).id}
    kinds = [r.fields[TYPE] for r in Reader(segments, read_key(key))]
    assert kinds.count(R_BOOT) == 4 and kinds[-1] == R_SEANCE  # key install, soft reset, power-up: each a boot
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--key", key)
    assert verified.returncode == 0, verified.stdout
