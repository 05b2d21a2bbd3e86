"""The solenoid gate on one output pin. Fail-secure: de-energised is locked, so a dead board locks it (S-FAILSAFE)."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin


class Gate:
    def __init__(self, pin: "Pin", locked_level=0):
        self._pin = pin
        self._locked = locked_level
        self._open = 1 - locked_level
        pin.value(locked_level)

    def open(self):
        """Release one card; the interlock (the boards' README) drops the solenoid anyway when the beam breaks."""
        self._pin.value(self._open)

    def close(self):
        """Allocation-free: the beam's hard interrupt handler calls it first."""
        self._pin.value(self._locked)
