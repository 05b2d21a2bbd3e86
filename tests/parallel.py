"""The units of work of a parallel run (`make test`: pytest-xdist on every core). A worker takes a unit whole: a
module's tests share its module-scoped fixtures (a board booted, a shoe dealt), made once on the worker that runs
them. Where a module's tests share nothing across a line, the line splits it, so that its parts run side by side;
the longest units start first, so that no worker starts one while the others are nearly done."""

import fcntl
import re
from contextlib import contextmanager
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = "tests/host/test_micropython.py"
CORE_ON_VM = re.compile(r"test_core_test_passes_on_the_micropython_vm\[[^-]+")  # vm_results: once a VM
PICO_CORE = "tests/host/test_pico_core.py"
CORE_ON_PICO = re.compile(r"test_\w+\[rp2-(\d)")  # rp2_results: once a shard, each its own emulated Pico
PICO_CUTS = "tests/host/test_pico_shoe.py::test_power_cuts_at_random_instants_of_the_deal_lose_no_durable_record"
ALONE = {PICO_CUTS}  # uses none of its module's fixtures
# The longest units, longest first (--durations on two workers); the others follow in xdist's order, most tests first.
LONG = (PICO_CORE + "::rp2-0", PICO_CORE + "::rp2-1", PICO_CORE + "::rp2-2", PICO_CUTS,
        "tests/host/test_fleet_checks.py", "tests/host/test_ring_powercut.py", "tests/host/test_fleet_spark.py",
        "tests/host/test_littlefs_powercut.py", "tests/host/test_pico_shoe.py", "tests/host/test_ring_powercut_vm.py",
        "tests/host/test_pico_production.py", "tests/host/test_pico_tamper.py", "tests/host/test_nuit.py")


def work_unit(nodeid):
    module, _, test = nodeid.partition("::")
    if module == MICROPYTHON:  # its other tests share only the session's build
        core = CORE_ON_VM.match(test)
        return module + "::" + core.group(0) if core else nodeid
    if module == PICO_CORE:  # its shards share only the session's build
        shard = CORE_ON_PICO.match(test)
        return module + "::rp2-" + shard.group(1) if shard else nodeid
    return nodeid if nodeid in ALONE else module


class Scheduling(LoadScopeScheduling):
    def _split_scope(self, nodeid):
        return work_unit(nodeid)

    def _assign_work_unit(self, node):
        """The longest unit left; but a worker holds its last test until the next comes (its fixtures' teardown
        depends on it), so behind a long unit still running, the smallest: the other worker does the rest."""
        running = self.assigned_work.get(node, {})
        if any(unit in LONG and not all(running[unit].values()) for unit in running):
            self.workqueue.move_to_end(next(reversed(self.workqueue)), last=False)
        else:
            long = next((unit for unit in LONG if unit in self.workqueue), None)
            if long:
                self.workqueue.move_to_end(long, last=False)
        super()._assign_work_unit(node)


@contextmanager
def one_worker_at_a_time(name):
    """A build a session fixture brings up to date: two workers' makes writing the same files would race."""
    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / (".%s.lock" % name), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
