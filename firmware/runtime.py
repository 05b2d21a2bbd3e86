"""The main loop every board runs: events its interrupts queued go to the shell, the controller's timer
fires at its deadline, the watchdog is fed, and on any way out the gate is locked (S-FAILSAFE).

The queue from a board's interrupt handlers to the loop holds (event, argument) byte pairs in a fixed ring. put()
allocates nothing, so a hard interrupt handler may call it; one producer at a time (a board that has several
interrupt sources masks interrupts around put, or gives each its own queue).
"""

from firmware.events import EV_FAULT, EV_TICK
from firmware.records import FAULT_OVERRUN


class EventQueue:
    def __init__(self, size=32):
        self._buf = bytearray(2 * size)
        self._size = size
        self._head = 0
        self._tail = 0
        self.lost = 0  # events dropped because the queue was full: the main loop turns them into a fault
        self.arg = 0  # the argument of the event take() returned last

    def put(self, event, arg):
        head = self._head
        following = head + 1 if head + 1 < self._size else 0
        if following == self._tail:
            self.lost += 1
            return False
        self._buf[2 * head] = event
        self._buf[2 * head + 1] = arg
        self._head = following
        return True

    def take(self):
        """The oldest event, its argument in self.arg; 0 when the queue is empty."""
        tail = self._tail
        if tail == self._head:
            return 0
        event = self._buf[2 * tail]
        self.arg = self._buf[2 * tail + 1]
        self._tail = tail + 1 if tail + 1 < self._size else 0
        return event


class Runtime:
    current = None  # type: Runtime | None  # the loop last started, for a technician's mpremote commands

    def __init__(self, shell, events, now, feed, idle):
        self.shell = shell
        self.events = events  # an EventQueue filled by the board's interrupt handlers
        self.now = now  # time.ticks_ms(): wraps every 2**30 ms, a small int on 32-bit boards (firmware/ticks.py)
        self.feed = feed  # the watchdog: fed once a pass, so a stuck loop resets the board, gate locked
        self.idle = idle  # wait a little for the next interrupt

    def run(self, serving=None):
        """Boot, then serve until interrupted (KeyboardInterrupt from a technician) or, with a cable, until its restart:
        the gate locked on the way out. serving(), once the controller is reachable, lets a board hear its
        technician again, or returns the cable the loop serves (boards/mcu/service.py)."""
        try:
            self.boot()
            self._serve(serving)
        finally:
            self.stop()

    def boot(self):
        """Power-up: the gate locked, the journal recovered into the controller (the sim board's power-on too)."""
        self.shell.boot(self.now())

    def serve(self, cable=None):
        """Serve an already booted shell until interrupted, or until its cable's restart (the virtual board: after a
        scenario, or in production)."""
        try:
            self._serve(None, cable)
        finally:
            self.stop()

    def _serve(self, serving=None, cable=None):
        """The loop. cable: the shoe's protocol on the board's port (firmware/protocol.py's Protocol, after listen()),
        heard after each pass, the loop's end when one of its commands asks for a restart; None on a development
        board, whose loop runs until its technician interrupts it. serving() may give it."""
        Runtime.current = self
        self.shell.journal.reopen()
        if serving is not None:
            cable = serving()
        now = self.now
        while cable is None or not cable.restart:
            began = now()
            held = self.step()
            self.idle()
            if cable is not None:
                cable.after_pass(held, began)

    def step(self):
        """A pass: the events queued, then the controller's timer. The shell's job first (job(now, spare)): a
        checkpoint signed by the element a poll at a time takes the pass, the events left queued for the next; with
        none queued (spare), the flash's housekeeping a piece a pass."""
        shell = self.shell
        events = self.events
        now = self.now()
        job = shell.job
        if job is not None and job(now, events._head == events._tail):
            self.feed()
            return True
        if events.lost:
            events.lost = 0
            shell.handle(EV_FAULT, FAULT_OVERRUN, now)
        event = events.take()
        while event:
            shell.handle(event, events.arg, now)
            if job is not None and job(now, False):  # the step began one: the other events wait for it
                self.feed()
                return True
            event = events.take()
        if shell.ctl.deadline(now) == 0:
            shell.handle(EV_TICK, 0, now)
        self.feed()
        return False

    def stop(self):
        self.shell.gate.close()
        self.shell.journal.close()
