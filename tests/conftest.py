"""Shared fixtures: the repository, the mpy build and the MicroPython unix port from the venv."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "boards" / "sim" / "scenarios"
MICROPYTHON = str(Path(sys.executable).parent / "micropython")


def pytest_configure(config):
    """Cython compiles firmware/tableau.py and sabot/rules.py in place (setup.py): a build older than its sources
    would test yesterday's code while the sources say otherwise."""
    import firmware.tableau
    import sabot.rules

    for module in (firmware.tableau, sabot.rules):
        built = Path(module.__file__)
        if built.suffix == ".so":
            sources = [built.parent / (built.name.split(".")[0] + suffix) for suffix in (".py", ".pxd")]
            if max(p.stat().st_mtime for p in sources) > built.stat().st_mtime:
                pytest.exit("%s is older than its sources: run `make setup` (or `make test`)" % built, returncode=2)


@pytest.fixture(scope="session")
def mpy_build():
    """build/sim as `make mpy` leaves it: the firmware as a device loads it."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "mpy"], check=True, capture_output=True)
    return ROOT / "build" / "sim"


def micropython(args, path, cwd, heapsize=None):
    """Run the micropython binary with only `path` to import from (cwd must not hold the sources)."""
    command = [MICROPYTHON] + (["-X", "heapsize=%s" % heapsize] if heapsize else []) + list(args)
    return subprocess.run(command, cwd=cwd, env={"MICROPYPATH": path, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=600)
