"""Where the sim board keeps its journal: a file, as on a board's littlefs, or a fixed block of RAM.

MemoryStorage is preallocated, so appending allocates nothing, and full is full: a write past its capacity
fails as a full flash does (OSError ENOSPC).
"""

from io import BytesIO

_ENOSPC = 28


class FileStorage:
    def __init__(self, path):
        self.path = path

    def reader(self):
        """The journal to replay, or None when there is none yet."""
        try:
            return open(self.path, "rb")
        except OSError:
            return None

    def create(self, header):
        with open(self.path, "wb") as f:
            f.write(header)

    def appender(self):
        return open(self.path, "ab")


class MemoryStorage:
    def __init__(self, capacity=65536):
        self.buf = bytearray(capacity)
        self.size = 0
        self.failing = False  # set to make every write fail as a broken flash would (EIO)

    def bytes(self):
        return bytes(self.buf[:self.size])

    def reader(self):
        return BytesIO(self.bytes()) if self.size else None

    def create(self, header):
        self.size = 0
        self._append(header)

    def appender(self):
        return _Appender(self)

    def _append(self, data):
        if self.failing:
            raise OSError(5)
        end = self.size + len(data)
        if end > len(self.buf):
            raise OSError(_ENOSPC)
        self.buf[self.size:end] = data
        self.size = end


class _Appender:
    def __init__(self, storage):
        self.storage = storage

    def write(self, data):
        self.storage._append(data)
        return len(data)

    def flush(self):
        pass

    def close(self):
        pass
