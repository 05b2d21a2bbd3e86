"""The same firmware tests inside both MicroPython VMs, the unix port (64-bit) and the WebAssembly port (32-bit, whose
31-bit small ints are the boards'), and the firmware's budgets there (H-SIM)."""

import importlib
import json
import re
import shutil

import pytest

from bench import memory, vmrun
from bench.vmrun import link
from firmware import layout
from tests.conftest import ROOT, SCENARIOS, VMS, micropython, patched_build
from tests.core.req import COVERED, KNOWN

CORE_MODULES = sorted("tests.core." + p.stem for p in (ROOT / "tests" / "core").glob("test_*.py"))
FULL_SHOE = SCENARIOS / "full_shoe_chemin_de_fer.txt"


def _core_tests():
    for vm in VMS:
        for name in CORE_MODULES:
            module = importlib.import_module(name)
            for attr in sorted(dir(module)):
                if attr.startswith("test_"):
                    marks = [pytest.mark.req(*COVERED[attr])]
                    if attr in KNOWN:  # a known open issue's bug fails on the VMs too, until it is fixed
                        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[attr]))
                    yield pytest.param(vm, name, attr, marks=marks, id="%s-%s" % (vm, attr))


def _path(vm, build):
    """Where the VM imports from: the build alone on the unix port; on the 32-bit VM the sources after it, as its
    launcher runs a -m module from its .py (every other module still loads from the build's .mpy files)."""
    return str(build) if vm == "micropython" else "%s:%s" % (build, ROOT)


@pytest.fixture(scope="module")
def vm_results(mpy_build, tmp_path_factory):
    """Every core test run once a VM by tests/mp_runner.py, firmware loaded from the mpy build."""
    done = {}

    def results(vm):
        if vm not in done:
            run = micropython([str(ROOT / "tests" / "mp_runner.py")] + CORE_MODULES, "%s:%s" % (mpy_build, ROOT),
                              cwd=tmp_path_factory.mktemp(vm), vm=vm)
            found = {name: status for status, name in re.findall(r"^(PASS|FAIL) (\S+)$", run.stdout, re.M)}
            done[vm] = found, run.stdout + run.stderr
        return done[vm]

    return results


@pytest.mark.parametrize("vm,module,test", list(_core_tests()))
def test_core_test_passes_on_the_micropython_vm(vm_results, vm, module, test):
    results, output = vm_results(vm)
    assert results.get("%s::%s" % (module, test)) == "PASS", output


