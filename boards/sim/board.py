"""The sim board: the shell wired to simulated devices, a physical shoe and a journal storage.

It plays the part of a real board's drivers: the sensor "interrupt" locks the gate before the controller
hears of the card, buttons are dead while the power is off, and power-up replays the journal.
"""

from boards.sim.devices import SimBuzzer, SimGate, SimIndicator, VirtualClock
from boards.sim.shoe import PhysicalShoe
from firmware import journal
from firmware.controller import EV_CARD, EV_TICK
from firmware.shell import Shell


class SimBoard:
    def __init__(self, storage, sabot=1, observer=None, heap_lock=False):
        self.clock = VirtualClock()
        self.gate = SimGate()
        self.indicator = SimIndicator()
        self.buzzer = SimBuzzer()
        self.shoe = PhysicalShoe(self.gate, self.clock, self._sensed)
        self.storage = storage
        self.sabot = sabot
        self.observer = observer
        self.heap_lock = heap_lock
        self.shell = None
        self._stream = None
        self.unseen = 0  # cards that left while the shoe had no power

    def power_on(self):
        shell = Shell(self.gate, self.indicator, self.buzzer, None, self.observer)
        seq = 0
        old = self.storage.reader()
        if old:
            with old:
                journal.check_header(old.read(journal.HEADER_SIZE))
                seq = journal.replay(old, shell.ctl.restore)
        else:
            self.storage.create(journal.header(self.sabot))
        self._stream = self.storage.appender()
        shell.writer = journal.Writer(self._stream, seq)
        self.shell = shell
        shell.boot(self.clock.now)

    def power_cut(self):
        """Everything stops; the de-energised gate locks by itself (S-FAILSAFE)."""
        self.shell = None
        self.gate.close()
        if self._stream:
            self._stream.close()
            self._stream = None

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
            deadline = self.shell.ctl.deadline()
            if deadline < 0 or deadline > target:
                break
            self.clock.now = max(deadline, self.clock.now)
            self._handle(EV_TICK, 0)
        self.clock.now = target

    def close(self):
        self.power_cut()

    def _sensed(self, card):
        self.gate.close()  # what the sensor's interrupt handler does on a real board, first
        if self.shell:
            self._handle(EV_CARD, card)
        else:
            self.unseen += 1

    def _handle(self, event, arg):
        if not self.heap_lock:
            self.shell.handle(event, arg, self.clock.now)
            return
        import micropython

        micropython.heap_lock()  # the test of "no allocation" (MicroPython VM only)
        try:
            self.shell.handle(event, arg, self.clock.now)
        finally:
            micropython.heap_unlock()
