"""The buzzer (an active one: sounding while its pin is high): a short beep when an input is refused, three long
ones for an alarm. Timed from the main loop, so sound() returns at once."""

from firmware.events import BUZZ_ALARM, BUZZ_REFUSED
from firmware.ticks import ticks_add, ticks_diff

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin

# Milliseconds, alternately sounding and silent, starting sounding.
SEQUENCES = {BUZZ_REFUSED: (80,), BUZZ_ALARM: (400, 200, 400, 200, 400)}


class Buzzer:
    def __init__(self, pin: "Pin"):
        self._pin = pin
        self._steps = ()  # type: tuple[int, ...]
        self._step = 0
        self._until = -1  # uptime when the current step ends; -1: the sequence starts at the next update
        pin.value(0)

    def sound(self, pattern):
        self._steps = SEQUENCES.get(pattern, SEQUENCES[BUZZ_REFUSED])
        self._step = 0
        self._until = -1

    def update(self, now):
        steps = self._steps
        if self._step >= len(steps):
            return
        if self._until < 0:
            self._until = ticks_add(now, steps[0])
        while self._step < len(steps) and ticks_diff(now, self._until) >= 0:
            self._step += 1
            if self._step < len(steps):
                self._until = ticks_add(self._until, steps[self._step])
        self._pin.value(self._step < len(steps) and self._step % 2 == 0)
