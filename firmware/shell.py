"""The imperative shell every board shares: the controller's records made durable, then its commands carried out.

A board gives it a gate, an indicator, a buzzer and a Journal; its sensor interrupt closes the gate itself and
then hands the card to handle(EV_CARD, ...). No machine import here: the boards own the pins.
"""

import os

from firmware.compat import const
from firmware.controller import Controller
from firmware.events import (
    CMD_BUZZER,
    CMD_GATE_CLOSE,
    CMD_GATE_OPEN,
    CMD_INDICATOR,
    EV_ADJUDICATE,
    EV_FAULT,
    EV_FIRMWARE,
    EV_LOAD,
    EV_NO_MORE_BETS,
    EV_POWER_UP,
    EV_SEANCE,
    EV_SEANCE_CLOSE,
)
from firmware.journal import RESERVE_BYTES, JournalError
from firmware.records import BOOT_POWER, CAUSE_SHIFT, FAULT_JOURNAL, FAULT_JOURNAL_FULL, FAULT_ROLLBACK, pack_torn

_TYPE_CHECKING = const(0)  # mypy's alone (typecheck/mypy.ini): MicroPython's compiler drops the block
if _TYPE_CHECKING:
    from firmware.checkpoint_hook import CheckpointHook  # noqa: F401 (read by the type comment below)


