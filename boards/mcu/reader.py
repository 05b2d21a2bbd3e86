"""The optional card reader on a UART (docs/card-reader-protocol.md): one line a card, read before the card reaches
the beam. The main loop parses the lines into a small queue of identities, each stamped with when it was read; the
beam's interrupt handler takes the oldest fresh one. One producer (the loop), one consumer (the handler)."""

import time
from array import array

from firmware.cards import UNKNOWN, parse
from firmware.compat import const

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import UART

BAUD = const(115200)
FRESH_MS = const(1000)  # an identity older than this when the beam breaks belongs to no card in flight: dropped
_LINE_MAX = const(8)  # longer lines are not cards ("STOP" is the longest)
_QUEUE = const(5)  # a ring with one slot always free: four identities waiting for the beam (a double feed: two)
_LF = const(10)
_CR = const(13)


class CardReader:
    def __init__(self, uart: "UART"):
        self._uart = uart
        self._chunk = bytearray(16)
        self._line = bytearray(_LINE_MAX)
        self._length = 0  # bytes of the line so far; -1 once it is too long, until its end
        self._cards = bytearray(_QUEUE)
        self._read_at = array("i", [0] * _QUEUE)  # ticks_ms of each queued identity
        self._head = 0  # written by the main loop only
        self._tail = 0  # written by the beam's interrupt handler only
        self.errors = 0  # lines that were not a card, and identities dropped on a full queue

    def poll(self):
        """Parse what the UART holds; the main loop calls it every pass."""
        uart = self._uart
        if uart.any():
            now = time.ticks_ms()
            chunk = self._chunk
            for i in range(uart.readinto(chunk) or 0):
                self.feed(chunk[i], now)

    def feed(self, byte, now):
        """One received byte; a line ends at LF, a CR before it is ignored."""
        if byte == _LF:
            self._end_line(now)
        elif byte != _CR:
            length = self._length
            if 0 <= length < _LINE_MAX:
                self._line[length] = byte
                self._length = length + 1
            else:
                self._length = -1

    def _end_line(self, now):
        length = self._length
        self._length = 0
        if length == 0:
            return  # an empty line says nothing
        try:
            card = parse(bytes(self._line[:length]).decode()) if length > 0 else -1
        except ValueError:  # UnicodeError included
            card = -1
        if card < 0:
            self.errors += 1  # garbage never becomes a card's identity
            return
        head = self._head
        following = head + 1 if head + 1 < _QUEUE else 0
        if following == self._tail:
            self.errors += 1
            return
        self._cards[head] = card
        self._read_at[head] = now
        self._head = following

    def take(self, now):
        """The oldest identity read within FRESH_MS before now (ticks_ms), or UNKNOWN; staler ones are dropped.
        For the beam's interrupt handler: allocates nothing."""
        tail = self._tail
        while tail != self._head:
            card = self._cards[tail]
            age = time.ticks_diff(now, self._read_at[tail])
            tail = tail + 1 if tail + 1 < _QUEUE else 0
            if 0 <= age <= FRESH_MS:
                self._tail = tail
                return card
        self._tail = tail
        return UNKNOWN
