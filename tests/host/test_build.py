"""`make mpy`: the firmware compiled as a device loads it, and refused when MicroPython cannot compile it."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.mark.req("H-SIM")
def test_every_firmware_and_sim_module_has_its_mpy(mpy_build):
    sources = list((ROOT / "firmware").glob("*.py")) + list((ROOT / "boards" / "sim").glob("*.py"))
    for source in sources:
        if source.name == "main.py":  # the build's own main.py, at the top, as MicroPython runs it
            assert (mpy_build / "main.py").read_text() == source.read_text()
            continue
        compiled = mpy_build / source.relative_to(ROOT).with_suffix(".mpy")
        assert compiled.read_bytes()[:1] == b"M", compiled  # the .mpy magic


@pytest.mark.req("H-SIM")
def test_make_mpy_fails_on_code_the_micropython_compiler_rejects(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path)
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "fine.py").write_text("X = 1\n")
    cpython_only = "def f(x):\n    match x:\n        case 1:\n            return 2\n"  # no match statement in MP
    (tmp_path / "firmware" / "cpython_only.py").write_text(cpython_only)
    run = subprocess.run(["make", "mpy", "SETUP=", "BIN=%s" % Path(sys.executable).parent], cwd=tmp_path,
                         capture_output=True, text=True)
    assert run.returncode != 0
    assert "cpython_only.py" in run.stderr and "SyntaxError" in run.stderr
