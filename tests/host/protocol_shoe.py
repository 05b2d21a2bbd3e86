"""A sim board served by the shoe's protocol (firmware/protocol.py), and the host's client wired to it in memory:
what the protocol's tests and its fuzzing talk to."""

import random

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from firmware.events import EV_SEANCE
from firmware.mac import Key
from firmware.protocol import Protocol
from firmware.records import pack_seance
from sabot.protocol import Client

CASINO = Key(bytes(range(100, 132)))  # the casino's key the shoe was enrolled with


class Loopback:
    """The host's link to the shoe: what the host writes is fed to the shoe, what the shoe writes is read back."""

    def __init__(self):
        self.protocol = None
        self.out = bytearray()

    def write(self, data):
        self.protocol.feed(data)

    def read(self):
        data = bytes(self.out)
        self.out.clear()
        return data


class Shoe:
    """A shoe in a séance with bets open, its journal in RAM, its clock settings recorded."""

    def __init__(self, casino=CASINO, seed=1, enrolment=None):
        self.storage = MemoryStorage()
        self.board = SimBoard(self.storage)
        self.board.power_on()
        self.board.press(EV_SEANCE, pack_seance(3, 0, 7))  # the panel's séance: table 3, employee 7
        self.clocks = []
        self.link = Loopback()
        draw = random.Random(seed)
        self.protocol = Protocol(self.board.shell, self.board.clock.ticks, self.link.out.extend,
                                 draw.randbytes, casino, self, enrolment=enrolment)
        self.link.protocol = self.protocol
        self.client = Client(self.link, timeout=0.2)

    def set_clock(self, *fields):
        self.clocks.append(fields)

    def journal(self):
        return {segment: bytes(self.storage.files[segment]) for segment in self.storage.segments()}

    def state(self):
        """What the shoe holds that a command could change: its journal, its gate, its clock, its casino key."""
        shell = self.board.shell
        casino = self.protocol.casino
        return (shell.journal.seq, self.board.gate.is_open, self.board.gate.releases, len(self.clocks),
                shell.ctl.seance, shell.ctl.table, casino and casino.id)