class Shell:
    boot_fault = 0  # a fault the board found before boot (no element answering), raised at every boot: read at boot
    checkpoints = None  # a board with a secure element's signed checkpoints (Checkpoints.attach sets them)
    job = None  # job(now, spare), polled by the loop each pass: True when the pass is its (the hook's work)

    def __init__(self, gate, indicator, buzzer, journal, observer=None, firmware_ok=None):
        """Every board's shell, the sim board's too (firmware/startup.py's make_shell, boards/sim/board.py)."""
        self.ctl = Controller()
        # An optional part's hooks into the power-up and each step: the checkpoints' (firmware/checkpoint_hook.py).
        self.hook = None  # type: CheckpointHook | None
        self.gate = gate
        self.indicator = indicator
        self.buzzer = buzzer
        self.journal = journal
        self.observer = observer  # sim and diagnostics only: it may allocate
        self.guard = None  # (lock, unlock) around each decision: micropython.heap_lock in the no-allocation test
        self.firmware_ok = firmware_ok  # the boot-time check against the release manifest; None: no manifest
        self.panel_seance = 0  # what the board's séance button opens: records.pack_seance of its table and game
        self.boot_cause = BOOT_POWER  # why it boots, as the board knows it: R_BOOT's code (records.BOOT_*)
        self.random = hardware_random  # the draw's source (Article 61): the sim's is seeded, so runs repeat

    def boot(self, now):
        """Power-up: the gate locks first (S-FAILSAFE), the journal is recovered into the controller. A hook's
        methods are named after the shell's that call them: with one (a board with a secure element), its recover()
        watches the recovery, and its boot() writes the power-up's one checkpoint after its records."""
        self.gate.close()
        hook = self.hook
        try:
            cut = self.recover()
        except (OSError, JournalError):
            # An unreadable journal: nothing is written after it, and the shoe stays locked for a technician.
            self.handle(EV_FAULT, FAULT_JOURNAL, now)
            cut = -1
        if cut >= 0:
            # Whether the journal was cut or put back while the shoe was off: a board with a secure element tells
            # by its signed checkpoints (its hook); the sim board cannot.
            rolled_back = hook is not None and hook.rolled_back()
            self.handle(EV_POWER_UP, pack_torn(cut) | self.boot_cause << CAUSE_SHIFT, now)
            if self.firmware_ok is not None:
                self.handle(EV_FIRMWARE, 1 if self.firmware_ok else 0, now)  # H-FIRMWARE
            if rolled_back:
                self.handle(EV_FAULT, FAULT_ROLLBACK, now)  # J-TAMPER: records the shoe wrote are gone
            if self.boot_fault:
                self.handle(EV_FAULT, self.boot_fault, now)
        if hook is not None:
            hook.boot()

    def recover(self):
        """The journal recovered into the controller at power-up (through the hook's watch with one): the bytes of
        a torn tail cut."""
        hook = self.hook
        return self.journal.recover(self.ctl) if hook is None else hook.recover()

    def handle(self, event, arg, now):
        try:
            self._handle(event, arg, now)
            if not self.ctl.in_coup and self.ctl.deadline(now) < 0:
                self._tidy()  # between coups, no release under way: the gate is shut
        except BaseException:
            self.gate.close()  # S-FAILSAFE: whatever went wrong, the gate is not left open
            raise

    def _tidy(self):
        """Flash housekeeping between coups only, so that no erase waits on a card. A drain the archive refuses leaves
        the records in the ring: free() says so, and the shoe faults before a coup as when flash fills. Under a loop
        with a hook, a piece a pass after the checkpoint under way (its work)."""
        hook = self.hook
        if hook is not None and hook.tidy():
            return
        try:
            self.journal.tidy()
        except OSError:
            pass

    def decide(self, event, arg, now):
        """The controller's part alone: what a board runs right after its sensor interrupt. Allocates nothing."""
        self.ctl.step(event, arg, now)

    def _handle(self, event, arg, now):
        hook = self.hook
        if hook is not None:
            hook.handle(now)  # a checkpoint under way finished first: no record between a step and its entry
        if event == EV_SEANCE and arg == 0:
            arg = self.panel_seance  # the button's event carries one byte; the board's config says the rest
        if event == EV_SEANCE or event == EV_SEANCE_CLOSE:
            wall = self.journal.wall
            wall.stamp()
            self.ctl.seconds = wall.seconds  # Article 61's day and break, on the clock the journal stamps with
            self.ctl.prepare(event, arg)
        elif event == EV_ADJUDICATE:
            arg = self.random()  # the queue carries a byte; the draw takes 16 bits of the board's source
        journal = self.journal
        if not journal.broken and (event == EV_SEANCE or journal.due() and not self.ctl.in_coup):
            journal.rotate(self.ctl)  # segments per séance, and by size between coups
        if ((event == EV_NO_MORE_BETS or event == EV_LOAD) and not self.ctl.raised(FAULT_JOURNAL_FULL)
                and journal.free() < RESERVE_BYTES):
            event, arg = EV_FAULT, FAULT_JOURNAL_FULL  # never let flash fill silently
        guard = self.guard
        if guard:
            guard[0]()
        try:
            self.decide(event, arg, now)
        finally:
            if guard:
                guard[1]()
        if hook is None:
            self.carry_out(event, arg, now)
        else:
            hook.carry_out(event, arg, now)  # and the checkpoint the step calls for

    def carry_out(self, event, arg, now):
        """Make the step's records durable, then run its commands; a failed write locks instead (J-DURABLE)."""
        ctl = self.ctl
        observer = self.observer
        if observer:
            observer.event(event, arg, now, ctl)
        cmds = ctl.cmds
        for i in range(ctl.n_cmds):
            if cmds[2 * i] == CMD_GATE_CLOSE:
                self.gate.close()  # a step that locks locks first; only opening waits for the records
        journal = self.journal
        try:
            for i in range(ctl.n_recs):
                journal.append(ctl.recs[i])
                if observer:
                    observer.record(journal.body, journal.seq)
            journal.sync()  # the power-up's records and the segment recovery began, created together
        except OSError:
            self.gate.close()
            if event != EV_FAULT:
                self.decide(EV_FAULT, FAULT_JOURNAL, now)
                self.carry_out(EV_FAULT, FAULT_JOURNAL, now)
            return
        self.command(now)

    def command(self, now):
        """The step's commands, once its records are durable (carry_out): the gate opened, the indicator, the buzzer
        (closing was done before the records). A board with an element holds a coup's opening until it is signed."""
        ctl = self.ctl
        cmds = ctl.cmds
        observer = self.observer
        for i in range(ctl.n_cmds):
            command = cmds[2 * i]
            arg = cmds[2 * i + 1]
            if command == CMD_GATE_OPEN:  # closing was done above, before the records
                self.gate.open()
            elif command == CMD_INDICATOR:
                self.indicator.show(arg)
            elif command == CMD_BUZZER:
                self.buzzer.sound(arg)
            if observer:
                observer.command(command, arg, now)


def hardware_random():
    """16 bits of the board's random source (os.urandom: the RP2040's ring oscillator, the ESP32's RNG)."""
    drawn = os.urandom(2)
    return drawn[0] | drawn[1] << 8
