"""Heap on the MicroPython VM: bytes allocated per card after warm-up (none on the path from a sensed card to the
gate's command; the journal's hashing does allocate), the whole shoe under micropython.heap_lock, and the smallest
heap a whole shoe runs in from the make mpy build, quiet, as tests/host/test_micropython.py runs it."""

import shutil

from bench import vmrun
from bench.report import figure
from bench.shoe_events import FULL_SHOE

TOP_KB = 80  # the scan for the smallest heap starts here, where a whole shoe runs with room to spare
HEAP_KB = 65  # the heap a whole shoe must run in: bench/budgets.json's heap.smallest_kb
BOTTOM_KB = 8


def allocations(ctx):
    cwd = ctx.scratch("alloc")
    got = vmrun.last_json(vmrun.vm("replay.py", ["alloc", vmrun.link(cwd, "events.bin", ctx.events), "journal"],
                                   ctx.build, cwd, heapsize="8M"))
    cards = got["cards"]
    how = ("gc.mem_alloc() before and after, gc off, from card %d to the end of the shoe (%d cards), replayed "
           "on the VM from the mpy build" % (ctx.shoe["cards"] - cards + 1, cards))
    return {
        "heap_per_card.controller_step": figure(round(got["step_bytes"] / cards, 1), "B/card",
                                                "Controller.step alone; " + how),
        "heap_per_card.shell_decide": figure(round(got["decide_bytes"] / cards, 1), "B/card",
                                             "Shell.decide inside Shell.handle (its guard hooks); " + how),
        "heap_per_card.shell_handle": figure(round(got["handle_bytes"] / cards), "B/card",
                                             "Shell.handle whole: the journal's frames, hashes and tags; " + how),
    }


def _shoe_runs(ctx, heap_kb, *flags):
    """The whole shoe by boards.sim.runner, quiet, journal in ./journal and scenario in ./shoe.txt: the same paths
    wherever the clone is, as the heap's fragmentation depends on the lengths of the strings it holds; the heap at
    vmrun's steady size, whose pool does not depend on the address the launching process mallocs it at."""
    cwd = ctx.scratch("heap")
    shutil.copy(FULL_SHOE, cwd / "shoe.txt")
    command = vmrun.micropython_command(["-m", "boards.sim.runner", "shoe.txt", "--log", "journal", "--quiet"]
                                        + list(flags), "%dK" % heap_kb)
    done = vmrun.run(command, vmrun.vm_env(cwd, ctx.build), cwd, check=False)
    return done.returncode == 0


def smallest_heap(ctx):
    """Down from TOP_KB by 1 KB until a run fails: fragmentation makes success non-monotonic (a size may fail while
    a smaller one passes), so a bisection could land on a lucky size; this finds the size from which all pass."""
    if not _shoe_runs(ctx, TOP_KB):
        return None
    size = TOP_KB
    while size > BOTTOM_KB and _shoe_runs(ctx, size - 1):
        size -= 1
    return size


def measure(ctx):
    out = allocations(ctx)
    out["heap_lock.whole_shoe"] = figure(_shoe_runs(ctx, 128, "--heap-lock"), "",
                                         "boards.sim.runner --heap-lock: every Shell.decide of the shoe under "
                                         "micropython.heap_lock (128K heap), from the mpy build")
    out["heap.whole_shoe_in_budget"] = figure(_shoe_runs(ctx, HEAP_KB), "", "boards.sim.runner --quiet, -X heapsize="
                                              "%dK, from the mpy build (firmware and sim loaded as .mpy into the heap)"
                                              % HEAP_KB)
    smallest = smallest_heap(ctx)
    out["heap.smallest_kb"] = figure(smallest if smallest is not None else ">%d" % TOP_KB, "KB",
                                     "the same run at -X heapsize from %dK down by 1K to the first failure: every "
                                     "size from this one up runs the shoe" % TOP_KB)
    return out
