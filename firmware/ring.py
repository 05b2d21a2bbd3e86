"""The journal's write-ahead ring on a raw flash partition: every segment header and frame the Journal writes is
one page program into sectors erased beforehand, so no erase lies between a card request and the gate; between
coups, tidy() drains what waits into the segment files of the archive (a FileStorage on littlefs), a littlefs
block at a time, and erases the sector ahead. docs/journal-format.md gives the layout; firmware/ring_entry.py the
entries.

It is a store the Journal writes through, with FileStorage's methods (firmware/storage.py's Segments): its segments
are the archive's, each followed by what the ring holds of it and the archive does not yet. The Journal hands it each
frame with the chain before it, from which the ring rebuilds the frames it drains or reads. The
partition is a block device of the extended protocol (`rp2.Flash(start=..., len=...)`, `esp32.Partition`):
readblocks(block, buf, offset), writeblocks(block, buf, offset) without erasing, ioctl(6, block) to erase one sector.
"""

import struct
from binascii import crc32

from firmware.compat import const
from firmware.journal import chained, header_chain
from firmware.layout import BODY_AT, BODY_SIZE, CRC_RESIDUE, FRAME_SIZE, HEADER_SIZE, LINK_AT
from firmware.lfs_blocks import block_room
from firmware.ring_ends import ERASED_PAGE, find_ends, written
from firmware.ring_entry import (
    ANCHOR_ENTRY,
    DELTA_FIXED,
    HEADER,
    HEADER_ENTRY,
    PAGE,
    SECTOR,
    Entry,
    length,
    pack_anchor,
    pack_delta,
    pack_header,
    payload,
)
from firmware.ring_recent import Recent

DRAIN_PIECE = const(4)  # entries a loop's drain walks a pass (tidy(True)): some 10 ms on the emulated Pico, and writes
DRAIN_BLOCKS = const(2)  # littlefs blocks a drain between coups fills: each drain commits the file's metadata
LOW_ROOM = const(2048)  # the next sector is erased between coups once less than this is left in the current one
_ZERO_BODY = bytes(BODY_SIZE)
_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_ERASE = const(6)
_EIO = const(5)
_ENOSPC = const(28)


