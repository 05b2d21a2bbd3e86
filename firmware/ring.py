"""The journal's write-ahead ring on a raw flash partition: every segment header and frame the Journal writes is
one page program into sectors erased beforehand, so no erase lies between a card request and the gate; between
coups, tidy() drains whole blocks of them into the segment files of the archive (a FileStorage on littlefs) and
erases the sectors ahead. docs/journal-format.md gives the layout.

It is a storage for Journal, as FileStorage is: its segments are the archive's, each followed by what the ring
holds of it and the archive does not yet. The partition is a block device of the extended protocol
(`rp2.Flash(start=..., len=...)`, `esp32.Partition`): readblocks(block, buf, offset), writeblocks(block, buf,
offset) without erasing, ioctl(6, block) to erase one sector.
"""

import struct
from binascii import crc32

from firmware.compat import const
from firmware.journal import CRC_RESIDUE, FRAME_SIZE, HEADER_SIZE

SECTOR = const(4096)
PAGE = const(256)
SLOT = const(64)  # a frame's entry; four a page
HEADER_ENTRY = const(192)  # a segment header's entry, at the start of a page
KEY = const(6)  # segment (3 bytes), offset of the payload in the segment (3 bytes); a header is at offset 0
DRAIN_BYTES = const(16384)  # drained once this much waits: about one archive block a drain
AHEAD = const(2)  # sectors kept erased past the one being written: a coup's records and more
_ERASED = b"\xff" * SLOT
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_ERASE = const(6)
_EIO = const(5)
_ENOSPC = const(28)


def _key(segment, offset):
    return segment << 24 | offset


