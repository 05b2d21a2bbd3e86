"""The shoe's receipts (J-TAMPER): its journal's head signed under its key with a fresh nonce. With the receipt
found beside the segments, `sabot log verify` catches records cut from the end, a deleted last segment and
records added after; with earlier receipts (--receipt), an older journal replayed or a shoe rolled back; without
any, it says that truncation at the end cannot be ruled out."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.runner import act, run
from boards.sim.scenario import parse
from firmware import layout as fmt
from firmware.receipt import receipt
from firmware.storage import FileStorage
from sabot.receipts import NO_RECEIPT

SABOT = str(Path(sys.executable).parent / "sabot")
FIRST = "seance table=2\nshoe seed=8\nno_more_bets\ndraw 6\ncoup_end\nforce\n"
LATER = ["clear_alarm", "no_more_bets", "draw 6", "coup_end", "seance table=5", "shoe seed=9"]


def verify(*args):
    done = subprocess.run([SABOT, "log", "verify", "--lang", "en", *map(str, args)], capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout


def pulled(board, folder, nonce=b"n" * 32):
    """What pull-log leaves: the segments and the shoe's receipt for them."""
    shutil.copytree(board.storage.folder, folder)
    (folder / "receipt.json").write_text(receipt(board.shell.journal, nonce) + "\n")
    return folder


@pytest.fixture
def shoe(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "flash")))
    run(parse(FIRST), board)
    return board


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_a_journal_that_ends_at_its_receipt_verifies_and_one_cut_or_extended_does_not(shoe, tmp_path):
    whole = pulled(shoe, tmp_path / "whole")
    status, out = verify(whole)
    assert "end: as the shoe signed it in its receipt" in out and NO_RECEIPT not in out
    assert "integrity: intact" in out and "J-TAMPER" not in out and status == 1  # the forced card's finding only
    for frames in (1, 2):  # the forced card's alarm, then the card too
        cut = tmp_path / ("cut%d" % frames)
        shutil.copytree(whole, cut)
        last = sorted(cut.glob("*.sbj"))[-1]
        last.write_bytes(last.read_bytes()[:-frames * fmt.FRAME_SIZE])
        status, out = verify(cut)
        assert status == 1 and "records cut at the end" in out and "BROKEN" in out, out
    act(shoe, 0, "seance", 3, 0)  # a new séance: a new segment, which the copy then loses
    deleted = pulled(shoe, tmp_path / "deleted")
    sorted(deleted.glob("*.sbj"))[-1].unlink()
    status, out = verify(deleted)
    assert status == 1 and "records cut at the end" in out
    longer = pulled(shoe, tmp_path / "longer")
    shutil.copy(whole / "receipt.json", longer / "receipt.json")  # the older receipt beside a longer journal
    status, out = verify(longer)
    assert status == 1 and "goes on past the end the shoe signed" in out


@pytest.mark.req("J-TAMPER")
def test_a_receipt_not_signed_by_the_shoe_or_for_another_shoe_is_a_finding(shoe, tmp_path):
    folder = pulled(shoe, tmp_path / "pulled")
    fields = json.loads((folder / "receipt.json").read_text())
    for name, value in (("seq", fields["seq"] + 1), ("tag", "00" * 32), ("sabot", 7)):
        (folder / "receipt.json").write_text(json.dumps(dict(fields, **{name: value})))
        status, out = verify(folder)
        assert status == 1 and "BROKEN" in out and ("does not verify under the key" in out), (name, out)


@pytest.mark.req("J-TAMPER")
def test_an_older_journal_replayed_fails_the_later_receipt_and_a_longer_one_extends_the_earlier(shoe, tmp_path):
    early = pulled(shoe, tmp_path / "early")
    game = 0
    for _, command, a, b in parse("shoe seed=1\n" + "\n".join(LATER))[1:]:  # the shoe goes on serving
        game = act(shoe, game, command, a, b)
    late = pulled(shoe, tmp_path / "late", nonce=b"m" * 32)
    status, out = verify(late, "--receipt", early / "receipt.json")
    assert "J-TAMPER" not in out and "end: as the shoe signed it" in out, out
    status, out = verify(early, "--receipt", late / "receipt.json")  # the older image, its own receipt with it
    assert status == 1 and "an older journal replayed, or the shoe rolled back" in out


@pytest.mark.req("J-TAMPER", "H-SIM")
def test_without_a_receipt_verify_says_truncation_cannot_be_ruled_out(shoe, tmp_path):
    folder = pulled(shoe, tmp_path / "pulled")
    (folder / "receipt.json").unlink()
    status, out = verify(folder, "--json")
    result = json.loads(out)
    assert status == 1 and not result["ok"] and result["intact"]
    assert [f["message"] for f in result["findings"] if f["id"] == "J-TAMPER"] == [NO_RECEIPT]
    status, out = verify(folder)
    assert "truncation at the end cannot be ruled out" in out
