"""typecheck/check.py: the firmware and each board's drivers type-check against that board's MicroPython stubs,
and a misuse of the board's API, or an import the board lacks, fails the check with its file and line."""

import shutil
import subprocess
import sys

import pytest

from sabot.boards import folders, hardware
from tests.conftest import ROOT

CHECK = str(ROOT / "typecheck" / "check.py")


def _check(board, root=ROOT):
    return subprocess.run([sys.executable, CHECK, board, "--root", str(root)], capture_output=True, text=True,
                          timeout=600)


@pytest.mark.req("S-FAILSAFE")
@pytest.mark.parametrize("board", hardware())
def test_the_firmware_and_the_boards_drivers_type_check_against_its_stubs(board):
    run = _check(board)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


MISUSES = [
    ("rpi_pico", "Pin(5, Pin.IN).irq(handler=None, trigger=Pin.IRQ_BOTH_WRONG)",
     'error: "type[Pin]" has no attribute "IRQ_BOTH_WRONG"'),
    ("esp32", "UART(2, baud=115200)", 'error: Unexpected keyword argument "baud"'),
    ("rpi_pico", "Pin(5, Pin.IN).irq(handler=None, hard='yes')",
     'error: Argument "hard" to "irq" of "Pin" has incompatible type "str"; expected "bool"'),
]


@pytest.mark.req("S-FAILSAFE")
@pytest.mark.parametrize("board,misuse,message", MISUSES)
def test_a_misused_machine_api_fails_the_check_naming_file_and_line(board, misuse, message, tmp_path):
    device = _copy_board(board, tmp_path)
    line = _append(device, "def _misuse():\n    from machine import UART, Pin\n\n    %s\n" % misuse)
    run = _check(board, tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "boards/%s/board.py:%d: %s" % (board, line, message) in run.stdout, run.stdout


@pytest.mark.req("S-FAILSAFE")
def test_an_import_the_board_lacks_fails_the_check(tmp_path):
    """CPython has hmac; MicroPython has not (firmware/journal.py computes HMAC by hand)."""
    device = _copy_board("rpi_pico", tmp_path)
    line = _append(device, "import hmac\n")
    run = _check("rpi_pico", tmp_path)
    assert run.returncode == 1
    assert 'boards/rpi_pico/board.py:%d: error: Cannot find implementation or library stub for module named "hmac"' \
        % line in run.stdout, run.stdout


def _copy_board(board, root):
    """The files a board's image holds, copied under root; the path of the board's board.py."""
    caches = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "firmware", root / "firmware", ignore=caches)
    (root / "boards").mkdir()
    shutil.copy(ROOT / "boards" / "__init__.py", root / "boards")
    for folder in folders(board):
        shutil.copytree(ROOT / folder, root / folder, ignore=caches)
    return root / "boards" / board / "board.py"


def _append(path, code):
    """Append code after two blank lines; the line number of its last line."""
    text = path.read_text().rstrip("\n") + "\n\n\n" + code
    path.write_text(text)
    return text.count("\n")
