"""Receipts from the secure element on the virtual board, through the real mpremote and `sabot pull-log` (J-TAMPER,
K-ELEMENT, K-COUNTER; docs/journal-format.md "Receipts"): the honest pull verifies with the enrolled public key; a
receipt forged under any HMAC key (the shoe holds none: the development key, public, is the one its firmware
knows) does not; an older journal
put back on the shoe gives, at the next pull, a receipt whose counter is higher and whose end is earlier than the
receipt an inspector kept; a shoe made to answer an older receipt is refused by pull-log, nothing written."""

import hashlib
import hmac
import json
import shutil
import struct
from types import SimpleNamespace

import pytest

from boards.sim.element import SimElement
from firmware import layout as fmt
from firmware.devkey import DEVELOPMENT_KEY
from sabot.journalfile import load_segments
from sabot.mpremote_link import mpremote
from sabot.receipts import chain_at
from tests.host.test_commissioning import sabot
from tests.host.test_element import _element
from tests.host.test_tamper_mpremote import board_files, play, pull, restart
from tests.host.test_vboard import VirtualBoard

DEALT = "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\n"
MORE = "shoe seed=6\nno_more_bets\ndraw 4\ncoup_end\nno_more_bets\ndraw 4\ncoup_end\nno_more_bets\ndraw 4\ncoup_end\n"
REPLAY = "import firmware.remote as r\nr.receipt = lambda nonce: print(%r)"  # the shoe made to answer an old receipt


def verify(journal, *args):
    said = sabot("log", "verify", "--lang", "en", journal, "--json", *args)
    return said.returncode, [f["message"] for f in json.loads(said.stdout)["findings"] if f["id"] == "J-TAMPER"]


@pytest.fixture(scope="module")
def pulls(tmp_path_factory, mpy_build):
    """The shoe, its journal signed by its element: pulled at T1, dealt three coups more, pulled at T2; its T1
    journal put back (segments and checkpoints) and the shoe restarted, pulled at T3; then made to replay T1's
    receipt."""
    tmp_path = tmp_path_factory.mktemp("receipts")
    board = VirtualBoard(tmp_path)
    try:
        play(board, tmp_path, DEALT)
        t1 = pull(board, tmp_path / "t1")
        play(board, tmp_path, MORE)
        t2 = pull(board, tmp_path / "t2")
        for name in board_files(board):
            mpremote(board.port, "fs", "rm", ":journal/" + name)
        for path in sorted(t1.iterdir()):
            if path.suffix in (".sbj", ".sbc"):
                mpremote(board.port, "fs", "cp", str(path), ":journal/" + path.name)
        restart(board)
        t3 = pull(board, tmp_path / "t3")
        board.exec(REPLAY % (t1 / "receipt.json").read_text().strip())
        replayed = sabot("pull-log", "--port", board.port, tmp_path / "t4")
    finally:
        board.close()
    public = tmp_path / "element.pub"  # what the casino enrolled: the element's public key, read off it
    public.write_text(_element(SimElement.load(str(tmp_path / "fs.element"))).public_key(1).hex())
    return SimpleNamespace(t1=t1, t2=t2, t3=t3, replayed=replayed, t4=tmp_path / "t4", public=public, tmp=tmp_path)


def receipt_of(folder):
    return json.loads((folder / "receipt.json").read_text())


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "H-VERIFY")
def test_the_honest_pulls_receipts_are_the_elements_and_verify_with_the_public_key(pulls):
    for folder in (pulls.t1, pulls.t2):
        fields = receipt_of(folder)
        assert fields["receipt"] == 3 and "tag" not in fields
        assert json.loads((folder / "pull.json").read_text())["nonce"] == fields["nonce"]  # the nonce pull-log drew
        code, found = verify(folder, "--public-key", pulls.public)
        assert code == 0 and found == [], found
    assert receipt_of(pulls.t1)["counter"] < receipt_of(pulls.t2)["counter"]
    code, found = verify(pulls.t2, "--public-key", pulls.public, "--receipt",
                         pulls.t1 / "receipt.json")
    assert code == 0 and found == [], found


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "H-VERIFY")
def test_a_receipt_forged_under_any_hmac_key_fails_with_the_public_key(pulls):
    """The cheat cuts T2's last coup and tags a receipt at the cut end under an HMAC key: the development key, the
    one the firmware he can read holds (no file on the shoe holds a key of its own)."""
    cut = pulls.tmp / "cut"
    shutil.copytree(pulls.t2, cut)
    segments = load_segments([cut])
    last = segments[-1]
    end = receipt_of(pulls.t1)["seq"]  # back to T1's end, in T2's bytes
    frames = end - last.seq_before
    assert frames >= 0
    last.path.write_bytes(last.data[:fmt.HEADER_SIZE + frames * fmt.FRAME_SIZE])
    chain = chain_at(load_segments([cut])[-1], end)
    nonce = bytes(32)
    body = b"sabot receipt\x00" + nonce + struct.pack("<HII", last.sabot, last.number, end) + chain
    forged = dict(receipt_of(pulls.t2), receipt=1, seq=end, segment=last.number, chain=chain.hex(), nonce=nonce.hex(),
                  tag=hmac.new(DEVELOPMENT_KEY, body, hashlib.sha256).hexdigest())
    for name in ("counter", "signature"):
        forged.pop(name)
    (cut / "receipt.json").write_text(json.dumps(forged))
    (cut / "pull.json").write_text(json.dumps({"nonce": nonce.hex()}))
    code, found = verify(cut, "--public-key", pulls.public)
    assert code == 1 and any("is not signed by the shoe's element, though the shoe has one" in m for m in found), found
    (cut / "checkpoints.sbc").unlink()  # the shoe's checkpoints thrown away too
    code, found = verify(cut)
    assert code == 1  # no public key: never clean, whatever the receipt
    code, found = verify(cut, "--public-key", pulls.public)
    assert code == 1 and any("no checkpoint file with the journal" in m for m in found), found


@pytest.mark.req("J-TAMPER", "K-COUNTER", "H-VERIFY")
def test_an_older_journal_put_back_gives_a_later_receipt_that_ends_earlier_by_the_elements_counter(pulls):
    late, back = receipt_of(pulls.t2), receipt_of(pulls.t3)
    assert back["counter"] > late["counter"] and back["seq"] < late["seq"]
    code, found = verify(pulls.t3, "--public-key", pulls.public, "--receipt",
                         pulls.t2 / "receipt.json")
    assert code == 1
    assert any("does not end after receipt %s" % (pulls.t2 / "receipt.json") in m for m in found), found
    assert any(m.startswith("checkpoint ") and "before receipt %s" % (pulls.t2 / "receipt.json") in m
               for m in found), found  # the restarted shoe's checkpoints, counted after T2's receipt


@pytest.mark.req("J-TAMPER")
def test_pull_log_refuses_a_receipt_that_answers_another_nonce_and_writes_none(pulls):
    assert pulls.replayed.returncode == 2 and "not the one this pull sent" in pulls.replayed.stderr, pulls.replayed
    assert not (pulls.t4 / "receipt.json").exists() and not (pulls.t4 / "pull.json").exists()
