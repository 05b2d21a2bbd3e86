"""Plays scenario text on a sim board with its journal in RAM, and reads back what a user would see."""

import struct

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage, grow
from boards.sim.observer import Observer
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import journal, layout
from firmware.records import R_ALARM, R_CARD, R_FINDING

FIELDS = layout.FIELDS


def journal_records(storage, rtype=None):
    """Every whole frame of every segment of a MemoryStorage (of type rtype alone, if given), as dicts (seq and
    every field), in order. Framing only: integrity is the verifier's business (tests/host). Filtered before a
    dict is made: a whole shoe's dicts would not fit the Pico's heap (issue 22)."""
    found = []
    for segment in storage.segments():
        data = storage.files[segment]
        journal.parse_header(data)
        for at in range(layout.HEADER_SIZE, len(data) - layout.FRAME_SIZE + 1, layout.FRAME_SIZE):
            fields = struct.unpack_from(layout.BODY, data, at + layout.BODY_AT)
            if rtype is None or fields[0] == rtype:
                seq = struct.unpack_from("<I", data, at + layout.SEQ_AT)[0]
                found.append(dict(zip(("seq",) + FIELDS, (seq,) + fields)))
    return found


class _Timeline:
    """The timeline's text, grown as the journal's storage grows (flash.grow): a StringIO grows by a new block at
    each line, and a line kept each as its own object scatters them over the heap; either way a whole shoe leaves
    a Pico's heap no hole for the longer blocks it then wants (issue 22)."""

    def __init__(self):
        self.data = bytearray()

    def write(self, text):
        grow(self.data, text.encode())


class Played:
    def __init__(self, text, capacity=1 << 20):
        self.storage = MemoryStorage(capacity)
        self.timeline = _Timeline()
        observer = Observer(self.timeline)
        self.board = SimBoard(self.storage, observer=observer)
        observer.wall_ms = self.board.wall_ms
        run(parse(text), self.board)

    @property
    def ctl(self):
        return self.board.shell.ctl

    def records(self):
        """The journal's records as dicts (seq and every field), in order."""
        return journal_records(self.storage)

    def of_type(self, rtype):
        return journal_records(self.storage, rtype)

    def cards(self):
        return self.of_type(R_CARD)

    def alarms(self):
        return [r["code"] for r in self.of_type(R_ALARM)]

    def findings(self):
        return [r["code"] for r in self.of_type(R_FINDING)]

    def text(self):
        return str(self.timeline.data, "utf-8")


def play(*lines, capacity=1 << 20):
    """Played lines, in a séance at table 1 unless they open one: no shoe is dealt outside a séance (S-IDENT)."""
    if not any(line.split()[:1] == ["seance"] for line in lines):
        lines = ("seance table=1",) + lines
    return Played("\n".join(lines), capacity)
