"""What every measure shares: the sim build under test, a scratch folder, and the whole shoe recorded once."""

import itertools
from pathlib import Path

from bench import shoe_events


class Context:
    def __init__(self, tmp, build, quick=False, check=False):
        self.tmp = Path(tmp)
        self.build = Path(build)  # the sim board's .mpy build the VM imports
        self.quick = quick  # smaller journals and fewer timing runs
        self.check = check  # only the deterministic figures bench/budgets.json holds
        self._names = itertools.count()
        self.events = self.tmp / "events.bin"
        self.sim_journal = self.tmp / "sim-journal"
        self.shoe = shoe_events.record(self.events, self.sim_journal)  # cards, events, records, journal_bytes

    def scratch(self, name):
        """A new folder for one run: its cwd, or a place for its journal."""
        path = self.tmp / ("%s-%d" % (name, next(self._names)))
        path.mkdir()
        return path

    @property
    def cards(self):
        return self.shoe["cards"]
