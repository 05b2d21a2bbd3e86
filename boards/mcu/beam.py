"""The break-beam sensor at the shoe's mouth. Its interrupt handler shuts the gate before anything else, then queues
the card as STOP when the stop-card detector sees it, else with the identity the reader saw, or UNKNOWN (S-ONE,
S-FAILSAFE, S-STOP)."""

import time

from firmware.cards import STOP, UNKNOWN
from firmware.events import EV_CARD

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin


class BeamSensor:
    def __init__(self, gate, events, reader=None, stop_pin: "Pin | None" = None, stop_active=0):
        self._gate = gate
        self._events = events  # firmware.runtime.EventQueue: put() allocates nothing
        self._reader = reader  # a CardReader, or None when no reader is fitted
        self._stop_pin = stop_pin  # the stop-card detector, or None when none is fitted
        self._stop_active = stop_active
        self.seen = 0  # the breaks this handler saw (the Pico's PIO count is checked against it: pio_gate.py)

    def on_break(self, _pin):
        """The interrupt handler (hard on the RP2040): attach the bound method once, at setup; it allocates nothing."""
        self._gate.close()
        self.seen += 1
        card = UNKNOWN
        reader = self._reader
        if reader is not None:
            card = reader.take(time.ticks_ms())
        stop = self._stop_pin
        if stop is not None and stop.value() == self._stop_active:
            card = STOP  # the detector wins: the reader's line taken above may be a duplicate of the last card's
        self._events.put(EV_CARD, card)
