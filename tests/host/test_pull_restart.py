"""A development shoe that writes records while it is pulled (its watchdog restarts the controller mpremote stopped, on
a slow laptop): the copy then ends before the receipt it comes with, and would verify as a journal cut at the end.
sabot pull-log sees it and pulls again; a shoe that keeps writing is an error, never a clean-looking pull. On the
virtual board through the real mpremote, the records written between the copies and the receipt by the shoe itself."""

import io

import pytest

from firmware.records import R_SEANCE
from sabot import shoe_link
from sabot.journalfile import TYPE, Reader, load_segments
from tests.host.test_commissioning import public_key_file, sabot
from tests.host.test_vboard import VirtualBoard

# What the shoe does between the copies and its receipt: a séance opened, a record the copies do not hold.
WRITES = "from firmware.remote import seance\nseance(%d, 'chemin_de_fer', 7)"


def writing_meanwhile(times, monkeypatch):
    """shoe_link's mpremote, the shoe writing a record before its receipt in the first `times` pulls."""
    real = shoe_link.mpremote
    pulls = []

    def mpremote(port, *args, **kw):
        if any("receipt(" in a for a in args) and len(pulls) < times:
            pulls.append(1)
            at = len(args) - 2  # before "+", "exec", "...receipt(...)"
            args = args[:at - 1] + ("+", "exec", WRITES % (len(pulls) + 2)) + args[at - 1:]
        return real(port, *args, **kw)

    monkeypatch.setattr(shoe_link, "mpremote", mpremote)
    return pulls


@pytest.mark.req("J-TAMPER", "H-VERIFY", "J-DURABLE")
def test_a_shoe_writing_during_the_pull_is_pulled_again_and_its_journal_verifies_clean(
        tmp_path, mpy_build, monkeypatch, capsys):
    board = VirtualBoard(tmp_path)
    try:
        pulls = writing_meanwhile(1, monkeypatch)
        out = io.StringIO()
        assert shoe_link.pull_log(board.port, tmp_path / "journal", out=out) == 0
    finally:
        board.close()
    assert pulls == [1]
    assert "the shoe wrote records during the pull" in capsys.readouterr().err
    kinds = [r.fields[TYPE] for r in Reader(load_segments([tmp_path / "journal"]), None)]
    assert kinds[-1] == R_SEANCE  # the record written meanwhile, in the second pull's copy
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--public-key", public_key_file(board))
    assert verified.returncode == 0 and "result: clean" in verified.stdout, verified.stdout


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_a_shoe_writing_during_every_pull_is_an_error_not_a_pull(tmp_path, mpy_build, monkeypatch, capsys):
    board = VirtualBoard(tmp_path)
    try:
        writing_meanwhile(shoe_link.PULL_ATTEMPTS, monkeypatch)
        out = io.StringIO()
        assert shoe_link.pull_log(board.port, tmp_path / "journal", out=out) == 2
    finally:
        board.close()
    err = capsys.readouterr().err
    assert "sabot pull-log: error: the shoe wrote records during each of 3 pulls" in err
    assert out.getvalue() == ""


@pytest.mark.req("J-TAMPER", "H-VERIFY", "P-PULL")
def test_a_production_shoe_journalling_during_its_pull_has_what_grew_pulled_again_and_verifies_clean(
        tmp_path, mpy_build, monkeypatch, capsys):
    from firmware.mac import Key
    from sabot import protocol
    from tests.host.test_production import casino_board

    board, casino = casino_board(tmp_path)
    real = protocol.Client.receipt
    asked = []

    def receipt(self, nonce):
        if not asked:  # the casino opens a séance while the technician pulls: a record after the copy
            assert self.seance(Key(bytes.fromhex(casino.read_text())), 5, "chemin_de_fer", 7)[0] == 0
        asked.append(nonce)
        return real(self, nonce)

    monkeypatch.setattr(protocol.Client, "receipt", receipt)
    try:
        assert shoe_link.pull_log(board.port, tmp_path / "journal", out=io.StringIO()) == 0
    finally:
        board.close()
    assert len(asked) == 2 and "pulling what grew" in capsys.readouterr().err
    kinds = [r.fields[TYPE] for r in Reader(load_segments([tmp_path / "journal"]), None)]
    assert R_SEANCE in kinds[-3:]  # the séance opened meanwhile (the protocol's own burst record may follow it)
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--public-key", public_key_file(board))
    assert verified.returncode == 0 and "result: clean" in verified.stdout, verified.stdout
