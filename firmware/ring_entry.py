"""The write-ahead ring's entries (firmware/ring.py): how a segment header or a frame is packed into a page of the
ring, and read back. docs/journal-format.md gives the layout.

A frame's entry holds the bytes of its record's body that differ from the previous one's: its seq, link and CRC are
the shoe's to recompute, from the chain, and the drain rebuilds the very frame the Journal wrote
(journal.Frame). Each sector's first entry states seq, chain and body in full, so that a sector is read alone.
"""

import struct

from firmware.compat import const
from firmware.journal import Frame, header_chain
from firmware.layout import BODY_AT, BODY_SIZE, FRAME_SIZE, HEADER_SIZE, SEQ_AT

SECTOR = const(4096)  # what one erase clears: the ring's unit of laps
PAGE = const(256)  # what one program writes: the page's image, 0xFF (left as it is) but for the entry
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
_ZERO_BODY = bytes(BODY_SIZE)


def length(page, at):
    """The length of the entry that starts at `at` in the page, or 0 when none can: 0xFF (padding, the end) or a
    length past the page's end (a torn entry)."""
    if at + 3 > PAGE:
        return 0
    kind = page[at + 2] >> 4
    if kind == DELTA:
        mask = page[at] | page[at + 1] << 8 | (page[at + 2] & 0xF) << 16
        size = DELTA_FIXED
        while mask:
            size += mask & 1
            mask >>= 1
    elif kind == ANCHOR:
        size = ANCHOR_ENTRY
    elif kind == HEADER:
        size = HEADER_ENTRY
    else:
        return 0
    return size if at + size <= PAGE else 0


def payload(kind):
    """The bytes an entry of that kind stands for in its segment."""
    return HEADER_SIZE if kind == HEADER else FRAME_SIZE


def pack_header(entry, header):
    """A segment header's entry into entry (HEADER_ENTRY bytes), less its CRC; returns its length."""
    entry[0] = 0
    entry[1] = 0
    entry[2] = HEADER << 4
    for i in range(HEADER_SIZE):
        entry[3 + i] = header[i]
    return HEADER_ENTRY


def pack_delta(entry, frame, mask):
    """A frame's delta entry: the mask, then the body bytes it names; returns its length, CRC included."""
    entry[0] = mask & 0xFF
    entry[1] = mask >> 8 & 0xFF
    entry[2] = mask >> 16
    at = 3
    for i in range(BODY_SIZE):
        if mask >> i & 1:
            entry[at] = frame[BODY_AT + i]
            at += 1
    return at + 4


def pack_anchor(entry, frame, segment, offset, chain):
    """A frame's anchor entry: its segment, offset, seq, the chain before it and its body; returns its length."""
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


class Entry:
    """An entry as a walk through the ring decodes it: its kind, segment and offset in the segment, the record's
    seq, frame (body always; link, chain and CRC when rebuilt) or the header."""

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
            self.at += payload(self.kind)
            self.seq += 1
            if rebuild:
                self.chain = self.frame.link(self.seq, self.chain)
        else:
            return False  # a delta with no anchor before it in the walk: not written so, never read so
        self.kind = kind
        self.based = True
        return True
