"""The imperative shell every board shares: controller records made durable, then its commands carried out.

A board gives it a gate, an indicator, a buzzer and a journal Writer; its sensor interrupt closes the
gate itself and then hands the card to handle(EV_CARD, ...). No machine import here: the boards own pins.
"""

from firmware.controller import (
    CMD_BUZZER,
    CMD_GATE_CLOSE,
    CMD_GATE_OPEN,
    CMD_INDICATOR,
    EV_JOURNAL_FAILED,
    EV_POWER_UP,
    Controller,
)


class Shell:
    def __init__(self, gate, indicator, buzzer, writer, observer=None):
        self.ctl = Controller()
        self.gate = gate
        self.indicator = indicator
        self.buzzer = buzzer
        self.writer = writer
        self.observer = observer  # sim and diagnostics only: it may allocate

    def boot(self, now):
        """Power-up, once the board has replayed the journal into ctl.restore: the gate locks first."""
        self.gate.close()  # S-FAILSAFE
        self.handle(EV_POWER_UP, 0, now)

    def handle(self, event, arg, now):
        try:
            self._handle(event, arg, now)
        except BaseException:
            self.gate.close()  # S-FAILSAFE: whatever went wrong, the gate is not left open
            raise

    def _handle(self, event, arg, now):
        ctl = self.ctl
        ctl.step(event, arg, now)
        observer = self.observer
        if observer:
            observer.event(event, arg, now, ctl)
        for i in range(ctl.n_recs):
            try:
                self.writer.append(ctl.recs[i])  # J-DURABLE: flushed before any command runs
            except OSError:
                self.gate.close()
                if event != EV_JOURNAL_FAILED:
                    self._handle(EV_JOURNAL_FAILED, 0, now)
                return
            if observer:
                observer.record(ctl.recs[i], self.writer.seq)
        cmds = ctl.cmds
        for i in range(ctl.n_cmds):
            command = cmds[2 * i]
            arg = cmds[2 * i + 1]
            if command == CMD_GATE_CLOSE:
                self.gate.close()
            elif command == CMD_GATE_OPEN:
                self.gate.open()
            elif command == CMD_INDICATOR:
                self.indicator.show(arg)
            elif command == CMD_BUZZER:
                self.buzzer.sound(arg)
            if observer:
                observer.command(command, arg, now)