class RingStorage:
    """Segments as the Journal sees them: the archive's files, continued by the ring's undrained entries."""

    def __init__(self, flash, archive):
        self.flash = flash
        self.archive = archive
        self.sectors = flash.ioctl(_IOCTL_BLOCK_COUNT, 0)
        self.size_bytes = self.sectors * SECTOR
        self._page = bytearray(ERASED_PAGE)  # the image a program writes: made once, the card's path allocates none
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
        self._draining = None  # a drain a loop carries out a piece a pass (tidy(True)): _drain()'s generator
        self._torn = 0  # bytes of an entry the power cut as it was programmed, found at power-up
        self._open = -1  # the segment an appender writes, and the offset of its next frame
        self._offset = 0
        self.recent = Recent()  # the segments' ends and the newest frames, as the protocol's reads ask them
        self.pos = 0  # where the next entry goes; tail: the oldest the archive lacks; room: pos's sector erased ahead
        self.tail = 0
        self.room = False
        find_ends(self)  # firmware/ring_ends.py: the three, and the rest, read off the partition

    # Reading the partition.

    def _next(self, pos, step):
        pos += step
        return 0 if pos >= self.size_bytes else pos

    def _walk(self, start, count, rebuild=False):
        """(position, entry) of each intact entry in the count bytes of ring from start, a sector's start; stops at
        an erased page. A torn entry is skipped with the rest of its page."""
        entry = Entry()
        page = entry.page
        checked = memoryview(page)
        pos = start
        while count > 0:
            at = pos % PAGE
            if at == 0:
                self.flash.readblocks(pos // SECTOR, page, pos % SECTOR)
                if page == ERASED_PAGE:
                    return
            size = length(page, at)
            if size and crc32(checked[at:at + size]) == CRC_RESIDUE and entry.decode(at, rebuild):
                yield pos, entry
            step = size if size else PAGE - at
            count -= step
            pos = self._next(pos, step)

    def _archived(self):
        """(segment, size) of the archive's last segment: entries that end within it or before it are drained."""
        segments = self.archive.segments()
        if not segments:
            return 0, 0
        return segments[-1], self.archive.size(segments[-1])

    def undrained(self, rebuild=False, per=0):
        """(position, entry) of each intact entry the archive lacks, oldest first; with rebuild, each frame's link
        and the chain after it (firmware/ring_entry.Entry). per: (None, None) after each per entries walked, those
        the archive holds too (the walk starts at the sector's start): a loop's pause."""
        if self.tail == self.pos:
            return
        start = self.tail - self.tail % SECTOR
        last, stored = self._archived()
        walked = 0
        for pos, entry in self._walk(start, (self.pos - start) % self.size_bytes, rebuild):
            walked += 1
            if walked == per:
                walked = 0
                yield None, None
            if entry.segment > last or entry.segment == last and entry.at + payload(entry.kind) > stored:
                yield pos, entry

    # The store's interface (firmware/storage.py's Segments).

    def torn(self):
        """Bytes of the entry a power cut tore, found at power-up: its record is lost, and recovery says so."""
        return self._torn

    def segments(self):
        found = self.archive.segments()
        for segment in self.recent.walked(self):
            if segment not in found:
                found.append(segment)  # its header is in the ring: the archive has none of it yet
        return sorted(found)

    def size(self, segment):
        size = self.archive.size(segment) if segment in self.archive.segments() else 0
        return max(size, self.recent.walked(self).get(segment, 0))

    def reader(self, segment):
        from firmware.ring_reader import Reader  # a pull's or a receipt's: never loaded on a card's path

        return Reader(self, segment)

    def create(self, segment, data):
        """The header's entry, one page program, atomic as the archive's rename: whole and checked or torn; then any
        frames after it in data (a recovery's records), one program each."""
        self._place(HEADER_ENTRY)
        self._program(pack_header(self._entry, data))
        self.recent.created(segment)
        self._base[:] = _ZERO_BODY
        self._open = segment
        self._offset = HEADER_SIZE
        self.waiting += HEADER_SIZE
        if len(data) > HEADER_SIZE:
            chain = header_chain(data)
            frames = memoryview(data)
            for at in range(HEADER_SIZE, len(data), FRAME_SIZE):
                frame = frames[at:at + FRAME_SIZE]
                self.append(segment, frame, chain)
                chain = chained(chain, frame[BODY_AT:LINK_AT])

    def append(self, segment, frame, chain):
        """One page program a frame: durable when it returns. The body's bytes that differ from the last one's, or
        all of it where a sector starts: its anchor, with chain, the chain value before the frame."""
        if segment != self._open:
            self._open = segment
            self._offset = self.size(segment)
        base = self._base
        mask = 0
        size = DELTA_FIXED
        for i in range(BODY_SIZE):
            if frame[BODY_AT + i] != base[i]:
                mask |= 1 << i
                size += 1
        self._place(size if self._anchored else ANCHOR_ENTRY)
        if self._anchored:
            pack_delta(self._entry, frame, mask)
        else:  # the sector's first frame: in full
            size = pack_anchor(self._entry, frame, segment, self._offset, chain)
        self._program(size)
        self.recent.appended(segment, self._offset, frame)
        for i in range(BODY_SIZE):
            base[i] = frame[BODY_AT + i]
        self._offset += FRAME_SIZE
        self.waiting += FRAME_SIZE

    def close(self):
        """An orderly stop (a technician's, before pull-log): everything goes to the archive."""
        self.drain()

    def set_aside(self):
        """Before the archive's folder is kept aside whole (a new element or number, firmware/remote.py): everything
        drained into it, then every sector written erased, so that the journal begun next, in an empty archive,
        takes none of the entries for its own. A power cut before the folder moves leaves
        that journal whole in it, as the ring's entries are drained."""
        self.drain()
        for sector in range(self.sectors):
            if written(self, sector * SECTOR):
                self._erase(sector)
        find_ends(self)
        self.recent.forget()
        self.waiting = 0
        self._open = -1

    def free(self):
        """What the archive can still take, less what waits in the ring; the ring's own room if smaller: a frame
        takes less of it than its 54 bytes (a delta entry 27 at most, and less than that left at a page's end)."""
        room = self.size_bytes - 2 * SECTOR - (self.pos - self.tail) % self.size_bytes
        return min(self.archive.free() - self.waiting, room)

    # Writing the ring.

    def _place(self, size):
        """Moves to where an entry of that length goes: the next page if it does not fit in this one's rest, into
        the next sector if need be (its first entry then an anchor)."""
        pos = self.pos
        rest = PAGE - pos % PAGE
        if size > rest:
            pos = self._next(pos, rest)
            if pos % SECTOR == 0:
                self.room = False
        self.pos = pos
        if self.room:
            return
        self._enter(pos // SECTOR)
        self._anchored = False

    def _program(self, size):
        """The entry's CRC-32, then the page's image programmed, 0xFF but for the entry."""
        entry = self._entry
        if size == HEADER_ENTRY:
            checked = self._header_checked
        elif size == ANCHOR_ENTRY:
            checked = self._anchor_checked
        else:
            checked = self._checked[size - DELTA_FIXED]
        struct.pack_into("<I", entry, size - 4, crc32(checked))
        pos = self.pos
        at = pos % PAGE
        page = self._page
        for i in range(size):
            page[at + i] = entry[i]
        try:
            failed = self.flash.writeblocks(pos // SECTOR, page, pos % SECTOR - at)
        finally:
            for i in range(size):
                page[at + i] = 0xFF
        if failed:
            raise OSError(_EIO)
        self._anchored = True
        self._torn = 0  # a later entry written: the torn one was reported at the power-up that found it
        self.pos = self._next(pos, size)
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

    def tidy(self, piece=False):
        """Between coups: drain a littlefs block's worth once it waits (all of it once half the ring is taken),
        then erase the next sector once the current one is nearly full, unless it holds something undrained. piece:
        a loop's pass of it (firmware/checkpoint_hook.py): DRAIN_PIECE entries of a drain of one block, its file
        kept open from one pass to the next, or the erase; True when it did one, a later call may find more due."""
        if piece and self._draining is not None:
            try:
                next(self._draining)
            except StopIteration:
                self._draining = None
            return True
        taken = (self.pos - self.tail) % self.size_bytes
        whole = 2 * taken > self.size_bytes - 2 * SECTOR
        if piece:
            if self._due(whole, 1):
                self._draining = self._drain(whole, 1, DRAIN_PIECE)
                return True
        else:
            self.drain(whole, None if whole else DRAIN_BLOCKS)
        if self.erased:
            return False
        current = self.pos // SECTOR
        if self.room and SECTOR - self.pos % SECTOR >= LOW_ROOM:
            return False
        sector = (current + 1) % self.sectors if self.room else current
        if self.tail != self.pos and sector == self.tail // SECTOR:
            return False
        self._erase(sector)
        self.erased = 1
        return True

    def _blocks_room(self, size, blocks):
        """Bytes that fill the littlefs blocks a drain between coups writes, from a file of that size."""
        block = self.archive.block_size()
        room = 0
        for _ in range(blocks):
            room += block_room(size + room, block)
        return room

    def _due(self, whole, blocks):
        """Whether a drain has something to copy: anything when whole, else blocks' worth of the last file's blocks."""
        if self.tail == self.pos:
            return False
        return whole or self.waiting >= self._blocks_room(self._archived()[1], blocks)

    def drain(self, whole=True, blocks=None):
        """Copies the undrained entries into the archive's segments, frames rebuilt: all of them (blocks None), or
        just what fills blocks of the last file's littlefs blocks, once that much waits unless whole, so that no drain
        leaves a partial block for the next to copy (the frame the block ends in is drained in two parts). A drain a
        loop began in pieces is closed first: what it wrote is the archive's, and this one goes on from there."""
        draining = self._draining
        if draining is not None:
            self._draining = None
            draining.close()
        if blocks is not None and not self._due(whole, blocks):
            return
        for _ in self._drain(whole, blocks, 0):
            pass

    def _drain(self, whole, blocks, per):
        """drain() as a generator: it yields after each per entries walked (0: never), its file open meanwhile. Entries
        the archive already holds (a drain closed half-way, a power cut after a write) are skipped by its size, so the
        ring's tail, moved only at the end, is never ahead of the archive."""
        if self.tail == self.pos:
            return
        archive = self.archive
        last, stored = self._archived()
        room = -1 if blocks is None else self._blocks_room(stored, blocks)
        stream = None
        current = -1
        tail = self.pos
        try:
            for pos, entry in self.undrained(True, per):
                if pos is None:
                    yield
                    continue
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
                    room = -1 if blocks is None else self._blocks_room(HEADER_SIZE, blocks)
                    continue
                if stream is None or segment != current:
                    if stream:
                        stream.flush()
                        stream.close()
                    stream = archive.appender(segment)
                    current = segment
                skip = stored - entry.at if segment == last and stored > entry.at else 0
                end = FRAME_SIZE if room < 0 or FRAME_SIZE - skip <= room else skip + room
                stream.write(memoryview(entry.frame.buf)[skip:end])
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
            self.recent.ends = {}  # the archive holds every segment whole
