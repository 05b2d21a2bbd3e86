"""A scenario dealt in real time while the production loop serves the port (`sabot vboard --live`): the croupier's
commands one a pass of the loop, when their time comes (a card, a button, every gap ms; `wait N`, N ms), through the
sim's own act(), so that a host following the shoe (`sabot pit`) sees each card as it leaves. The scenario is read
a line at a time (boards/sim/scenario.py's commands); the shoe's code is the same as for a scenario played at once."""

import time

from boards.sim.runner import act
from boards.sim.scenario import commands
from firmware import games

_ONE_BY_ONE = ("draw", "burn", "force")  # a command of n cards: n commands, each in its own pass


class Live:
    """The scenario at path, dealt on board (powered on) with gap ms between two commands; step() once a pass.
    log: a file each command's line is appended to, the host's time in ms before it and the journal's last record
    number after it (bench/pit.py measures from them when each record was written), or None."""

    def __init__(self, path, board, gap, log=None):
        self.file = open(path)
        self.steps = commands(self.file, path)
        self.board = board
        self.gap = gap
        self.game = games.CHEMIN_DE_FER
        self.due = time.ticks_add(time.ticks_ms(), gap)
        self.left = 0  # cards of the command under way still to come
        self.command = None
        self.log = open(log, "a") if log else None

    def step(self):
        if self.steps is None or time.ticks_diff(time.ticks_ms(), self.due) < 0:
            return
        if not self.left:
            try:
                _, command, a, b = next(self.steps)
            except StopIteration:
                self.steps = None
                self.file.close()
                return
            if command == "wait":
                self.due = time.ticks_add(time.ticks_ms(), a)
                return
            self.command = (command, a, b)
            self.left = a if command in _ONE_BY_ONE else 1
        command, a, b = self.command
        self.left -= 1
        began = time.time_ns() // 1000000
        self.game = act(self.board, self.game, command, 1 if command in _ONE_BY_ONE else a, b)
        if self.log is not None and self.board.shell is not None:
            self.log.write("%d %d\n" % (began, self.board.shell.journal.seq))
            self.log.flush()
        self.due = time.ticks_add(time.ticks_ms(), self.gap)
