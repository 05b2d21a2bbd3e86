"""A commissioned shoe's key: made by `sabot key new`, used by the verifier, never the development key."""

import subprocess
import sys
from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.mac import Key
from firmware.receipt import receipt
from firmware.storage import FileStorage

SABOT = str(Path(sys.executable).parent / "sabot")


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_a_journal_under_a_shoes_own_key_verifies_with_that_key_only(tmp_path):
    key_file = tmp_path / "sabot-0042.key"
    made = subprocess.run([SABOT, "key", "new", str(key_file)], capture_output=True, text=True)
    assert made.returncode == 0 and len(bytes.fromhex(key_file.read_text())) == 32
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    again = subprocess.run([SABOT, "key", "new", str(key_file)], capture_output=True, text=True)
    assert again.returncode == 2 and "File exists" in again.stderr  # a key is never overwritten

    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    board.key = Key(bytes.fromhex(key_file.read_text()))
    run(parse("seance table=1\nshoe seed=1\nno_more_bets\ndraw 4\ncoup_end"), board)
    (tmp_path / "journal" / "receipt.json").write_text(receipt(board.shell.journal, bytes(32)))  # as pull-log's
    board.close()

    own = subprocess.run([SABOT, "log", "verify", "--lang", "en", str(tmp_path / "journal"), "--key", str(key_file)],
                         capture_output=True, text=True)
    assert own.returncode == 0 and "DEVELOPMENT" not in own.stdout and "result: clean" in own.stdout
    development = subprocess.run([SABOT, "log", "verify", "--lang", "en", str(tmp_path / "journal")],
                                 capture_output=True, text=True)
    assert development.returncode == 1
    assert "the DEVELOPMENT key" in development.stdout and "written under another key" in development.stdout


@pytest.mark.req("H-VERIFY", "J-TAMPER")
def test_a_development_key_journal_is_never_ok_unless_the_caller_allows_it(tmp_path):
    """Anyone can re-sign a journal with the public development key: with no key given, verify says so on every
    output and counts the journal as clean only with --allow-development-key (the sim's and the tests' use)."""
    import json

    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    run(parse("seance table=1\nshoe seed=1\nno_more_bets\ndraw 6"), board)
    (tmp_path / "journal" / "receipt.json").write_text(receipt(board.shell.journal, bytes(32)))  # as pull-log's
    board.close()
    folder = str(tmp_path / "journal")
    text = subprocess.run([SABOT, "log", "verify", "--lang", "en", folder], capture_output=True, text=True)
    assert text.returncode == 1 and "the DEVELOPMENT key" in text.stdout
    assert "result: not clean: authenticated by the development key only" in text.stdout
    as_json = subprocess.run([SABOT, "log", "verify", "--lang", "en", folder, "--json"], capture_output=True, text=True)
    result = json.loads(as_json.stdout)
    assert as_json.returncode == 1 and result["ok"] is False and result["findings"] == []
    assert result["key"] == "development" and "DEVELOPMENT" in result["development_key"]
    allowed = subprocess.run([SABOT, "log", "verify", "--lang", "en", folder, "--json", "--allow-development-key"],
                             capture_output=True, text=True)
    result = json.loads(allowed.stdout)
    assert allowed.returncode == 0 and result["ok"] is True and result["key"] == "development"
    allowed_text = subprocess.run([SABOT, "log", "verify", "--lang", "en", folder, "--allow-development-key"],
                                  capture_output=True, text=True)
    assert allowed_text.returncode == 0 and "the DEVELOPMENT key" in allowed_text.stdout


@pytest.mark.req("J-TAMPER")
def test_the_verifiers_hmac_is_rfc_2104_as_the_firmware_computes_it():
    import hashlib
    import hmac

    from sabot.journalfile import Reader

    for secret in (b"k" * 16, b"a shoe's key of 32 bytes exactly", bytes(range(100))):
        chain = hashlib.sha256(secret).digest()
        expected = hmac.digest(secret, chain, "sha256")[:16]
        assert Reader([], secret)._tag(chain) == expected == Key(secret).tag(chain)