def _segments(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _run_full_shoe(mpy_build, tmp_path, *flags, heapsize="64K", vm="micropython"):
    """Paths relative to the run's folder, the build through a link as the bench has it: every path the VM keeps
    in its heap (each module's __file__) is as short as a board's, wherever the clone and pytest's folder are."""
    shutil.copy(FULL_SHOE, tmp_path / "shoe.txt")
    build = link(tmp_path, "fw", mpy_build)
    run = micropython(["-m", "boards.sim.runner", "shoe.txt", "--log", "vm.journal"] + list(flags),
                      _path(vm, build), cwd=tmp_path, heapsize=heapsize, vm=vm)
    return run, tmp_path / "vm.journal"


def _cpython_journal(tmp_path):
    import boards.sim.runner

    journal = tmp_path / "cpython.journal"
    assert boards.sim.runner.main([str(FULL_SHOE), "--log", str(journal), "--quiet"]) == 0
    return _segments(journal)


@pytest.mark.req("H-SIM", "G-CF")
def test_a_whole_shoe_runs_from_the_mpy_build_in_its_budgeted_heap(mpy_build, tmp_path):
    """bench/memory.py's HEAP_KB, the most bench/budgets.json's heap.smallest_kb allows (65 KB since firmware/rules.py,
    64 before it; 66 before the heap64 rounds, 64 before Article 61 in the shoe). On the unix port only:
    the 32-bit VM's heap grows when full, so -X heapsize caps nothing there. Run exactly as
    the bench measures the smallest heap (bench/memory.py): the VM, the build and the drivers through the same short
    links, the same file names, so that what the VM keeps in its heap is the same wherever the clone is."""
    budgets = json.loads((ROOT / "bench" / "budgets.json").read_text())["budgets"]
    assert memory.HEAP_KB == budgets["heap.smallest_kb"]["max"]
    shutil.copy(FULL_SHOE, tmp_path / "shoe.txt")
    command = vmrun.micropython_command(["-m", "boards.sim.runner", "shoe.txt", "--log", "journal", "--quiet"],
                                        "%dK" % memory.HEAP_KB)
    run = vmrun.run(command, vmrun.vm_env(tmp_path, mpy_build), tmp_path, check=False)
    journal = tmp_path / "journal"
    assert run.returncode == 0, run.stdout + run.stderr
    segments = _segments(journal)
    assert segments == _cpython_journal(tmp_path)
    assert sum(len(data) for data in segments.values()) > 310 * 2 * layout.FRAME_SIZE  # a card: intent and card


def _gc_pool(cwd, heapsize):
    """The GC pool the unix port gets for -X heapsize, from cwd (the VM's heap is malloc'd in the launching process)."""
    run = vmrun.run(["./micropython", "-X", "heapsize=%s" % heapsize, "-c",
                     "import gc; print(gc.mem_free() + gc.mem_alloc())"], vmrun.vm_env(cwd, ROOT), cwd)
    return int(run.stdout.split()[-1])


@pytest.mark.req("H-SIM")
def test_the_heap_figure_does_not_depend_on_where_the_run_starts(tmp_path):
    """Issue 21: the unix port's pool is 128 B larger or smaller with its heap's address, which follows the lengths of
    the paths the launching process was given (64K: 64,768 B from one folder, 64,640 B from another). bench/vmrun.py
    models gc_init and gives the VM a steady size: the pool it predicts, whatever the folder."""
    for depth in (1, 97):  # a short folder, and one as long as a clone's scratch folder deep in a CI runner
        cwd = tmp_path / ("a" * depth)
        cwd.mkdir()
        for size in ("63K", "64K", "65920", "66K"):
            steady = vmrun.steady_heapsize(size)
            assert 0 <= steady - vmrun.heap_bytes(size) <= 16
            assert _gc_pool(cwd, steady) == vmrun.gc_pool(steady - steady % 32)
            assert _gc_pool(cwd, vmrun.heap_bytes(size)) in (vmrun.gc_pool(vmrun.heap_bytes(size)),
                                                               vmrun.gc_pool(vmrun.heap_bytes(size) - 16))


@pytest.mark.req("H-SIM", "S-ONE", "J-EVERY")
@pytest.mark.parametrize("vm", VMS)
def test_the_card_path_allocates_nothing_over_a_whole_shoe(vm, mpy_build, tmp_path):
    """Every controller decision of a whole shoe (a sensed card to the gate's command) under heap_lock()."""
    run, journal = _run_full_shoe(mpy_build, tmp_path, "--heap-lock", heapsize="128K", vm=vm)
    assert run.returncode == 0, run.stdout + run.stderr
    assert _segments(journal) == _cpython_journal(tmp_path)


@pytest.mark.req("H-SIM")
@pytest.mark.parametrize("vm", VMS)
def test_the_heap_lock_check_would_catch_an_allocation(vm, mpy_build, tmp_path):
    """The same run with a firmware that allocates on the card path must fail, or the check proves nothing."""
    step = "        self.ctl.step(event, arg, now)\n"
    patched = patched_build(mpy_build, tmp_path, "shell", step,
                            step + "        [event]  # a list: one allocation per event\n")
    run, _ = _run_full_shoe(patched, tmp_path, "--heap-lock", heapsize="128K", vm=vm)
    assert run.returncode != 0
    assert "MemoryError" in run.stderr


@pytest.mark.req("S-ONE", "S-FORCED", "S-FAILSAFE", "T-CF", "T-DT")
@pytest.mark.parametrize("scenario", sorted(p.name for p in SCENARIOS.glob("*.txt")))
@pytest.mark.parametrize("vm", VMS)
def test_every_decision_of_every_scenario_allocates_nothing(vm, mpy_build, tmp_path, scenario):
    """Alarms, faults, refusals, power cuts, the tableau at both games: the boards run every decision under
    heap_lock, so no path of the controller may allocate."""
    shutil.copy(SCENARIOS / scenario, tmp_path / "s.txt")
    run = micropython(["-m", "boards.sim.runner", "s.txt", "--log", "j", "--heap-lock"], _path(vm, mpy_build),
                      cwd=tmp_path, heapsize="128K", vm=vm)
    assert run.returncode == 0, run.stdout + run.stderr
