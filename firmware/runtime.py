"""The main loop every board runs: events its interrupts queued go to the shell, the controller's timer
fires at its deadline, the watchdog is fed, and on any way out the gate is locked (S-FAILSAFE)."""

from firmware.events import EV_FAULT, EV_TICK
from firmware.records import FAULT_OVERRUN


class Runtime:
    current = None  # type: Runtime | None  # the loop last started, for a technician's mpremote commands

    def __init__(self, shell, events, now, feed, idle):
        self.shell = shell
        self.events = events  # an EventQueue filled by the board's interrupt handlers
        self.now = now  # time.ticks_ms(): wraps every 2**30 ms, a small int on 32-bit boards (firmware/ticks.py)
        self.feed = feed  # the watchdog: fed once a pass, so a stuck loop resets the board, gate locked
        self.idle = idle  # wait a little for the next interrupt

    def run(self):
        """Boot, then serve until interrupted: KeyboardInterrupt from a technician leaves the gate locked."""
        try:
            self.shell.boot(self.now())
            self._serve()
        finally:
            self.stop()

    def serve(self):
        """Serve an already booted shell until interrupted (the virtual board after a scenario)."""
        try:
            self._serve()
        finally:
            self.stop()

    def _serve(self):
        Runtime.current = self
        self.shell.journal.reopen()
        while True:
            self.step()
            self.idle()

    def step(self):
        shell = self.shell
        events = self.events
        now = self.now()
        if events.lost:
            events.lost = 0
            shell.handle(EV_FAULT, FAULT_OVERRUN, now)
        event = events.take()
        while event:
            shell.handle(event, events.arg, now)
            event = events.take()
        if shell.ctl.deadline(now) == 0:
            shell.handle(EV_TICK, 0, now)
        self.feed()

    def stop(self):
        self.shell.gate.close()
        self.shell.journal.close()
