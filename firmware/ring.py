"""The journal's write-ahead ring on a raw flash partition: every segment header and frame the Journal writes is
one page program into sectors erased beforehand, so no erase lies between a card request and the gate; between
coups, tidy() drains what waits into the segment files of the archive (a FileStorage on littlefs), a littlefs
block at a time, and erases the sector ahead. docs/journal-format.md gives the layout.

A frame's entry holds the bytes of its record's body that differ from the previous one's: its seq, link, tag and
CRC are the shoe's to recompute, from the chain and the key, and the drain rebuilds the very frame the Journal wrote
(journal.Frame). Each sector's first entry states seq, chain and body in full, so that a sector is read alone.

It is a storage for Journal, as FileStorage is: its segments are the archive's, each followed by what the ring
holds of it and the archive does not yet. The partition is a block device of the extended protocol
(`rp2.Flash(start=..., len=...)`, `esp32.Partition`): readblocks(block, buf, offset), writeblocks(block, buf,
offset) without erasing, ioctl(6, block) to erase one sector.
"""

import struct
from binascii import crc32

from firmware.compat import const
from firmware.journal import Frame, header_chain
from firmware.layout import BODY_AT, BODY_SIZE, CRC_RESIDUE, FRAME_SIZE, HEADER_SIZE, SEQ_AT

SECTOR = const(4096)
PAGE = const(256)  # what one program writes: the page's image, 0xFF (left as it is) but for the entry
KIND_SHIFT = const(20)  # an entry's first 3 bytes: a bit for each body byte that differs, then the entry's kind
DELTA = const(0)  # a frame: the mask, the body bytes it names, CRC-32
ANCHOR = const(1)  # a frame in full: segment, offset, seq (3, 3, 4 bytes), chain before it, body, CRC-32
HEADER = const(2)  # a segment header: the 182 bytes, CRC-32
DELTA_FIXED = const(7)  # mask and CRC: a delta entry is this and its body bytes
ANCHOR_ENTRY = const(69)
HEADER_ENTRY = const(189)
_ANCHOR_CHAIN = const(13)  # where an anchor's chain and body start
_ANCHOR_BODY = const(45)
_HEADER_SEGMENT = const(8)  # in the header: its segment, and the seq of the record before it
_HEADER_SEQ = const(72)
DRAIN_BLOCKS = const(2)  # littlefs blocks a drain between coups fills: each drain commits the file's metadata
LOW_ROOM = const(2048)  # the next sector is erased between coups once less than this is left in the current one
_ERASED_PAGE = b"\xff" * PAGE
_ZERO_BODY = bytes(BODY_SIZE)
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_ERASE = const(6)
_EIO = const(5)
_ENOSPC = const(28)
_POINTER = const(4)  # bytes of a littlefs block pointer


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


def _length(page, at):
    """The length of the entry that starts at `at` in the page, or 0 when none can: 0xFF (padding, the end) or a
    length past the page's end (a torn entry)."""
    if at + 3 > PAGE:
        return 0
    kind = page[at + 2] >> 4
    if kind == DELTA:
        mask = page[at] | page[at + 1] << 8 | (page[at + 2] & 0xF) << 16
        length = DELTA_FIXED
        while mask:
            length += mask & 1
            mask >>= 1
    elif kind == ANCHOR:
        length = ANCHOR_ENTRY
    elif kind == HEADER:
        length = HEADER_ENTRY
    else:
        return 0
    return length if at + length <= PAGE else 0


def _payload(kind):
    return HEADER_SIZE if kind == HEADER else FRAME_SIZE


class _Entry:
    """An entry as a walk through the ring decodes it: its kind, segment and offset in the segment, the record's
    seq, frame (body always; link, chain and tag when rebuilt) or the header."""

    def __init__(self):
        self.page = bytearray(PAGE)
        self.frame = Frame()
        self.header = bytearray(HEADER_SIZE)
        self.kind = -1
        self.segment = 0
        self.at = 0
        self.seq = 0
        self.chain = None  # the chain value after this entry, when the walk rebuilds frames
        self.based = False  # a sector's anchor or header has been read: deltas can be decoded

    def decode(self, at, rebuild):
        """The entry at `at` in the page, checked by its CRC-32, after the one decoded before it."""
        page = self.page
        kind = page[at + 2] >> 4
        body = self.frame.body
        if kind == HEADER:
            header = self.header
            header[:] = page[at + 3:at + 3 + HEADER_SIZE]
            self.segment = struct.unpack_from("<I", header, _HEADER_SEGMENT)[0]
            self.at = 0
            self.seq = struct.unpack_from("<I", header, _HEADER_SEQ)[0]
            body[:] = _ZERO_BODY  # the segment's first frame is told against zeros
            if rebuild:
                self.chain = header_chain(header)
        elif kind == ANCHOR:
            self.segment = page[at + 3] | page[at + 4] << 8 | page[at + 5] << 16
            self.at = page[at + 6] | page[at + 7] << 8 | page[at + 8] << 16
            self.seq = struct.unpack_from("<I", page, at + 9)[0]
            body[:] = page[at + _ANCHOR_BODY:at + _ANCHOR_BODY + BODY_SIZE]
            if rebuild:
                self.chain = self.frame.link(self.seq, bytes(page[at + _ANCHOR_CHAIN:at + _ANCHOR_BODY]))
        elif self.based:
            mask = page[at] | page[at + 1] << 8 | (page[at + 2] & 0xF) << 16
            src = at + 3
            for i in range(BODY_SIZE):
                if mask >> i & 1:
                    body[i] = page[src]
                    src += 1
            self.at += _payload(self.kind)
            self.seq += 1
            if rebuild:
                self.chain = self.frame.link(self.seq, self.chain)
        else:
            return False  # a delta with no anchor before it in the walk: not written so, never read so
        self.kind = kind
        self.based = True
        return True


