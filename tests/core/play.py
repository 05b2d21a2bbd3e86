"""Plays scenario text on a sim board with its journal in RAM, and reads back what a user would see."""

from io import StringIO

from boards.sim.board import SimBoard
from boards.sim.observer import Observer
from boards.sim.runner import run
from boards.sim.scenario import parse
from boards.sim.storage import MemoryStorage
from firmware import journal
from firmware.controller import R_ALARM, R_CARD, R_FINDING

FIELDS = journal.FIELDS


class Played:
    def __init__(self, text, capacity=65536):
        self.storage = MemoryStorage(capacity)
        self.timeline = StringIO()
        self.board = SimBoard(self.storage, observer=Observer(self.timeline))
        run(parse(text), self.board)

    @property
    def ctl(self):
        return self.board.shell.ctl

    def records(self):
        """The journal's records as dicts (seq and every field), in order."""
        data = self.storage.bytes()
        journal.check_header(data)
        return [dict(zip(("seq",) + FIELDS, (seq,) + fields)) for seq, fields in journal.records(data)]

    def of_type(self, rtype):
        return [r for r in self.records() if r["type"] == rtype]

    def cards(self):
        return self.of_type(R_CARD)

    def alarms(self):
        return [r["code"] for r in self.of_type(R_ALARM)]

    def findings(self):
        return [r["code"] for r in self.of_type(R_FINDING)]

    def text(self):
        return self.timeline.getvalue()


def play(*lines, capacity=65536):
    return Played("\n".join(lines), capacity)
