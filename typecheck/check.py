"""Type-check the firmware and a board's drivers against that board's MicroPython stubs, with mypy.

    python typecheck/check.py [BOARD] [--root DIR]

Every hardware board (host_tools/sabot/boards.py: a board.json with an "arch"), or BOARD alone. The stubs, pinned
in typecheck/requirements-<board>.txt, live in build/typings/<board>: installed there when missing or when the pins
changed. Checked: firmware/, the shared drivers the board declares (boards/mcu/) and boards/<board>/ (not its
manifest.py, which is for MicroPython's build tool). Never boards/sim/: it is code for CPython and the unix port,
and the rp2 stubs lack machine.PinBase. --root checks another copy of the tree (the tests' deliberate misuse) with
the same stubs.
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from sabot.boards import folders, hardware

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def typings(board):
    """The board's stubs folder, (re)installed from its pinned requirements when missing or stale."""
    requirements = HERE / ("requirements-%s.txt" % board)
    folder = ROOT / "build" / "typings" / board
    stamp = folder / ".requirements"
    wanted = requirements.read_text()
    if not stamp.is_file() or stamp.read_text() != wanted:
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                        "--require-hashes", "--target", str(folder), "-r", str(requirements)], check=True)
        stamp.write_text(wanted)
    return folder


def sources(root, board):
    """The files a board's image holds, relative to root: the firmware, boards/__init__.py and the board's folders,
    the shared drivers it declares and its own (host_tools/sabot/boards.py)."""
    files = sorted((root / "firmware").glob("*.py")) + [root / "boards" / "__init__.py"]
    for folder in folders(board):
        files += sorted(p for p in (root / folder).glob("*.py") if p.name != "manifest.py")
    return [str(p.relative_to(root)) for p in files]


def check(board, root=ROOT):
    """mypy's exit status: 0 when the board's files type-check against its stubs."""
    folder = typings(board)
    command = [sys.executable, "-m", "mypy", "--config-file", str(HERE / "mypy.ini"), "--custom-typeshed-dir",
               str(folder), "--cache-dir", str(root / "build" / "mypy_cache" / board)] + sources(root, board)
    return subprocess.run(command, cwd=root, env=dict(os.environ, MYPYPATH=str(folder))).returncode


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("board", nargs="?", choices=hardware(), help="one board (default: every hardware board)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the source tree to check (default: this one)")
    args = parser.parse_args(argv)
    return max(check(board, args.root.resolve()) for board in ([args.board] if args.board else hardware()))


if __name__ == "__main__":
    sys.exit(main())
