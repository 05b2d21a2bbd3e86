"""Boards registered once: each folder of boards/ with a board.json is a board (host_tools/sabot/boards.py), and
the build, the type check, the bench and `sabot deploy` find it there, with nothing else naming it."""

import shutil
import subprocess

import pytest

from sabot import boards
from tests.conftest import ROOT


@pytest.mark.req("H-FIRMWARE")
def test_every_board_folder_declares_its_processor_and_platform_once():
    declared = boards.declared()
    held = {driver for board in declared.values() if "image" not in board for driver in board["drivers"]}
    with_code = sorted(p.parent.name for p in (ROOT / "boards").glob("*/board.py"))
    # boards/mcu, shared drivers, has no board.py and is no board; boards/vboard's start() runs in the sim's image,
    # which its board.json names: every folder with a board.py declares itself, the one that runs in another's too
    assert sorted(declared) == with_code
    assert [name for name in with_code if name not in held] == boards.names()
    assert sorted(boards.platforms().values()) == boards.names()  # no two boards answer the same sys.platform
    for name, board in declared.items():
        keys = {"arch", "drivers", "element", "platform"}
        assert set(board) == (keys | {"image"} if "image" in board else keys), name
        assert all((ROOT / "boards" / folder).is_dir() for folder in board["drivers"]), name
        if "image" in board:  # a board in another's image: the image holds its folder and the drivers it needs
            image = declared[board["image"]]
            assert name in image["drivers"] and set(board["drivers"]) <= set(image["drivers"]) | {board["image"]}
            assert board["platform"] == image["platform"], name
    assert boards.hardware() == [name for name in boards.names() if (ROOT / "boards" / name / "manifest.py").exists()]


@pytest.mark.req("H-FIRMWARE")
def test_a_new_board_is_its_folder_the_build_compiles_it_for_its_processor(tmp_path):
    """A copy of the tree with one more board folder: make builds it with its -march and its drivers, and the
    list of boards names it, though no file outside its folder was touched."""
    for part in ("Makefile", "firmware", "boards", "host_tools/sabot/boards.py"):
        copy = shutil.copytree if (ROOT / part).is_dir() else shutil.copy
        (tmp_path / part).parent.mkdir(parents=True, exist_ok=True)
        copy(ROOT / part, tmp_path / part)
    new = tmp_path / "boards" / "stm32"
    new.mkdir()
    (new / "board.json").write_text('{"arch": "armv7emsp", "platform": "pyboard", "drivers": ["mcu"]}\n')
    (new / "board.py").write_text("def start(config):\n    pass\n")
    names = subprocess.run(["python3", "host_tools/sabot/boards.py", "names"], cwd=tmp_path, capture_output=True,
                           text=True, check=True)
    assert names.stdout.split() == ["esp32", "rpi_pico", "sim", "stm32"]
    planned = subprocess.run(["make", "-n", "mpy", "BOARD=stm32", "SETUP=", "BIN=bin"], cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout
    compiled = [line.split()[-1] for line in planned.splitlines() if line.startswith("bin/mpy-cross -march=armv7emsp ")]
    assert "boards/stm32/board.py" in compiled and "boards/mcu/beam.py" in compiled
    assert not [path for path in compiled if path.startswith(("boards/sim/", "boards/rpi_pico/"))]
