"""Journal segments as files in a folder: on a board's littlefs, in the sim, on the virtual board alike; and the
interface every store of the Journal has (Segments). littlefs's block arithmetic, which the ring's drains follow,
is firmware/lfs_blocks.py: a shoe without the ring never loads it (the sim's shoe fits a 65 KB heap)."""

import os

from firmware.compat import const

_TYPE_CHECKING = const(0)  # mypy's alone (typecheck/mypy.ini): MicroPython's compiler drops the block, and its names
if _TYPE_CHECKING:
    from typing import Any  # noqa: F401 (read by the type comment below)

_SUFFIX = ".sbj"


def segment_name(segment):
    """A segment's file name, the same on the shoe and in a pulled folder."""
    return "%08d%s" % (segment, _SUFFIX)


class Segments:
    """What the Journal asks of every store, the same methods on each: segments(), size(), reader(), free(),
    create(segment, data), append(segment, frame, chain), torn(), tidy(), close(). A store of files gives
    appender(segment), a file opened to append; firmware/ring.py's RingStorage the same methods over its partition."""

    _stream = None  # type: Any  # the file appended to, and its segment
    _open = -1

    def appender(self, segment):
        """The segment's file opened to append to: a store of files gives it; the ring appends otherwise."""
        raise NotImplementedError

    def append(self, segment, frame, chain):
        """One frame at the segment's end, durable when it returns. chain: the chain value before it, which a file
        holds in the frame's link already."""
        if segment != self._open:
            self.close()
            self._stream = self.appender(segment)
            self._open = segment
        stream = self._stream
        stream.write(frame)
        stream.flush()

    def torn(self):
        """Bytes of a record torn by a power cut that size() does not count: none, a file counts its torn tail."""
        return 0

    def tidy(self, piece=False):
        """Between coups: housekeeping, which files need none of."""
        return False

    def set_aside(self):
        """Before the archive's folder is kept aside whole (a new key or number, firmware/remote.py): files are all
        in it already."""

    def close(self):
        """An orderly stop: the file appended to closed; the next append opens it again."""
        stream = self._stream
        self._stream = None
        self._open = -1
        if stream:
            stream.close()


class FileStorage(Segments):
    def __init__(self, folder):
        self.folder = folder
        try:
            os.mkdir(folder)
        except OSError:
            pass  # already there

    def _path(self, segment):
        return self.folder + "/" + segment_name(segment)

    def segments(self):
        return sorted(int(name[:-4]) for name in os.listdir(self.folder)
                      if name.endswith(_SUFFIX) and name[:-4].isdigit())

    def size(self, segment):
        return os.stat(self._path(segment))[6]

    def reader(self, segment):
        return open(self._path(segment), "rb")

    def create(self, segment, data):
        """A segment's header and any frames after it, atomically: written under a temporary name, then renamed
        (atomic on littlefs and POSIX)."""
        temporary = self.folder + "/new.tmp"
        with open(temporary, "wb") as f:
            f.write(data)
        os.rename(temporary, self._path(segment))

    def appender(self, segment):
        return open(self._path(segment), "ab")

    def free(self):
        stat = os.statvfs(self.folder)
        return stat[0] * stat[4]

    def block_size(self):
        return os.statvfs(self.folder)[0]
