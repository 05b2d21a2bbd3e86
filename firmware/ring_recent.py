"""What the protocol's reads ask of the journal's ring (firmware/ring.py), kept as the ring is written: each segment's
end in the ring, and the newest frames of the segment being written. Without them every read walked the ring's
undrained entries, a littlefs block's worth between two drains (some 2 ms an entry on the emulated Pico): a pit
following the shoe, which reads the segments' sizes and the bytes since its last read after each record, held the
loop 120 to 180 ms a read by the fourth coup, and a croupier's draw waited for it (issue 34)."""

from firmware.compat import const
from firmware.layout import FRAME_SIZE, HEADER_SIZE
from firmware.ring_entry import payload

RECENT_FRAMES = const(16)  # 608 bytes: a pit's read (508 bytes, the 8 it holds already first) of the newest frames
_HELD = const(608)  # RECENT_FRAMES frames of FRAME_SIZE bytes (a constant of this module's own for the compiler)


class Recent:
    """The ring's answers kept: ends (segment: the end of its entries in the ring, walked once a power-up, then
    kept by each program; emptied once the archive holds everything) and the newest frames of segment, from
    first to end (offsets in the segment), each at (offset - HEADER_SIZE) % _HELD of frames."""

    def __init__(self):
        self.ends = None  # type: dict | None  # None: not walked since the power-up or the journal set aside
        self.frames = bytearray(_HELD)
        self.segment = -1
        self.first = 0
        self.end = 0

    def walked(self, ring):
        """{segment: the end of its entries the archive lacks}, the ring walked if they are not kept."""
        ends = self.ends
        if ends is None:
            ends = {}
            for _, entry in ring.undrained():
                end = entry.at + payload(entry.kind)
                if end > ends.get(entry.segment, 0):
                    ends[entry.segment] = end
            self.ends = ends
        return ends

    def forget(self):
        """The ring erased under them (its journal set aside): walked again when next asked."""
        self.ends = None
        self.segment = -1

    def created(self, segment):
        """A segment's header programmed: its frames come next."""
        ends = self.ends
        if ends is not None:
            ends[segment] = HEADER_SIZE
        self.segment = segment
        self.first = self.end = HEADER_SIZE

    def appended(self, segment, at, frame):
        """A frame programmed at offset at of segment: kept, the oldest one let go. A card's path: no allocation."""
        ends = self.ends
        end = at + FRAME_SIZE
        if ends is not None:
            ends[segment] = end
        if segment != self.segment or at != self.end:
            self.segment = segment
            self.first = at
        frames = self.frames
        base = (at - HEADER_SIZE) % _HELD
        for i in range(FRAME_SIZE):
            frames[base + i] = frame[i]
        self.end = end
        if end - self.first > _HELD:
            self.first = end - _HELD

    def read(self, segment, offset):
        """The segment's bytes from offset to its end when they are all kept here, else None."""
        if segment != self.segment or offset < self.first or offset > self.end:
            return None
        frames = self.frames
        at = (offset - HEADER_SIZE) % _HELD
        stop = at + self.end - offset
        if stop <= _HELD:
            return bytes(frames[at:stop])
        return bytes(frames[at:]) + bytes(frames[:stop - _HELD])
