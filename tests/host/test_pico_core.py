"""The core tests on the emulated Raspberry Pi Pico (issue 22): MicroPython's rp2 port, its 234 KB heap, the firmware
frozen in the image as a shoe has it; the tests, the sim board and the drivers it models reached through the real
`mpremote mount` of a folder of their .mpy files (bytecode alone, as `make mpy` builds them for the sim: it loads on
any port of the same MicroPython). One emulator boot runs them all, through tests/mp_runner.py, each reported as its
own test named rp2-<test>, as test_micropython.py does for the other two VMs."""

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sabot.pico import Pico
from tests.conftest import ROOT
from tests.core.req import COVERED, KNOWN
from tests.host.test_micropython import CORE_MODULES
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.pico, pytest.mark.rp2_core]  # make test-pico all; make test the shard marked rp2_ci

# The core tests too long for the emulator (a few times slower than the chip), each with why: not run on rp2.
SKIPPED_ON_RP2 = {
    "test_ten_years_of_uptime_every_card_journalled_and_every_jam_detected":
        "ten years of uptime: unfinished after 15 minutes in the emulator; the unix and WebAssembly ports run it",
}
BIN = Path(sys.executable).parent
# A collection every 16 KB allocated, not only when the heap is full: what outlives a test is then made near the
# heap's start rather than strewn over all of it, which left no hole for a whole shoe's journal (issue 22).
GC_THRESHOLD = 16 * 1024


# The modules split between emulators, each its own unit of a parallel run (tests/parallel.py), so that the two
# workers share them; a module not named here runs in the first. The third runs in make test too (marked rp2_ci):
# the modules whose code the Pico itself runs on a card's path (the controller's rules, the journal, the production
# protocol), measured in one emulator beside other work (load 4): controller 74 s, journal 54 s, protocol with
# steps and inputs 82 s, against 542 s for the element's two modules, whose time is the element's model signing in
# pure MicroPython (code no Pico runs: on the emulated Pico the chip's driver meets the model over its real I2C in
# tests/host/test_pico_element.py, in make test). CI's 25 minutes do not hold the two others (some 10 minutes of
# emulation on two workers), which make test-pico runs.
SECOND_SHARD = {"tests.core.test_ouverte", "tests.core.test_scenarios", "tests.core.test_shoe_rules",
                "tests.core.test_sim_board", "tests.core.test_tableau", "tests.core.test_steps",
                "tests.core.test_inputs"}
CI_SHARD = {"tests.core.test_controller", "tests.core.test_journal", "tests.core.test_protocol"}
SHARDS = tuple(tuple(m for m in CORE_MODULES if _in == (2 if m in CI_SHARD else 1 if m in SECOND_SHARD else 0))
               for _in in range(3))


def _shard(module):
    return 2 if module in CI_SHARD else 1 if module in SECOND_SHARD else 0


def _ci(shard):
    return [pytest.mark.rp2_ci] if shard == 2 else []


def _core_tests():
    for name in CORE_MODULES:
        module = importlib.import_module(name)
        for attr in sorted(dir(module)):
            if attr.startswith("test_"):
                marks = [pytest.mark.req(*COVERED[attr])] + _ci(_shard(name))
                if attr in KNOWN:
                    marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[attr]))
                if attr in SKIPPED_ON_RP2:
                    marks.append(pytest.mark.skip(reason=SKIPPED_ON_RP2[attr]))
                yield pytest.param(name, attr, marks=marks, id="rp2-%d-%s" % (_shard(name), attr))


# The image's _boot.py imported the frozen `boards` package (boards.rpi_pico.filesystem) before any test runs, and
# MicroPython looks for a package's submodules in its __path__ alone ('.frozen/boards'), never along sys.path: with it
# kept, `boards.sim` (which the image does not freeze) is not found under /remote, and every core test module that
# imports the sim board fails to import (issue 35: 69 tests of make test-pico). Forgotten, `boards` is imported again
# from /remote, first on sys.path: the sim board and the drivers of the mpy build, the firmware still the frozen one.
FORGET_FROZEN_BOARDS = ("for name in [n for n in sys.modules if n == 'boards' or n.startswith('boards.')]:\n"
                        "    del sys.modules[name]")


def _mounted(mpy_build, folder):
    """What the frozen image lacks: the sim board and the drivers from the mpy build (not its firmware: the frozen
    one runs), the scenarios the tests read, and the tests compiled by the same mpy-cross."""
    shutil.copytree(mpy_build / "boards", folder / "boards", ignore=shutil.ignore_patterns("vboard"))
    shutil.copytree(ROOT / "boards" / "sim" / "scenarios", folder / "boards" / "sim" / "scenarios")
    for source in [ROOT / "tests" / "__init__.py", ROOT / "tests" / "mp_runner.py"] + sorted(
            (ROOT / "tests" / "core").glob("*.py")):
        relative = source.relative_to(ROOT)
        out = (folder / relative).with_suffix(".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(BIN / "mpy-cross"), "-X", "no-source-lines", "-s", str(relative), "-o", str(out),
                        str(source)], check=True)
    return folder


@pytest.fixture(scope="module")
def rp2_results(image, mpy_build, tmp_path_factory):  # noqa: F811
    """results(shard): the shard's core tests run once on an emulated Pico of its own, each's outcome, the output,
    and the heap's free bytes after, collected. A worker runs the shards its tests ask for (tests/parallel.py)."""
    done = {}

    def results(shard):
        if shard not in done:
            done[shard] = _run(SHARDS[shard], mpy_build, tmp_path_factory)
        return done[shard]

    return results


def _run(modules, mpy_build, tmp_path_factory):
    folder = _mounted(mpy_build, tmp_path_factory.mktemp("mounted"))
    flash = tmp_path_factory.mktemp("pico") / "shoe.flash"
    code = ("import gc, sys\nsys.path.insert(0, '/remote')  # each module's __file__ under /remote, as its tests "
            "expect\n%s\ngc.threshold(%d)\nfrom tests import mp_runner\nmp_runner.main(%r, %r)\ngc.collect()\n"
            "print('FREE', gc.mem_free())" % (FORGET_FROZEN_BOARDS, GC_THRESHOLD, list(modules),
                                              tuple(SKIPPED_ON_RP2)))
    with Pico(flash, blank=True, development=True) as board:
        run = subprocess.run([str(BIN / "mpremote"), "connect", board.port, "resume", "mount", str(folder),
                              "exec", code], capture_output=True, text=True, timeout=1800)
    output = run.stdout + run.stderr
    found = {name: status for status, name in re.findall(r"^(PASS|FAIL|SKIP) (\S+)$", run.stdout, re.M)}
    free = re.search(r"^FREE (\d+)$", run.stdout, re.M)
    return found, output, int(free.group(1)) if free else None


@pytest.mark.parametrize("module,test", list(_core_tests()))
def test_core_test_passes_on_the_emulated_pico(rp2_results, module, test):
    results, output, _ = rp2_results(_shard(module))
    assert results.get("%s::%s" % (module, test)) == "PASS", output


@pytest.mark.req("H-SIM")
@pytest.mark.parametrize("shard", [pytest.param(shard, marks=_ci(shard)) for shard in range(len(SHARDS))],
                         ids=lambda shard: "rp2-%d" % shard)
def test_the_core_tests_leave_the_picos_heap_room(rp2_results, shard):
    """After every core test, a collection gives back a quarter of the 234 KB heap at least: none keeps what it
    built, so the ones that come after it run in the heap a shoe has."""
    _, output, free = rp2_results(shard)
    assert free is not None and free >= 234 * 1024 // 4, output
