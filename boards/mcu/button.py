"""A push button or key switch: its interrupt handler queues one event a press, contact bounce filtered out by time
stamps alone (no timer, no allocation), so it may run as a hard interrupt."""

import time

from firmware.compat import const

_QUIET_MS = const(30)  # a contact's bounce dies out within this; a press starts on a line quiet for this long


class Button:
    def __init__(self, events, event, arg=0, pressed_level=0):
        self._events = events
        self._event = event
        self._arg = arg
        self._pressed = pressed_level
        self._edge_at = time.ticks_ms()

    def on_edge(self, pin):
        """For both edges. The first edge after a quiet line that leaves the pin pressed is a press; the bounce after
        it, and the release with its own bounce, come too soon after an edge to count. A negative difference means
        the line was quiet for longer than ticks_diff can tell (days): quiet too."""
        now = time.ticks_ms()
        elapsed = time.ticks_diff(now, self._edge_at)
        self._edge_at = now
        if not 0 <= elapsed < _QUIET_MS and pin.value() == self._pressed:
            self._events.put(self._event, self._arg)