class RingStorage:
    """Segments as the Journal sees them: the archive's files, continued by the ring's undrained entries."""

    def __init__(self, flash, archive):
        self.flash = flash
        self.archive = archive
        self.sectors = flash.ioctl(_IOCTL_BLOCK_COUNT, 0)
        self.size_bytes = self.sectors * SECTOR
        self._slot = bytearray(HEADER_ENTRY)
        self._view = memoryview(self._slot)
        self._entries = (self._view[:SLOT], self._view[:HEADER_ENTRY])  # made once: the card's path allocates none
        self._checked = (self._view[:SLOT - 4], self._view[:HEADER_ENTRY - 4])
        self.erased = 0  # sectors after the one being written known to be erased
        self.late_erases = 0  # sectors erased on demand by a write: the ring had none erased ahead
        self._open = -1  # the segment an appender writes, and the offset of its next frame
        self._offset = 0
        self._find_ends()

    # Reading the partition: entries, each checked by its CRC-32.

    def _read(self, pos, length):
        """The entry bytes at ring position pos into the slot buffer; returns a view of them."""
        view = self._view[:length]
        self.flash.readblocks(pos // SECTOR, view, pos % SECTOR)
        return view

    def _entry(self, pos):
        """(key, length) of the entry at pos. Key -1: no entry there, `length` bytes to skip (a torn entry, the rest
        of a page a header did not fit in); length 0 too: an erased page, the end."""
        head = self._read(pos, SLOT)
        rest = PAGE - pos % PAGE
        if head == _ERASED:
            return -1, 0 if rest == PAGE else rest
        offset = head[3] | head[4] << 8 | head[5] << 16
        length = HEADER_ENTRY if offset == 0 else SLOT
        if length > rest:
            return -1, rest
        body = self._read(pos, length)
        if crc32(body) != CRC_RESIDUE:  # the entry checked whole: no long int on 32-bit
            return -1, rest
        return _key(body[0] | body[1] << 8 | body[2] << 16, offset), length

    def _next(self, pos, length):
        pos += length
        return 0 if pos >= self.size_bytes else pos

    def _first_key(self, sector):
        """The key of the sector's first intact entry, or -1 when it holds none."""
        pos = sector * SECTOR
        end = pos + SECTOR
        while pos < end:
            key, length = self._entry(pos)
            if key >= 0 or length == 0:
                return key
            pos += length
        return -1

    def _find_ends(self):
        """At power-up: where the next entry goes, and the first one the archive lacks. Reads each sector's first
        entry, then the last sectors' entries: bounded by the partition's size, not the journal's length."""
        firsts = [self._first_key(s) for s in range(self.sectors)]
        head = 0
        for s in range(self.sectors):
            if firsts[s] > firsts[head]:
                head = s
        pos = head * SECTOR
        if firsts[head] >= 0:
            end = pos + SECTOR
            while pos < end:
                length = self._entry(pos)[1]
                if length == 0:
                    break
                pos += length
            if pos >= end:
                pos = self._next(end - SECTOR, SECTOR)
        self.pos = pos
        self.room = pos % SECTOR != 0  # the sector pos is in was erased before its first entry: its rest is too
        self.erased = 0  # a sector ahead may have been cut while being erased: erased again before use
        drained = self._drained_key()
        tail = head
        for _ in range(self.sectors - 1):
            before = (tail - 1) % self.sectors
            if firsts[tail] <= drained or firsts[before] < 0 or firsts[before] >= firsts[tail]:
                break
            tail = before
        self.tail = tail * SECTOR if firsts[tail] >= 0 else self.pos
        self._skip_drained()

    def _archived(self):
        """(segment, size) of the archive's last segment: entries that end within it or before it are drained."""
        segments = self.archive.segments()
        if not segments:
            return 0, 0
        return segments[-1], self.archive.size(segments[-1])

    def _drained_key(self):
        segment, size = self._archived()
        return _key(segment, size)

    def _skip_drained(self):
        """Moves the tail past the entries the archive holds whole."""
        drained = self._drained_key()
        while self.tail != self.pos:
            key, length = self._entry(self.tail)
            if key >= 0 and key + _payload(key) > drained:
                return
            if length == 0:
                self.tail = self.pos
                return
            self.tail = self._next(self.tail, length)

    def _undrained(self):
        """(position, key) of each undrained intact entry, oldest first."""
        pos = self.tail
        while pos != self.pos:
            key, length = self._entry(pos)
            if length == 0:
                return
            if key >= 0:
                yield pos, key
            pos = self._next(pos, length)

    # The storage interface Journal uses (firmware/storage.py's).

    def segments(self):
        found = self.archive.segments()
        for _, key in self._undrained():
            if key & 0xFFFFFF == 0 and key >> 24 not in found:
                found.append(key >> 24)
        return sorted(found)

    def size(self, segment):
        size = self.archive.size(segment) if segment in self.archive.segments() else 0
        for _, key in self._undrained():
            if key >> 24 == segment:
                size = max(size, (key & 0xFFFFFF) + _payload(key))
        return size

    def reader(self, segment):
        return _Reader(self, segment)

    def create(self, segment, header):
        """One page program, the header's entry: atomic as the archive's rename, whole and checked or torn."""
        self._program(segment, 0, header)
        self._open = segment
        self._offset = len(header)

    def appender(self, segment):
        if segment != self._open:
            self._open = segment
            self._offset = self.size(segment)
        return self

    def write(self, frame):
        """One page program a frame: durable when it returns."""
        self._program(self._open, self._offset, frame)
        self._offset += FRAME_SIZE
        return FRAME_SIZE

    def flush(self):
        pass  # each write is durable already

    def close(self):
        pass  # the appender's: a new segment's header needs no drain

    def settle(self):
        """An orderly stop (a technician's, before pull-log): everything goes to the archive."""
        self.drain(0)

    def free(self):
        """What the archive can still take, less what waits in the ring; the ring's own room if smaller."""
        waiting = (self.pos - self.tail) % self.size_bytes * FRAME_SIZE // SLOT
        room = (self.size_bytes - 2 * SECTOR) * FRAME_SIZE // SLOT - waiting
        return min(self.archive.free() - waiting, room)

    # Writing the ring.

    def _program(self, segment, offset, payload):
        length = SLOT if offset else HEADER_ENTRY
        pos = self.pos
        rest = PAGE - pos % PAGE
        if length > rest:  # a header starts a page
            pos = self._next(pos, rest)
            if pos % SECTOR == 0:
                self.room = False
        if not self.room:
            self._enter(pos // SECTOR)
        header = 0 if offset else 1
        slot = self._slot
        for i in range(length):
            slot[i] = 0xFF
        slot[0] = segment & 0xFF
        slot[1] = segment >> 8 & 0xFF
        slot[2] = segment >> 16 & 0xFF
        slot[3] = offset & 0xFF
        slot[4] = offset >> 8 & 0xFF
        slot[5] = offset >> 16 & 0xFF
        for i in range(len(payload)):
            slot[KEY + i] = payload[i]
        struct.pack_into("<I", slot, length - 4, crc32(self._checked[header]))
        self.pos = pos
        if self.flash.writeblocks(pos // SECTOR, self._entries[header], pos % SECTOR):
            raise OSError(_EIO)
        self.pos = self._next(pos, length)
        self.room = self.pos % SECTOR != 0

    def _enter(self, sector):
        """The write moves into sector: erased ahead of need, or erased now if it holds nothing undrained. The
        sector before the oldest undrained one stays unwritten, so that the ring's ends never meet when full."""
        if self.tail != self.pos and (self.tail // SECTOR - sector) % self.sectors < 2:
            raise OSError(_ENOSPC)  # never over what the archive does not hold yet: the shoe faults and locks
        if self.erased:
            self.erased -= 1
        else:
            self._erase(sector)
            self.late_erases += 1
        self.room = True

    def _erase(self, sector):
        if self.flash.ioctl(_IOCTL_BLOCK_ERASE, sector):
            raise OSError(_EIO)

    def tidy(self):
        """Between coups: drain when a block's worth waits, then erase the sectors ahead that hold nothing undrained."""
        self.drain(DRAIN_BYTES)
        current = self.pos // SECTOR
        first = current + 1 if self.room else current
        while self.erased < AHEAD:
            sector = (first + self.erased) % self.sectors
            if (sector == self.tail // SECTOR and self.tail != self.pos) or (self.room and sector == current):
                return
            self._erase(sector)
            self.erased += 1

    def drain(self, at_least):
        """Copies the undrained entries into the archive's segments, when at least that many bytes of ring wait."""
        if (self.pos - self.tail) % self.size_bytes < max(at_least, 1):
            return
        archive = self.archive
        last, stored = self._archived()
        stream = None
        current = -1
        try:
            for pos, key in self._undrained():
                segment = key >> 24
                offset = key & 0xFFFFFF
                if segment < last or segment == last and offset + _payload(key) <= stored:
                    continue  # the archive has it already: a drain cut short went that far
                if offset == 0:
                    if stream:
                        stream.flush()
                        stream.close()
                        stream = None
                    archive.create(segment, bytes(self._read(pos, HEADER_ENTRY)[KEY:KEY + HEADER_SIZE]))
                    continue
                if stream is None or segment != current:
                    if stream:
                        stream.flush()
                        stream.close()
                    stream = archive.appender(segment)
                    current = segment
                skip = stored - offset if segment == last and stored > offset else 0
                stream.write(self._read(pos, SLOT)[KEY + skip:KEY + FRAME_SIZE])
            if stream:
                stream.flush()
        finally:
            if stream:
                stream.close()
        self.tail = self.pos


def _payload(key):
    return HEADER_SIZE if key & 0xFFFFFF == 0 else FRAME_SIZE


class _Reader:
    """A segment's bytes: the archive's file, then the ring's entries after it."""

    def __init__(self, ring, segment):
        self.ring = ring
        self.segment = segment
        self.at = 0
        archive = ring.archive
        self.stored = archive.size(segment) if segment in archive.segments() else 0
        self.file = archive.reader(segment) if self.stored else None
        self.entries = ring._undrained()
        self.entry = None  # (offset, payload bytes) of the ring entry being read

    def read(self, count):
        buf = bytearray(count)
        return bytes(buf[:self.readinto(buf)])

    def readinto(self, buf):
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
            for pos, key in self.entries:
                if key >> 24 == self.segment:
                    found = (pos, key)
                    break
            if found is None:
                return 0
            offset = found[1] & 0xFFFFFF
            size = _payload(found[1])
            self.entry = (offset, bytes(self.ring._read(found[0], KEY + size)[KEY:]))
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
