"""The queue from a board's interrupt handlers to its main loop: (event, argument) byte pairs in a fixed ring.

put() allocates nothing, so a hard interrupt handler may call it; one producer at a time (a board that has
several interrupt sources masks interrupts around put, or gives each its own ring).
"""


class EventRing:
    def __init__(self, size=32):
        self._buf = bytearray(2 * size)
        self._size = size
        self._head = 0
        self._tail = 0
        self.lost = 0  # events dropped because the ring was full: the main loop turns them into a fault
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
        """The oldest event, its argument in self.arg; 0 when the ring is empty."""
        tail = self._tail
        if tail == self._head:
            return 0
        event = self._buf[2 * tail]
        self.arg = self._buf[2 * tail + 1]
        self._tail = tail + 1 if tail + 1 < self._size else 0
        return event