class RingStorage:
    """Segments as the Journal sees them: the archive's files, continued by the ring's undrained entries."""

    def __init__(self, flash, archive):
        self.flash = flash
        self.archive = archive
        self.sectors = flash.ioctl(_IOCTL_BLOCK_COUNT, 0)
        self.size_bytes = self.sectors * SECTOR
        self._page = bytearray(_ERASED_PAGE)  # the image a program writes: made once, the card's path allocates none
        self._entry = bytearray(HEADER_ENTRY)
        view = memoryview(self._entry)
        self._checked = [view[:n] for n in range(DELTA_FIXED - 4, DELTA_FIXED - 3 + BODY_SIZE)]  # a CRC's bytes
        self._anchor_checked = view[:ANCHOR_ENTRY - 4]
        self._header_checked = view[:HEADER_ENTRY - 4]
        self._base = bytearray(BODY_SIZE)  # the body the next delta is told against
        self._anchored = False  # the sector being written has an intact anchor or header
        self.erased = 0  # sectors after the one being written known to be erased
        self.late_erases = 0  # sectors erased on demand by a write: the ring had none erased ahead
        self.waiting = 0  # bytes of the archive's segments that the ring holds undrained
        self._open = -1  # the segment an appender writes, and the offset of its next frame
        self._offset = 0
        self._find_ends()

    def attach(self, journal):
        """The Journal on this storage, before it writes or reads: its chain and key rebuild the frames."""
        self.journal = journal

    # Reading the partition.

    def _next(self, pos, length):
        pos += length
        return 0 if pos >= self.size_bytes else pos

    def _walk(self, start, count, rebuild=False):
        """(position, entry) of each intact entry in the count bytes of ring from start, a sector's start; stops at
        an erased page. A torn entry is skipped with the rest of its page."""
        entry = _Entry()
        page = entry.page
        checked = memoryview(page)
        pos = start
        while count > 0:
            at = pos % PAGE
            if at == 0:
                self.flash.readblocks(pos // SECTOR, page, pos % SECTOR)
                if page == _ERASED_PAGE:
                    return
            length = _length(page, at)
            if length and crc32(checked[at:at + length]) == CRC_RESIDUE and entry.decode(at, rebuild):
                yield pos, entry
            step = length if length else PAGE - at
            count -= step
            pos = self._next(pos, step)

    def _first_key(self, sector):
        """(segment, offset) of the sector's first anchor or header, or None when it holds none."""
        for _, entry in self._walk(sector * SECTOR, SECTOR):
            return entry.segment, entry.at
        return None

    def _written(self, start):
        """Bytes of the sector from start up to its first erased page (the whole sector if none is)."""
        page = bytearray(PAGE)
        for at in range(0, SECTOR, PAGE):
            self.flash.readblocks(start // SECTOR, page, at)
            if page != _ERASED_PAGE:
                continue
            return at
        return SECTOR

    def _find_ends(self):
        """At power-up: where the next entry goes, the body it is told against, and the first sector the archive
        lacks entries of. Reads each sector's first entry, then the last sector's entries: bounded by the
        partition's size, not the journal's length."""
        firsts = [self._first_key(s) for s in range(self.sectors)]
        head = -1
        for s in range(self.sectors):
            if firsts[s] is not None and (head < 0 or firsts[s] > firsts[head]):
                head = s
        self.erased = 0  # a sector ahead may have been cut while being erased: erased again before use
        if head < 0:
            self.pos = 0
            self.room = False
            self.tail = 0
            return
        start = head * SECTOR
        written = self._written(start)
        for _, entry in self._walk(start, written):
            self._base[:] = entry.frame.body
        self._anchored = True
        self.pos = start + written if written < SECTOR else self._next(start, SECTOR)
        self.room = self.pos % SECTOR != 0  # the sector pos is in was erased before its first entry: its rest is too
        drained = self._archived()
        tail = head
        for _ in range(self.sectors - 1):
            before = (tail - 1) % self.sectors
            if firsts[tail] <= drained or firsts[before] is None or firsts[before] >= firsts[tail]:
                break
            tail = before
        self.tail = tail * SECTOR
        self.waiting = 0
        first = -1
        for pos, entry in self._undrained():
            if first < 0:
                first = pos
            self.waiting += _payload(entry.kind)
        self.tail = first if first >= 0 else self.pos

    def _archived(self):
        """(segment, size) of the archive's last segment: entries that end within it or before it are drained."""
        segments = self.archive.segments()
        if not segments:
            return 0, 0
        return segments[-1], self.archive.size(segments[-1])

    def _undrained(self, rebuild=False):
        """(position, entry) of each undrained intact entry, oldest first."""
        if self.tail == self.pos:
            return
        start = self.tail - self.tail % SECTOR
        last, stored = self._archived()
        for pos, entry in self._walk(start, (self.pos - start) % self.size_bytes, rebuild):
            if entry.segment > last or entry.segment == last and entry.at + _payload(entry.kind) > stored:
                yield pos, entry

    # The storage interface Journal uses (firmware/storage.py's).

    def segments(self):
        found = self.archive.segments()
        for _, entry in self._undrained():
            if entry.kind == HEADER and entry.segment not in found:
                found.append(entry.segment)
        return sorted(found)

    def size(self, segment):
        size = self.archive.size(segment) if segment in self.archive.segments() else 0
        for _, entry in self._undrained():
            if entry.segment == segment:
                size = max(size, entry.at + _payload(entry.kind))
        return size

    def reader(self, segment):
        return _Reader(self, segment)

    def create(self, segment, header):
        """One page program, the header's entry: atomic as the archive's rename, whole and checked or torn."""
        self._place(HEADER_ENTRY)
        entry = self._entry
        entry[0] = 0
        entry[1] = 0
        entry[2] = HEADER << 4
        entry[3:3 + HEADER_SIZE] = header
        self._program(HEADER_ENTRY)
        self._base[:] = _ZERO_BODY
        self._open = segment
        self._offset = len(header)
        self.waiting += HEADER_SIZE

    def appender(self, segment):
        if segment != self._open:
            self._open = segment
            self._offset = self.size(segment)
        return self

    def write(self, frame):
        """One page program a frame: durable when it returns. The body's bytes that differ from the last one's, or
        all of it where a sector starts."""
        base = self._base
        mask = 0
        length = DELTA_FIXED
        for i in range(BODY_SIZE):
            if frame[BODY_AT + i] != base[i]:
                mask |= 1 << i
                length += 1
        self._place(length if self._anchored else ANCHOR_ENTRY)
        if not self._anchored:  # the sector's first frame: in full
            length = self._anchor(frame)
        else:
            entry = self._entry
            entry[0] = mask & 0xFF
            entry[1] = mask >> 8 & 0xFF
            entry[2] = mask >> 16
            at = 3
            for i in range(BODY_SIZE):
                if mask >> i & 1:
                    entry[at] = frame[BODY_AT + i]
                    at += 1
        self._program(length)
        for i in range(BODY_SIZE):
            base[i] = frame[BODY_AT + i]
        self._offset += FRAME_SIZE
        self.waiting += FRAME_SIZE
        return FRAME_SIZE

    def _anchor(self, frame):
        """The frame's anchor entry: its segment, offset, seq, the chain before it (the journal's) and its body."""
        entry = self._entry
        segment = self._open
        offset = self._offset
        chain = self.journal.chain
        entry[0] = 0
        entry[1] = 0
        entry[2] = ANCHOR << 4
        entry[3] = segment & 0xFF
        entry[4] = segment >> 8 & 0xFF
        entry[5] = segment >> 16 & 0xFF
        entry[6] = offset & 0xFF
        entry[7] = offset >> 8 & 0xFF
        entry[8] = offset >> 16 & 0xFF
        for i in range(4):
            entry[9 + i] = frame[SEQ_AT + i]
        for i in range(32):
            entry[_ANCHOR_CHAIN + i] = chain[i]
        for i in range(BODY_SIZE):
            entry[_ANCHOR_BODY + i] = frame[BODY_AT + i]
        return ANCHOR_ENTRY

    def flush(self):
        pass  # each write is durable already

    def close(self):
        pass  # the appender's: a new segment's header needs no drain

    def settle(self):
        """An orderly stop (a technician's, before pull-log): everything goes to the archive."""
        self.drain()

    def free(self):
        """What the archive can still take, less what waits in the ring; the ring's own room if smaller: a frame
        takes less of it than its 54 bytes (a delta entry 27 at most, and less than that left at a page's end)."""
        room = self.size_bytes - 2 * SECTOR - (self.pos - self.tail) % self.size_bytes
        return min(self.archive.free() - self.waiting, room)

    # Writing the ring.

    def _place(self, length):
        """Moves to where an entry of that length goes: the next page if it does not fit in this one's rest, into
        the next sector if need be (its first entry then an anchor)."""
        pos = self.pos
        rest = PAGE - pos % PAGE
        if length > rest:
            pos = self._next(pos, rest)
            if pos % SECTOR == 0:
                self.room = False
        self.pos = pos
        if self.room:
            return
        self._enter(pos // SECTOR)
        self._anchored = False

    def _program(self, length):
        """The entry's CRC-32, then the page's image programmed, 0xFF but for the entry."""
        entry = self._entry
        if length == HEADER_ENTRY:
            checked = self._header_checked
        elif length == ANCHOR_ENTRY:
            checked = self._anchor_checked
        else:
            checked = self._checked[length - DELTA_FIXED]
        struct.pack_into("<I", entry, length - 4, crc32(checked))
        pos = self.pos
        at = pos % PAGE
        page = self._page
        for i in range(length):
            page[at + i] = entry[i]
        try:
            failed = self.flash.writeblocks(pos // SECTOR, page, pos % SECTOR - at)
        finally:
            for i in range(length):
                page[at + i] = 0xFF
        if failed:
            raise OSError(_EIO)
        self._anchored = True
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
        """Between coups: drain a littlefs block's worth once it waits (all of it once half the ring is taken),
        then erase the next sector once the current one is nearly full, unless it holds something undrained."""
        taken = (self.pos - self.tail) % self.size_bytes
        self.drain(2 * taken > self.size_bytes - 2 * SECTOR)
        if self.erased:
            return
        current = self.pos // SECTOR
        if self.room and SECTOR - self.pos % SECTOR >= LOW_ROOM:
            return
        sector = (current + 1) % self.sectors if self.room else current
        if self.tail != self.pos and sector == self.tail // SECTOR:
            return
        self._erase(sector)
        self.erased = 1

    def _blocks_room(self, size):
        """Bytes that fill the littlefs blocks a drain between coups writes, from a file of that size."""
        block = self.archive.block_size()
        room = 0
        for _ in range(DRAIN_BLOCKS):
            room += block_room(size + room, block)
        return room

    def drain(self, whole=True):
        """Copies the undrained entries into the archive's segments, frames rebuilt: all of them, or just what fills
        the last file's block, once that much waits, so that no drain leaves a partial block for the next to copy
        (the frame the block ends in is drained in two parts)."""
        if self.tail == self.pos:
            return
        archive = self.archive
        last, stored = self._archived()
        room = -1 if whole else self._blocks_room(stored)
        if self.waiting < room:
            return
        key = self.journal.key
        stream = None
        current = -1
        tail = self.pos
        try:
            for pos, entry in self._undrained(True):
                if room == 0:
                    tail = pos  # the blocks filled: the rest waits for the next coup's end
                    break
                segment = entry.segment
                if entry.kind == HEADER:
                    if stream:
                        stream.flush()
                        stream.close()
                        stream = None
                    archive.create(segment, bytes(entry.header))
                    self.waiting -= HEADER_SIZE
                    room = -1 if whole else self._blocks_room(HEADER_SIZE)
                    continue
                if stream is None or segment != current:
                    if stream:
                        stream.flush()
                        stream.close()
                    stream = archive.appender(segment)
                    current = segment
                skip = stored - entry.at if segment == last and stored > entry.at else 0
                end = FRAME_SIZE if room < 0 or FRAME_SIZE - skip <= room else skip + room
                frame = entry.frame
                frame.sign(entry.chain, key)
                stream.write(memoryview(frame.buf)[skip:end])
                self.waiting -= end - skip
                if room > 0:
                    room -= end - skip
                if end < FRAME_SIZE:
                    tail = pos  # its rest goes with the next block
                    break
            if stream:
                stream.flush()
        finally:
            if stream:
                stream.close()
        self.tail = tail
        if tail == self.pos:
            self.waiting = 0


class _Reader:
    """A segment's bytes: the archive's file, then the ring's entries after it, frames rebuilt."""

    def __init__(self, ring, segment):
        self.segment = segment
        self.at = 0
        archive = ring.archive
        self.stored = archive.size(segment) if segment in archive.segments() else 0
        self.file = archive.reader(segment) if self.stored else None
        self.key = ring.journal.key
        self.entries = ring._undrained(True)
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
            for _, entry in self.entries:
                if entry.segment == self.segment:
                    found = entry
                    break
            if found is None:
                return 0
            if found.kind == HEADER:
                data = bytes(found.header)
            else:
                found.frame.sign(found.chain, self.key)
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
