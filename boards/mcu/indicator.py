"""The status LED: one blink pattern per controller indicator state (IND_*), driven from the main loop."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin

# (lit ms, period ms), indexed by IND_LOCKED, IND_DEALING, IND_ALARM, IND_CLOSED (0-3): steady for locked, a slow
# blink while the coup is open, a fast one for an alarm, a short flash every two seconds once the shoe is closed.
PATTERNS = ((1, 1), (500, 1000), (100, 200), (100, 2000))


class Indicator:
    def __init__(self, pin: "Pin"):
        self._pin = pin
        self._lit = 0  # dark until the controller shows a state: a dark LED means the controller is not running
        self._period = 1
        pin.value(0)

    def show(self, state):
        self._lit, self._period = PATTERNS[state]

    def update(self, now):
        self._pin.value(now % self._period < self._lit)
