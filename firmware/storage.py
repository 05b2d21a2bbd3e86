"""Journal segments as files in a folder: on a board's littlefs, in the sim, on the virtual board alike."""

import os

_SUFFIX = ".sbj"
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
