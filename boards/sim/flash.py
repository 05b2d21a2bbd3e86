"""Journal segments in RAM, as flash for the power-cut tests: a capacity that fills (OSError ENOSPC), writes
that can fail (EIO), and a power cut after a budget of bytes, landing inside a write (a torn frame) or, when
`buffered`, losing everything written since the last flush, as littlefs does.
"""

from io import BytesIO

from firmware.storage import Segments

_EIO = 5
_ENOSPC = 28
BLOCK_SIZE = 4096


def _room(length):
    """The block a bytearray of length bytes holds under grow(): doubling from 64 bytes, then BLOCK_SIZE at a time,
    as littlefs's files grow on a board."""
    if length > BLOCK_SIZE:
        return -(-length // BLOCK_SIZE) * BLOCK_SIZE
    room = 64
    while room < length:
        room <<= 1
    return room


def grow(buf, data):
    """buf.extend(data), in blocks of _room(): MicroPython grows a bytearray to the exact length, a new block for
    each frame, and a whole shoe's 33 KB journal then wants blocks longer than any hole a Pico's 234 KB heap has
    left between what lives on (issue 22). A slice that shrinks a bytearray keeps its block: room for the next."""
    length = len(buf)
    room = _room(length + len(data))
    if room > _room(length) and room > length + len(data):
        buf.extend(bytes(room - length))
        buf[length:] = data
    else:
        buf.extend(data)


class PowerCut(Exception):
    """The power failed in the middle of a storage operation; nothing after it runs."""


class MemoryStorage(Segments):
    def __init__(self, capacity=1 << 20):
        self.files = {}
        self.capacity = capacity
        self.failing = False  # every write fails, as a broken flash would (EIO)
        self.budget = -1  # bytes that may still be written before the power fails; -1: it never does
        self.buffered = False  # a cut loses what was written since the last flush, instead of tearing it
        self.written = 0  # bytes written so far, whatever became of them

    def segments(self):
        return sorted(self.files)

    def size(self, segment):
        return len(self.files[segment])

    def reader(self, segment):
        return BytesIO(bytes(self.files[segment]))

    def create(self, segment, data):
        self._spend(len(data), None)  # all of it or nothing: a rename
        self.files[segment] = bytearray(data)

    def appender(self, segment):
        return _Appender(self, segment)

    def free(self):
        return self.capacity - sum(len(f) for f in self.files.values())

    def block_size(self):
        return BLOCK_SIZE  # a board's littlefs block: the ring drains as it would there

    def _spend(self, count, torn):
        if self.failing:
            raise OSError(_EIO)
        if count > self.free():
            raise OSError(_ENOSPC)
        if self.budget >= 0:
            if count > self.budget:
                if torn is not None:
                    torn(self.budget)
                self.written += self.budget
                self.budget = 0
                raise PowerCut()
            self.budget -= count
        self.written += count


class _Appender:
    def __init__(self, storage, segment):
        self.storage = storage
        self.file = storage.files[segment]
        self.pending = bytearray()

    def write(self, data):
        if self.storage.buffered:
            self.storage._spend(len(data), None)
            grow(self.pending, data)
        else:
            self.storage._spend(len(data), self._tear(data))
            grow(self.file, data)
        return len(data)

    def _tear(self, data):
        return lambda kept: grow(self.file, data[:kept])

    def flush(self):
        grow(self.file, self.pending)
        self.pending = bytearray()

    def close(self):
        self.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
