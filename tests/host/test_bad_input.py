"""Every command's bad input, as a technician or an inspector types it: one line on stderr that says what to do,
exit 2, no traceback, and nothing on disk (or on the shoe) deleted or changed (H-EXPORT, H-VERIFY, H-FIRMWARE)."""

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SCENARIOS
from tests.host.test_vboard import VirtualBoard

SABOT = str(Path(sys.executable).parent / "sabot")
NO_PORT = "/dev/ttyACM9-absent"

# (arguments, words the one line holds); {w} is the workspace below, {port} the virtual board's pty.
ROWS = [
    ([], "the following arguments are required"),
    (["bogus"], "invalid choice"),
    (["sim", "{w}/missing.txt"], "cannot read scenario"),
    (["sim", "/dev/zero"], "larger than a scenario"),
    (["sim", "{w}/scenario.txt", "--log", "{w}/precious"], "--force"),
    (["sim", "{w}/scenario.txt", "--log", "{w}/notes.txt"], "is not a journal folder"),
    (["sim", "{w}/scenario.txt", "--log", "{w}/new", "--trace", "{w}/notes.txt"], "not a trace the simulator"),
    (["sim", "{w}/scenario.txt", "--runtime", "pypy"], "invalid choice"),
    (["sim", "{w}/scenario.txt", "--log", ""], "--log: an empty path"),  # it wrote to build/runs (issue 26)
    (["sim", "{w}/scenario.txt", "--trace", ""], "--trace: an empty path"),
    (["log", "verify", "/dev/zero"], "not a regular file"),
    (["log", "verify", "{w}/journal", "--key", "/dev/zero"], "larger than a key file"),
    (["log", "verify", "{w}/journal", "--key", "{w}/notes.txt"], "not a key file"),
    (["log", "verify", "{w}/nowhere"], "no such file or folder"),
    (["log", "verify", "{w}/journal", "--same-table", "many"], "many is not a count of consecutive séances"),
    (["log", "verify", "{w}/journal", "--same-table", "0"], "from 2 to 65535"),  # it turned the check off
    (["log", "verify", "{w}/journal", "--same-table", "-3"], "from 2 to 65535"),
    (["log", "show", "/dev/zero"], "not a regular file"),
    (["log", "show", "{w}/journal", "--lang", "de"], "invalid choice"),
    (["log", "export", "/dev/zero"], "not a regular file"),
    (["log", "export", "{w}/journal", "--format", "xml"], "invalid choice"),
    (["log", "export", "{w}/notes.txt"], "not a sabot journal"),
    (["report", "/dev/zero", "-o", "{w}/r.html"], "not a regular file"),
    (["report", "{w}/journal", "-o", "{w}/no/such/folder/r.html"], "cannot write"),
    (["report", "{w}/journal", "-o", "{w}/notes.txt"], "--force"),
    (["report", "{w}/journal", "-o", "{w}/r.html", "--lang", "es"], "invalid choice"),
    (["key", "new", "{w}/notes.txt"], "never overwritten"),
    (["key", "enrol", "--port", NO_PORT, "--casino-key", "{w}/notes.txt"], "not a key file"),
    (["key", "enrol", "--port", NO_PORT], "serial ports present"),
    (["vboard", "--scenario", "{w}/missing.txt"], "no scenario file"),
    (["vboard", "--fs", "{w}/notes.txt"], "is a file"),
    (["deploy", "--port", NO_PORT, "{w}/bundle"], "serial ports present"),
    (["deploy", "--port", NO_PORT, "{w}/nowhere"], "make dist"),
    (["deploy", "--port", "{port}", "{w}/pico"], "for the rpi_pico board, the device on"),
    (["pull-log", "--port", NO_PORT, "{w}/pulled"], "serial ports present"),
    (["pull-log", "--port", "{port}", "{w}/journal"], "--force"),
    (["firmware", "dist", "{w}/bundle", "--board", "zx81", "--out", "{w}/zx"], "invalid choice"),
    (["firmware", "dist", "{w}/bundle", "--board", "rpi_pico", "--out", "{w}/zx"], "not a build of the rpi_pico"),
    (["firmware", "dist", "{build}", "--board", "sim", "--out", "{w}/notes.txt"], "is a file"),
    (["firmware", "dist", "{build}", "--board", "sim", "--out", "{w}/precious"], "--force"),
    (["firmware", "verify", "--port", NO_PORT, "--bundle", "{w}/bundle"], "serial ports present"),
    (["firmware", "verify", "--port", "{port}", "--bundle", "{w}/bundle", "--seed", "xyz"], "seed"),
    (["seance", "open", "--port", "{port}", "--table", "12", "--game", "baccara"], "invalid choice: 'baccara'"),
    (["seance", "open", "--port", "{port}", "--table", "0"], "from 1 to 4095"),
    (["seance", "open", "--port", "{port}", "--table", "4096"], "from 1 to 4095"),
    (["seance", "open", "--port", "{port}", "--table", "12", "--by", "65536"], "from 1 to 65535"),
    (["seance", "open", "--port", "{port}"], "give --table"),
    (["seance", "open", "--port", "{port}", "--table", "12"], "the shoe answered: RuntimeError: the controller is "
                                                              "not running"),
    (["seance", "open", "--port", NO_PORT, "--table", "12"], "serial ports present"),
]


def tree(*folders):
    """Every file under the folders with its SHA-256: what a command must leave as it was."""
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for folder in folders
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory, mpy_build):
    w = tmp_path_factory.mktemp("bad")
    (w / "scenario.txt").write_text("shoe seed=1\nno_more_bets\ndraw 6\n")
    (w / "notes.txt").write_text("an inspector's notes, not a journal nor a key\n")
    (w / "precious").mkdir()
    (w / "precious" / "keep.txt").write_text("someone's work\n")
    assert subprocess.run([SABOT, "sim", str(SCENARIOS / "incidents.txt"), "--log", str(w / "journal"),
                           "--quiet"], capture_output=True).returncode == 0
    assert subprocess.run([SABOT, "key", "new", str(w / "casino.key")], capture_output=True).returncode == 0
    assert subprocess.run([SABOT, "firmware", "dist", str(mpy_build), "--board", "sim", "--out", str(w / "bundle")],
                          capture_output=True).returncode == 0
    shutil.copytree(w / "bundle", w / "pico")
    (w / "pico" / "manifest.json").write_text((w / "bundle" / "manifest.json").read_text().replace(
        '"board": "sim"', '"board": "rpi_pico"'))
    return w


@pytest.fixture(scope="module")
def board(tmp_path_factory, workspace):
    """A virtual board with the firmware deployed but no controller running, and a journal for pull-log."""
    vb = VirtualBoard(tmp_path_factory.mktemp("board"), "--blank")
    assert subprocess.run([SABOT, "deploy", "--port", vb.port, str(workspace / "bundle")],
                          capture_output=True).returncode == 0
    shutil.copytree(workspace / "journal", vb.fs / "journal")
    yield vb
    vb.close()


@pytest.mark.req("H-EXPORT", "H-VERIFY", "H-FIRMWARE")
@pytest.mark.parametrize("args,said", ROWS, ids=[" ".join(a) or "(none)" for a, _ in ROWS])
def test_bad_input_gets_one_line_exit_2_and_nothing_deleted(args, said, workspace, board, mpy_build):
    before = tree(workspace, board.fs)
    line = [a.format(w=workspace, port=board.port, build=mpy_build) for a in args]
    done = subprocess.run([SABOT, *line], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and said in lines[0] and lines[0].startswith("sabot"), done.stderr
    assert tree(workspace, board.fs) == before
