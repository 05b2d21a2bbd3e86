"""What a technician's daily commands say on a production shoe (issue 40): every receipt kept, a shoe in fault
said in one line, a wrong port or an interrupted command said as it is for a shoe that speaks the protocol."""

import io
import json
import os
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
    enrolled = sabot("key", "enrol", "--port", board.port, "--casino-key", "casino.key", "--code", board.code(),
                     cwd=tmp_path)
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
    assert "configuration : production\n" in checked.stdout  # not "production (production)" (finding 15)
    assert checked.stderr.count("\n") == 1 and "its journal is sabot 1's" in checked.stderr, checked.stderr
    assert pulled.returncode == 1 and pulled.stdout == "" and not (tmp_path / "journal").exists()
    assert pulled.stderr.startswith("sabot pull-log: error: the shoe on %s is in fault" % board.port)
    assert pulled.stderr.count("\n") == 1 and "nothing pulled" in pulled.stderr


@pytest.mark.req("S-IDENT", "P-AUTH", "J-EVENTS")
def test_a_seance_opened_over_the_open_one_closes_that_one_first_journalled_and_said(tmp_path, mpy_build):
    board = enrolled_board(tmp_path)
    try:
        def seance(*args):
            return sabot("seance", *args, "--port", board.port, "--casino-key", "casino.key", cwd=tmp_path)

        first = seance("open", "--table", 12, "--by", 4711)
        again = seance("open", "--table", 14, "--by", 4711)
        closed = seance("close")
        assert sabot("pull-log", "--port", board.port, "journal/", "--quiet", cwd=tmp_path).returncode == 0
    finally:
        board.close()
    assert first.returncode == 0 and "seance 1 opened at table 12" in first.stdout, first.stderr
    assert again.returncode == 0 and again.stdout.splitlines()[0].startswith(
        "seance 1 closed at table 12, record "), again.stdout
    assert again.stdout.splitlines()[1].startswith("seance 2 opened at table 14, record "), again.stdout
    assert closed.returncode == 0 and "seance 2 closed at table 14" in closed.stdout
    rows = [json.loads(line) for line in sabot("log", "export", "journal/", cwd=tmp_path).stdout.splitlines()]
    seances = [(r["event"], r["seance"]) for r in rows if r["event"].startswith("seance")]
    assert seances == [("seance", 1), ("seance_close", 1), ("seance", 2), ("seance_close", 2)], seances


@pytest.mark.req("P-NOREPL", "P-AUTH")
def test_an_interrupted_clock_set_says_the_shoe_may_have_applied_it_and_sabot_status_shows_it(
        tmp_path, mpy_build, monkeypatch, capsys):
    from sabot import shoe_links
    from sabot.cli import main

    board = enrolled_board(tmp_path)
    monkeypatch.chdir(tmp_path)
    try:
        def ctrl_c(port):
            raise KeyboardInterrupt  # the technician's Ctrl-C while the shoe restarts under its new time

        monkeypatch.setattr(shoe_links, "restarted_production", ctrl_c)
        capsys.readouterr()
        assert main(["clock", "set", "--port", board.port, "--at", "2027-02-01T00:00:00", "--casino-key",
                     "casino.key", "--force"]) == 130
        said = capsys.readouterr().err
        assert said.count("\n") == 1 and "interrupted: the shoe on %s may have taken the command already" % (
            board.port) in said and "sabot status --port %s" % board.port in said, said
        time.sleep(2)
        status = sabot("status", "--port", board.port)
    finally:
        board.close()
    assert status.returncode == 0 and "production, sabot 1, no seance open" in status.stdout, status.stderr
    assert "at 2027-02-01 00:00:" in status.stdout, status.stdout  # it had applied it: its boot record says so


class _Answered:
    """mpremote as it ends on a port where no REPL answers (a production shoe, or no shoe)."""

    def __init__(self, command, **_):
        self.stdout, self.stderr, self.returncode = iter(()), io.StringIO("mpremote: could not enter raw repl\n"), 1

    def __enter__(self):
        return self

    def __exit__(self, *_):
        return False

    def wait(self):
        return 1

    def kill(self):
        pass


@pytest.mark.req("P-NOREPL")
def test_a_port_that_answers_neither_the_protocol_nor_a_repl_is_said_so_never_as_a_missing_raw_repl(
        tmp_path, monkeypatch, capsys):
    from sabot import mpremote_link
    from sabot.cli import main

    master, slave = os.openpty()  # a serial port with nothing behind it that speaks
    try:
        monkeypatch.setattr(mpremote_link.subprocess, "Popen", _Answered)
        assert main(["pull-log", "--port", os.ttyname(slave), str(tmp_path / "journal")]) == 2
    finally:
        os.close(master)
        os.close(slave)
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "neither a production shoe's protocol nor a development shoe's REPL " \
        "answered: is it the shoe's port?" in said, said
    assert "raw REPL" not in said and "Thonny" not in said
