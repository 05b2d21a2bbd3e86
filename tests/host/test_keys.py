"""A commissioned shoe's journal: vouched for by its element's public key, never by the development key."""

import subprocess
import sys
from pathlib import Path

import pytest

from boards.sim import p256
from boards.sim.board import SimBoard
from boards.sim.element import SimElement, journal_key
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.mac import Key
from firmware.receipt import receipt
from firmware.storage import FileStorage
from tests.host.test_receipts_element import pulled
from tests.host.test_rollback import with_element

SABOT = str(Path(sys.executable).parent / "sabot")


def _signed_and_pulled(tmp_path, scenario):
    """scenario played on a sim board whose element (seed 0..31) signs its checkpoints, pulled into tmp_path/pulled;
    the element's public key file."""
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    with_element(board, tmp_path, SimElement(bytes(range(32))))
    run(parse(scenario), board)
    pulled(board, tmp_path / "pulled")
    board.close()
    public = tmp_path / "element.pub"
    public.write_text(journal_key(bytes(range(32))).hex() + "\n")
    return public


@pytest.mark.req("J-TAMPER", "H-VERIFY", "K-ELEMENT")
def test_a_journal_signed_by_a_shoes_element_verifies_with_its_public_key_only_and_never_without_one(tmp_path):
    """No key file on the shoe: its headers name its element, and verify needs the element's public key to call the
    journal clean; another element's key gets one finding naming both key ids; none, never clean."""
    public = _signed_and_pulled(tmp_path, "seance table=1\nshoe seed=1\nno_more_bets\ndraw 4\ncoup_end")
    other = tmp_path / "other.pub"
    other.write_text(p256.public_key(p256.scalar(bytes(32))).hex() + "\n")
    folder = str(tmp_path / "pulled")

    own = subprocess.run([SABOT, "log", "verify", "--lang", "en", folder, "--public-key", str(public)],
                         capture_output=True, text=True)
    assert own.returncode == 0 and "DEVELOPMENT" not in own.stdout and "result: clean" in own.stdout, own.stdout
    unsigned = subprocess.run([SABOT, "log", "verify", "--lang", "en", folder], capture_output=True, text=True)
    assert unsigned.returncode == 1 and "the signatures of the shoe's element were not checked" in unsigned.stdout
    wrong = subprocess.run([SABOT, "log", "verify", "--lang", "en", folder, "--public-key", str(other)],
                           capture_output=True, text=True)
    assert wrong.returncode == 1 and "written under another element" in wrong.stdout
    assert _element_id(public) in wrong.stdout and _element_id(other) in wrong.stdout  # the journal's, the key's
    said = subprocess.run([SABOT, "log", "verify", folder, "--public-key", str(other)], capture_output=True,
                          text=True).stdout  # in French, as the README writes it: one finding, nothing said broken
    assert "résultat : 1 constat(s)" in said and "ROMPUE" not in said and "J-TAMPER" in said, said
    assert "intégrité : non établie : la clé publique fournie est celle d'un autre élément sécurisé" in said
    assert "telle que le sabot l'a signée" not in said and "points de contrôle : non vérifiés : la clé publique " \
        "fournie est celle d'un autre élément sécurisé" in said, said


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_a_journal_cut_at_its_end_is_said_cut_on_the_end_and_checkpoints_lines_too(tmp_path):
    """Issue 40, finding 9: no "-2 enregistrement(s)", no end "telle que le sabot l'a signée" above the finding
    that says the records were cut."""
    public = _signed_and_pulled(tmp_path, "seance table=1\nshoe seed=1\nno_more_bets\ndraw 4\ncoup_end\nno_more_bets\n"
                                "draw 4\ncoup_end")
    last = sorted((tmp_path / "pulled").glob("*.sbj"))[-1]
    last.write_bytes(last.read_bytes()[:-70])  # the last records cut
    said = subprocess.run([SABOT, "log", "verify", str(tmp_path / "pulled"), "--public-key", str(public)],
                          capture_output=True, text=True).stdout
    assert "intégrité : ROMPUE" in said and "coupés" in said, said
    assert "fin : PAS telle que le sabot l'a signée dans son reçu : voir les constats" in said, said
    points = said.split("points de contrôle")[1].split("\n")[0]
    assert "après lui" not in points and "au-delà de la fin du journal" in points and " -" not in said, said


def _element_id(path):
    from hashlib import sha256

    return sha256(b"sabot element id " + bytes.fromhex(path.read_text())).digest()[:8].hex()


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
def test_the_verifiers_hmac_for_format_3_is_rfc_2104_as_the_firmware_computes_it():
    import hashlib
    import hmac

    from sabot.journalfile import Reader

    for secret in (b"k" * 16, b"a shoe's key of 32 bytes exactly", bytes(range(100))):
        chain = hashlib.sha256(secret).digest()
        expected = hmac.digest(secret, chain, "sha256")[:16]
        assert Reader([], secret)._tag(chain) == expected == Key(secret).tag(chain)[:16]
