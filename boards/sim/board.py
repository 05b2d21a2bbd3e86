"""The sim board: the shell wired to simulated devices, a physical shoe and a journal storage.

It plays the part of a real board's drivers: the sensor "interrupt" locks the gate before the controller
hears of the card, buttons are dead while the power is off, and power-up recovers the journal.
"""

from boards.sim.devices import SimBuzzer, SimGate, SimIndicator, SimWall, VirtualClock
from boards.sim.shoe import PhysicalShoe
from firmware.cards import STOP, UNKNOWN
from firmware.devkey import DEVELOPMENT_KEY
from firmware.events import EV_CARD, EV_TICK
from firmware.journal import Journal, Key
from firmware.shell import Shell
from firmware.version import development_identity

FIRMWARE = development_identity("sim")  # names the build in each segment header
START_S = 218188800  # 2026-11-30T08:00:00Z in seconds since 2020-01-01: the sim's wall clock at power-on
START_MS = START_S * 1000


class SimBoard:
    def __init__(self, storage, sabot=1, observer=None, heap_lock=False, segment_records=None):
        self.clock = VirtualClock()
        self.wall = SimWall(self._uptime_ms, START_S)
        self.gate = SimGate()
        self.indicator = SimIndicator()
        self.buzzer = SimBuzzer()
        self.shoe = PhysicalShoe(self.gate, self.clock, self._sensed)
        self.storage = storage
        self.sabot = sabot
        self.key = Key(DEVELOPMENT_KEY)
        self.observer = observer
        self.heap_lock = heap_lock
        self.segment_records = segment_records
        self.shell = None
        self.unseen = 0  # cards that left while the shoe had no power
        self.reader = True  # a card reader is fitted; without it only the stop card is recognised
        self.firmware = FIRMWARE  # names the build in the journal; the virtual board sets the release's
        self.firmware_ok = None  # the boot-time check against a release manifest (None: none deployed)
        self.head = None  # the journal's head kept outside it (firmware/head.py): the virtual board's, the tests'

    def wall_ms(self):
        return START_MS + self.clock.now

    def _uptime_ms(self):
        return self.clock.now

    def power_on(self):
        journal = Journal(self.storage, self.key, self.sabot, self.firmware, self.wall)
        if self.segment_records:
            journal.segment_records = self.segment_records
        self.shell = Shell(self.gate, self.indicator, self.buzzer, journal, self.observer)
        self.shell.firmware_ok = self.firmware_ok
        self.shell.head = self.head
        if self.heap_lock:
            import micropython  # the no-allocation test, on the MicroPython VM only

            self.shell.guard = (micropython.heap_lock, micropython.heap_unlock)
        self.shell.boot(self.clock.ticks())

    def power_cut(self):
        """Everything stops; the de-energised gate locks by itself (S-FAILSAFE)."""
        if self.shell:
            self.shell.journal.close()
        self.shell = None
        self.gate.close()

    def press(self, event, arg=0):
        """A button or input of the board; dead while the power is off."""
        if self.shell:
            self._handle(event, arg)
            return True
        return False

    def advance(self, ms):
        """Let time pass, firing the controller's timer when it asked for one."""
        target = self.clock.now + ms
        while self.shell:
            wait = self.shell.ctl.deadline(self.clock.ticks())
            if wait < 0 or self.clock.now + wait > target:
                break
            self.clock.now += wait
            self._handle(EV_TICK, 0)
        self.clock.now = target

    def close(self):
        self.power_cut()

    def _sensed(self, card):
        self.gate.close()  # what the sensor's interrupt handler does on a real board, first
        if self.shell:
            self._handle(EV_CARD, card if self.reader or card == STOP else UNKNOWN)
        else:
            self.unseen += 1

    def _handle(self, event, arg):
        self.shell.handle(event, arg, self.clock.ticks())


def start(config):
    """The virtual board's entry, as every boards/<board>/board.py has one (firmware/startup.py calls it)."""
    from boards.sim import virtual_board

    virtual_board.start(config)
