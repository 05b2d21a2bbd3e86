"""What a technician's daily commands say on a production shoe (issue 40): every receipt kept, a shoe in fault
said in one line, a wrong port or an interrupted command said as it is for a shoe that speaks the protocol."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.host.test_vboard import VirtualBoard

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args, cwd=None):
    done = subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done


def enrolled_board(tmp_path):
    """A production virtual board, enrolled as the README says: casino.key, shoes.json in tmp_path."""
    assert sabot("key", "new", "casino.key", cwd=tmp_path).returncode == 0
    board = VirtualBoard(tmp_path, production=True)
    enrolled = sabot("key", "enrol", "--port", board.port, "--casino-key", "casino.key", cwd=tmp_path)
    assert enrolled.returncode == 0, enrolled.stderr
    return board


@pytest.mark.req("J-TAMPER", "P-PULL")
def test_the_daily_pull_with_force_keeps_yesterdays_receipt_for_verify_receipt(tmp_path, mpy_build):
    board = enrolled_board(tmp_path)
    try:
        opened = sabot("seance", "open", "--port", board.port, "--table", 12, "--by", 4711, "--casino-key",
                       "casino.key", cwd=tmp_path)
        assert opened.returncode == 0, opened.stderr
        first = sabot("pull-log", "--port", board.port, "journal/", "--quiet", cwd=tmp_path)
        assert first.returncode == 0, first.stderr
        yesterday = sorted((tmp_path / "journal").glob("receipt-*.json"))
        assert len(yesterday) == 1 and yesterday[0].name in first.stdout
        time.sleep(1.1)  # the next pull, another second
        assert sabot("seance", "close", "--port", board.port, "--casino-key", "casino.key",
                     cwd=tmp_path).returncode == 0
        again = sabot("pull-log", "--port", board.port, "journal/", "--force", "--quiet", cwd=tmp_path)
        assert again.returncode == 0, again.stderr
    finally:
        board.close()
    kept = sorted((tmp_path / "journal").glob("receipt-*.json"))
    assert len(kept) == 2 and kept[0].read_text() == yesterday[0].read_text()
    assert json.loads(kept[1].read_text()) == json.loads((tmp_path / "journal" / "receipt.json").read_text())
    assert json.loads(kept[0].read_text())["seq"] < json.loads(kept[1].read_text())["seq"]
    verified = sabot("log", "verify", "journal/", "--registry", "shoes.json", "--receipt",
                     "journal/" + kept[0].name, cwd=tmp_path)
    assert verified.returncode == 0 and "conforme" in verified.stdout, verified.stdout + verified.stderr


@pytest.mark.req("S-IDENT", "H-FIRMWARE", "P-PULL")
def test_a_production_shoe_in_fault_says_so_to_firmware_verify_and_pull_log(tmp_path, mpy_build):
    board = enrolled_board(tmp_path)
    board.close()
    (tmp_path / "fs" / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 7}))  # another shoe's
    assert sabot("firmware", "dist", ROOT / "build" / "sim", "--board", "sim", "--out", "bundle",
                 cwd=tmp_path).returncode == 0
    board = VirtualBoard(tmp_path, "--build", tmp_path / "bundle", production=True)
    try:
        checked = sabot("firmware", "verify", "--port", board.port, "--bundle", "bundle", cwd=tmp_path)
        pulled = sabot("pull-log", "--port", board.port, "journal/", cwd=tmp_path)
    finally:
        board.close()
    assert checked.returncode == 1 and "MATCH" in checked.stdout, checked.stdout + checked.stderr
    assert checked.stderr.count("\n") == 1 and "its journal is sabot 1's" in checked.stderr, checked.stderr
    assert pulled.returncode == 1 and pulled.stdout == "" and not (tmp_path / "journal").exists()
    assert pulled.stderr.startswith("sabot pull-log: error: the shoe on %s is in fault" % board.port)
    assert pulled.stderr.count("\n") == 1 and "nothing pulled" in pulled.stderr
