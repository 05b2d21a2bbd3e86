"""The sim board: the shell wired to simulated devices, a physical shoe and a journal storage.

It plays the part of a real board's drivers: the sensor "interrupt" locks the gate and queues the card, buttons
queue their event and are dead while the power is off, and power-up recovers the journal. Its shell is built as
firmware/startup.py's make_shell builds a board's and served by firmware/runtime.py's loop as a Pico's is; the
virtual clock runs the loop's step at once after each interrupt, so a run is the same on every runtime.
"""

from boards.sim.devices import SimOutputs, SimWall, VirtualClock
from boards.sim.shoe import PhysicalShoe
from firmware.cards import STOP, UNKNOWN
from firmware.devkey import DEVELOPMENT_KEY
from firmware.events import EV_CARD, EV_SEANCE, EV_TICK
from firmware.journal import Journal
from firmware.mac import Key
from firmware.records import BOOT_POWER
from firmware.runtime import EventQueue, Runtime
from firmware.shell import Shell
from firmware.version import development_identity

FIRMWARE = development_identity("sim")  # names the build in each segment header
START_S = 218188800  # 2026-11-30T08:00:00Z in seconds since 2020-01-01: the sim's wall clock at power-on
START_MS = START_S * 1000


class SimBoard:
    def __init__(self, storage, sabot=1, observer=None, heap_lock=False, segment_records=None):
        self.clock = VirtualClock()
        self.wall = SimWall(self._uptime_ms, START_S)
        self.gate = self.indicator = self.buzzer = SimOutputs()
        self.shoe = PhysicalShoe(self.gate, self.clock, self._sensed)
        self.storage = storage
        self.sabot = sabot
        self.key = Key(DEVELOPMENT_KEY)
        self.observer = observer
        self.heap_lock = heap_lock
        self.segment_records = segment_records
        self.shell = None
        self.events = EventQueue()  # what the interrupts queue for the loop, as on a Pico
        self.runtime = None  # the loop serving the shell while the power is on
        self.unseen = 0  # cards that left while the shoe had no power
        self.reader = True  # a card reader is fitted; without it only the stop card is recognised
        self.firmware = FIRMWARE  # names the build in the journal; the virtual board sets the release's
        self.firmware_ok = None  # the boot-time check against a release manifest (None: none deployed)
        self.checkpoints = None  # firmware/checkpoints.py: the virtual board's and the tests'; the sim has no element
        self.on_pass = None  # on_pass(): a pass of the loop a job took (a test's element model keeps time by it)
        self._drawn = 1  # the bank's draw (Article 61) from a seeded source: a run's journal is the same everywhere

    def wall_ms(self):
        return START_MS + self.clock.now

    def _uptime_ms(self):
        return self.clock.now

    def power_on(self, cause=BOOT_POWER):
        """The board boots: after a power cut, or a restart with the power on (the virtual board's soft reset)."""
        journal = Journal(self.storage, self.key, self.sabot, self.firmware, self.wall)
        if self.segment_records:
            journal.segment_records = self.segment_records
        self.shell = Shell(self.gate, self.indicator, self.buzzer, journal, self.observer, self.firmware_ok)
        if self.checkpoints is not None:
            self.checkpoints.attach(self.shell)  # their hook into its power-up and steps, as make_shell's
        self.shell.boot_cause = cause
        self.shell.random = self._random
        if self.heap_lock:
            import micropython  # the no-allocation test, on the MicroPython VM only

            self.shell.guard = (micropython.heap_lock, micropython.heap_unlock)
        self.runtime = Runtime(self.shell, self.events, self.clock.ticks, _nothing, _nothing)
        self.runtime.boot()

    def _random(self):
        """The sim's random source: the ZX81's generator, x * 75 + 74 mod 65537, every value a small int."""
        self._drawn = (self._drawn * 75 + 74) % 65537
        return self._drawn & 0xFFFF

    def power_cut(self):
        """Everything stops; the de-energised gate locks by itself (S-FAILSAFE)."""
        if self.shell:
            self.shell.journal.close()
        self.shell = None
        self.runtime = None
        self.gate.close()

    def press(self, event, arg=0):
        """A button or input of the board, queued as its interrupt would; dead while the power is off. A séance's
        table, game and employee are the panel's (Shell.panel_seance), as a board's config gives them: the queue
        carries one byte."""
        if self.shell:
            if event == EV_SEANCE:
                self.shell.panel_seance = arg
                arg = 0
            self._handle(event, arg)
            return True
        return False

    def advance(self, ms):
        """Let time pass: the loop's step at each deadline the controller asked for, which fires its timer."""
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
        """An input queued as its interrupt queues it (EV_TICK: none, the loop fires the controller's timer), then
        the loop's step at once, and its next passes while a job of the shell takes them (a board with an element's
        checkpoint): the virtual clock stands still while they run (the same journal with an element or without,
        H-SIM); on_pass, once each, moves a test's element clock."""
        if event != EV_TICK:
            self.events.put(event, arg)
        runtime = self.runtime
        runtime.step()
        while runtime.step():  # a job of the shell (a checkpoint signed a poll at a time): the loop's next passes
            if self.on_pass is not None:
                self.on_pass()


def _nothing():
    """The sim's watchdog and idle wait: its clock moves only when the runner says so."""
