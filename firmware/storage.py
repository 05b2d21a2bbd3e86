"""Journal segments as files in a folder: on a board's littlefs, in the sim, on the virtual board alike."""

import os

_SUFFIX = ".sbj"
_POINTER = 4  # bytes of a littlefs block pointer


def _ones(n):
    count = 0
    while n:
        count += n & 1
        n >>= 1
    return count


def _trailing_zeros(n):
    count = 0
    while not n & 1:
        count += 1
        n >>= 1
    return count


def block_room(size, block_size):
    """Bytes a littlefs file of that size takes before its last block is full: an append that fills it leaves
    nothing for the next one to copy (littlefs copies a partial last block into a new one, an erase). A file's
    block i > 0 starts with ctz(i) + 1 pointers back (littlefs v2's CTZ skip-list, lfs_ctz_index)."""
    index = 0
    if size:
        off = size - 1
        data = block_size - 2 * _POINTER
        index = off // data
        if index:
            index = (off - _POINTER * (_ones(index - 1) + 2)) // data
            off -= data * index + _POINTER * _ones(index)
        if off + 1 < block_size:
            return block_size - off - 1
        index += 1
    return block_size - _POINTER * (_trailing_zeros(index) + 1) if index else block_size


def segment_name(segment):
    return "%08d%s" % (segment, _SUFFIX)


class FileStorage:
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

    def create(self, segment, header):
        """Atomically: written under a temporary name, then renamed (atomic on littlefs and POSIX)."""
        temporary = self.folder + "/new.tmp"
        with open(temporary, "wb") as f:
            f.write(header)
        os.rename(temporary, self._path(segment))

    def appender(self, segment):
        return open(self._path(segment), "ab")

    def free(self):
        stat = os.statvfs(self.folder)
        return stat[0] * stat[4]

    def block_size(self):
        return os.statvfs(self.folder)[0]
