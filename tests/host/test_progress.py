"""Long work is never silent (issue 40, item 16): a command that waits on a shoe (an emulated Pico restarting or
hashing its flash, 15-20 s), the emulated Pico's start and `fleet synth` say on a terminal what they wait for once
it lasts, and nothing on a pipe or with --quiet."""

import argparse
import io
import time

import pytest

from sabot import progress
from tests.host.test_cli import on_a_terminal


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.req("H-FIRMWARE")
def test_a_wait_is_said_on_a_terminal_once_it_lasts_and_never_on_a_pipe(monkeypatch):
    monkeypatch.setattr(progress, "QUIET", False)  # an earlier command's --quiet in this process is not this one's
    shown = Terminal()
    monkeypatch.setattr("sys.stderr", shown)
    with progress.waiting("sabot clock set : en attente du sabot", after=0.05):
        with progress.waiting("inner", after=0):  # one line at a time: the outer one
            time.sleep(0.7)
    assert "sabot clock set : en attente du sabot : 00:0" in shown.getvalue() and "inner" not in shown.getvalue()
    quick = Terminal()
    monkeypatch.setattr("sys.stderr", quick)
    with progress.waiting("quick"):  # done within progress.AFTER: nothing said
        pass
    assert quick.getvalue() == ""
    piped = io.StringIO()
    monkeypatch.setattr("sys.stderr", piped)
    with progress.waiting("piped", after=0):
        time.sleep(0.2)
    assert piped.getvalue() == ""


@pytest.mark.req("H-FIRMWARE")
def test_every_command_that_waits_on_a_shoe_says_so_and_fleet_synth_has_a_bar(tmp_path):
    for words in (["number", "set"], ["clock", "set"], ["seance", "open"], ["firmware", "verify"], ["key", "enrol"],
                  ["key", "code"]):
        args = argparse.Namespace(command=words[0], action=words[1])
        assert not isinstance(progress.waiting_for(args), type(progress.contextlib.nullcontext())), words
    for words in (["log", "verify"], ["firmware", "dist"], ["key", "new"], ["pull-log", None]):
        assert isinstance(progress.waiting_for(argparse.Namespace(command=words[0], action=words[1])),
                          type(progress.contextlib.nullcontext())), words
    status, shown = on_a_terminal("fleet", "synth", tmp_path / "fleet", "--sabots", "4", "--clean")
    assert status == 0 and "fleet synth" in shown and "%|" in shown, shown
