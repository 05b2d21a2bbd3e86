"""A segment of the journal's write-ahead ring read back (firmware/ring.py's RingStorage.reader): the archive's file,
then the ring's entries after it, frames rebuilt. Loaded by a pull or a receipt alone."""

from firmware.ring_entry import HEADER


class Reader:
    """A segment's bytes: the archive's file, then the ring's entries after it, frames rebuilt."""

    def __init__(self, ring, segment):
        self.segment = segment
        self.at = 0
        self.recent = ring.recent
        self.kept = None  # the bytes from seek()'s offset to the segment's end, when the ring keeps them in RAM
        self.base = 0
        archive = ring.archive
        self.stored = archive.size(segment) if segment in archive.segments() else 0
        self.file = archive.reader(segment) if self.stored else None
        self.entries = ring.undrained(True)
        self.entry = None  # (offset, payload bytes) of the ring entry being read

    def read(self, count):
        buf = bytearray(count)
        return bytes(buf[:self.readinto(buf)])

    def seek(self, offset):
        """The next read from offset, as a file's seek (a protocol's chunk): the newest frames from what the ring keeps
        (firmware/ring_recent.py), else the archive's file sought and the ring's entries before offset walked."""
        self.kept = self.recent.read(self.segment, offset)
        self.base = self.at = offset
        if self.file is not None and offset < self.stored:
            self.file.seek(offset)
        return offset

    def readinto(self, buf):
        kept = self.kept
        if kept is not None:
            part = kept[self.at - self.base:self.at - self.base + len(buf)]
            buf[:len(part)] = part
            self.at += len(part)
            return len(part)
        done = 0
        while done < len(buf):
            file = self.file
            if file is not None and self.at < self.stored:
                got = file.readinto(memoryview(buf)[done:done + min(len(buf) - done, self.stored - self.at)])
                if not got:
                    break
            else:
                got = self._from_ring(memoryview(buf)[done:])
                if not got:
                    break
            done += got
            self.at += got
        return done

    def _from_ring(self, out):
        while self.entry is None or self.entry[0] + len(self.entry[1]) <= self.at:
            found = None
            for _, entry in self.entries:
                if entry.segment == self.segment:
                    found = entry
                    break
            if found is None:
                return 0
            if found.kind == HEADER:
                data = bytes(found.header)
            else:
                data = bytes(found.frame.buf)
            self.entry = (found.at, data)
        offset, data = self.entry
        if offset > self.at:
            return 0
        part = data[self.at - offset:self.at - offset + len(out)]
        out[:len(part)] = part
        return len(part)

    def close(self):
        if self.file:
            self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
