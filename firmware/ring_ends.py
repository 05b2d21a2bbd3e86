"""Where the journal's write-ahead ring (firmware/ring.py) stands at power-up, read off the partition: the next entry's
place, the body it is told against, the bytes a power cut tore, the first sector the archive lacks entries of; and a
sector's written bytes (before the ring's entries are erased when its journal is set aside)."""

from firmware.ring_entry import PAGE, SECTOR, length, payload

ERASED_PAGE = b"\xff" * PAGE  # a page as an erase leaves it


def _first_key(ring, sector):
    """(segment, offset) of the sector's first anchor or header, or None when it holds none."""
    for _, entry in ring._walk(sector * SECTOR, SECTOR):
        return entry.segment, entry.at
    return None


def written(ring, start):
    """Bytes of the sector from start up to its first erased page (the whole sector if none is)."""
    page = bytearray(PAGE)
    for at in range(0, SECTOR, PAGE):
        ring.flash.readblocks(start // SECTOR, page, at)
        if page != ERASED_PAGE:
            continue
        return at
    return SECTOR


def find_ends(ring):
    """At power-up: where the next entry goes, the body it is told against, and the first sector the archive
    lacks entries of. Reads each sector's first entry, then the last sector's entries: bounded by the
    partition's size, not the journal's length."""
    firsts = [_first_key(ring, s) for s in range(ring.sectors)]
    head = -1
    for s in range(ring.sectors):
        if firsts[s] is not None and (head < 0 or firsts[s] > firsts[head]):
            head = s
    ring.erased = 0  # a sector ahead may have been cut while being erased: erased again before use
    if head < 0:
        ring.pos = 0
        ring.room = False
        ring.tail = 0
        return
    start = head * SECTOR
    used = written(ring, start)
    end = start
    for pos, entry in ring._walk(start, used):
        ring._base[:] = entry.frame.body
        end = ring._next(pos, length(entry.page, pos % PAGE))
    ring._torn = _torn_after(ring, end, firsts)
    ring._anchored = True
    ring.pos = start + used if used < SECTOR else ring._next(start, SECTOR)
    ring.room = ring.pos % SECTOR != 0  # the sector pos is in was erased before its first entry: its rest is too
    drained = ring._archived()
    tail = head
    for _ in range(ring.sectors - 1):
        before = (tail - 1) % ring.sectors
        if firsts[tail] <= drained or firsts[before] is None or firsts[before] >= firsts[tail]:
            break
        tail = before
    ring.tail = tail * SECTOR
    ring.waiting = 0
    first = -1
    for pos, entry in ring.undrained():
        if first < 0:
            first = pos
        ring.waiting += payload(entry.kind)
    ring.tail = first if first >= 0 else ring.pos


def _torn_after(ring, end, firsts):
    """Bytes programmed after the last intact entry, which ends at end: an entry the power cut while it was
    programmed, in the rest of end's page or in the next one, where an entry that did not fit went (unless that
    starts a sector that holds entries of its own, an older lap's)."""
    at = end % PAGE
    torn = _programmed(ring, end - at, at) if at else 0
    following = ring._next(end - at, PAGE) if at else end
    if following % SECTOR or firsts[following // SECTOR] is None:
        torn += _programmed(ring, following, 0)
    return torn


def _programmed(ring, start, at):
    """Bytes of the page at start, from at on, that are not erased."""
    page = bytearray(PAGE)
    ring.flash.readblocks(start // SECTOR, page, start % SECTOR)
    return sum(1 for i in range(at, PAGE) if page[i] != 0xFF)
