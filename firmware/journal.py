"""The card journal on flash: segments of CRC-framed records in a SHA-256 chain, one SHA-256 block a record; the
secure element signs the chain's head between coups (firmware/checkpoints.py), never on a card's path.
docs/journal-format.md describes the bytes; this module writes and recovers them.

A record is flushed before the shell carries out any command (J-DURABLE). Each segment's header holds a
snapshot of the controller, so recovery at boot reads the last segment only, however long the journal.
"""

import struct
from binascii import crc32
from hashlib import sha256

from firmware import layout
from firmware.compat import const
from firmware.layout import BODY_AT, BODY_SECONDS, CRC_AT, LINK_AT, LINK_SIZE, SEQ_AT

# A record's write imports the offsets it uses; the rest of firmware/layout.py is read through the module: on the
# MicroPython VM each imported name is one more global in the heap (H-SIM: a whole shoe in 65 KB).

SEGMENT_RECORDS = const(4096)
RESERVE_BYTES = 64 * layout.FRAME_SIZE  # flash kept free for a coup under way and its faults; no coup starts below
NO_CHAIN = bytes(layout.CHAIN_SIZE)


class JournalError(Exception):
    """The journal cannot be read as this format: another file, a newer version, a damaged header."""


def chained(chain, data):
    """The chain value after data: SHA-256 of the previous value and the data."""
    h = sha256(chain)
    h.update(data)
    return h.digest()


def pack_body(buf, rtype, seance, taille, coup, position, card, disposition, condition, code):
    """The controller's side of a body; the journal stamps the time when it writes it."""
    struct.pack_into(layout.BODY, buf, 0, rtype, 0, 0, seance, taille, coup, position, card, disposition, condition,
                     code)


def parse_header(data):
    """The header's fields as a tuple (HEADER's, then the snapshot bytes), or JournalError."""
    if len(data) < 4 or data[:3] != layout.MAGIC:
        raise JournalError("not a sabot journal (no SBJ magic)")
    if data[3] != layout.VERSION:
        raise JournalError("journal format version %d; this reads version %d" % (data[3], layout.VERSION))
    if len(data) < layout.HEADER_SIZE:
        raise JournalError("journal header cut short")
    if crc32(memoryview(data)[:layout.HEADER_SIZE]) != layout.CRC_RESIDUE:
        raise JournalError("journal header damaged (CRC)")
    snapshot = data[layout.HEADER_FIXED:layout.HEADER_FIXED + layout.SNAPSHOT_SIZE]
    fields = struct.unpack_from(layout.HEADER, data, 0)
    more = layout.FIRMWARE_MORE_AT
    firmware = fields[6] + bytes(data[more:more + layout.FIRMWARE_SIZE - 16])  # its 32 bytes (format 5)
    return fields[:6] + (firmware,) + fields[7:] + (bytes(snapshot),)


def header_chain(data):
    """The chain value a segment's records start from: its previous chain and its header, CRC excluded."""
    previous = data[layout.PREVIOUS_CHAIN_AT:layout.PREVIOUS_CHAIN_AT + layout.CHAIN_SIZE]
    return chained(bytes(previous), memoryview(data)[:layout.HEADER_CRC_AT])


class Frame:
    """A frame's buffer and the views that seal it, made once: the journal's appends and the ring's rebuilt frames
    (firmware/ring.py) are the same bytes by the same code."""

    def __init__(self):
        self.buf = bytearray(layout.FRAME_SIZE)
        self.buf[0] = layout.SYNC
        self.buf[1] = layout.BODY_SIZE
        self.body = memoryview(self.buf)[BODY_AT:LINK_AT]  # a view a record would allocate on 32-bit
        self._to_crc = memoryview(self.buf)[:CRC_AT]

    def link(self, seq, previous):
        """Sets the frame's seq and link to the chain before it, and its CRC-32; returns the chain value after it,
        SHA-256 of the one before and the body (52 bytes: one block)."""
        frame = self.buf
        struct.pack_into("<I", frame, SEQ_AT, seq)
        at = LINK_AT  # a local: an imported offset is a global, looked up at each use; a const once folded
        for i in range(LINK_SIZE):  # byte by byte: a slice would be a new object a record
            frame[at + i] = previous[i]
        struct.pack_into("<I", frame, CRC_AT, crc32(self._to_crc))
        return chained(previous, self.body)


class Journal:
    """The shoe's journal: recovers at boot, then appends one flushed frame a record."""

    def __init__(self, storage, key, sabot, firmware, wall, segment_records=SEGMENT_RECORDS):
        """key: what vouches for the journal, named by its id (8 bytes) in every header: the secure element's
        public key on a board (firmware/checkpoints.py's ElementKey), the development key on the sim."""
        self.storage = storage
        self.key = key
        self.sabot = sabot
        self.firmware = bytes(firmware) + bytes(layout.FIRMWARE_SIZE - len(firmware))  # 32 bytes: the build's name
        self.wall = wall  # the board's clock: its stamp() sets its seconds (since 2020-01-01 UTC) and ms
        self.segment_records = segment_records
        self.segment = 0
        self.records = 0  # in the current segment
        self.seq = 0
        self.chain = NO_CHAIN
        self._open = False  # appends go to the storage: after recover() or reopen(), until close()
        self._staged = None  # a segment recovery begins: its header and the frames after it, created whole by sync()
        self.broken = True  # until recover() has found the journal's end, nothing may be written
        self._sealer = Frame()
        self._frame = self._sealer.buf
        self.body = self._sealer.body  # the last record written, time stamped
        self._link = memoryview(self._frame)[LINK_AT:CRC_AT]

    def recover(self, ctl, watch=None):
        """Restore ctl from the last segment; cut a torn tail by going on in a new segment, created with the
        power-up's records in it (sync()). Returns the number of bytes cut. Reads one segment, one frame at a time:
        boot time does not grow with the journal. watch: [segment, seq, None, None] of the last checkpoint
        (firmware/checkpoints.py), whose third item gets the chain value at that point when this segment holds it
        (or its header follows it), the fourth the last segment found (0: none)."""
        self.broken = True
        self._staged = None
        segments = self.storage.segments()
        if watch:
            watch[3] = segments[-1] if segments else 0
        if not segments:
            self._start(1, ctl, 0)
            self.broken = False
            return 0
        last = segments[-1]
        with self.storage.reader(last) as stream:
            header = stream.read(layout.HEADER_SIZE)
            fields = parse_header(header)
            if self.key.id is None:
                self.key.id = fields[5]  # no element answering (the shoe locked): the journal keeps its own
            elif fields[5] != self.key.id:
                raise JournalError("journal written under another key")
            if fields[3] != self.sabot:
                raise JournalError("journal of another sabot number")  # remote.number() begins this one's
            self.chain = header_chain(header)
            ctl.load_snapshot(fields[10])
            self.seq = fields[9]
            self.records = 0
            want = -1
            if watch and watch[1] == self.seq and watch[0] == last - 1:
                watch[2] = fields[7]  # the previous segment's end, as this header states it
            elif watch and watch[0] == last:
                want = watch[1]
            frame = self._frame
            if want == self.seq:
                watch[2] = self.chain
            while stream.readinto(frame) == layout.FRAME_SIZE and self._accept():
                ctl.restore(self.body)
                self.records += 1
                if self.seq == want:
                    watch[2] = self.chain
        valid = layout.HEADER_SIZE + self.records * layout.FRAME_SIZE
        cut = self.storage.size(last) - valid + self.storage.torn()
        if cut or fields[6] != self.firmware:
            self._start(last + 1, ctl, valid, True)  # a torn tail stays as it is; new firmware, a new header names it
        else:
            self.segment = last
            self._open = True
        self.broken = False
        return cut

    def _accept(self):
        """Whether the frame read is the next intact record; if so, the chain and seq move on to it. Its CRC and link
        are compared as bytes, through views made once: no long int, no slice of the frame."""
        frame = self._frame
        if frame[0] != layout.SYNC or frame[1] != layout.BODY_SIZE or crc32(frame) != layout.CRC_RESIDUE:
            return False
        if struct.unpack_from("<I", frame, SEQ_AT)[0] != self.seq + 1:
            return False
        if self._link != self.chain[:LINK_SIZE]:
            return False
        self.chain = chained(self.chain, self.body)
        self.seq += 1
        return True

    def due(self):
        """Whether the segment is full: the shell starts a new one before the next event."""
        return self.records >= self.segment_records

    def rotate(self, ctl):
        self._start(self.segment + 1, ctl, layout.HEADER_SIZE + self.records * layout.FRAME_SIZE)

    def free(self):
        return self.storage.free()

    def tidy(self, piece=False):
        """Between coups: the storage's housekeeping (firmware/ring.py drains and erases ahead); piece: one flash
        operation's worth, True when there was one (a loop's pass, firmware/checkpoint_hook.py)."""
        return not self.broken and self.storage.tidy(piece)

    def _start(self, segment, ctl, previous_valid, staged=False):
        self.sync()
        header = bytearray(layout.HEADER_SIZE)
        struct.pack_into(layout.HEADER, header, 0, layout.MAGIC, layout.VERSION, layout.HEADER_SIZE, self.sabot,
                         segment, self.key.id or bytes(8), self.firmware, self.chain, previous_valid, self.seq)
        more = layout.FIRMWARE_MORE_AT
        header[more:more + layout.FIRMWARE_SIZE - 16] = self.firmware[16:]
        ctl.snapshot(memoryview(header)[layout.HEADER_FIXED:layout.HEADER_FIXED + layout.SNAPSHOT_SIZE])
        self.chain = header_chain(header)
        struct.pack_into("<I", header, layout.HEADER_CRC_AT, crc32(memoryview(header)[:layout.HEADER_CRC_AT]))
        self.segment = segment
        self.records = 0
        self._open = True
        if staged:
            self._staged = header
        else:
            self.storage.create(segment, header)  # atomic: a segment exists whole or not at all

    def sync(self):
        """Creates the segment recover() began, its header and the records appended since (the power-up's) in one
        atomic create: a second power cut during recovery leaves all of them or none, never a segment whose first
        records fail to say what the cut before it tore (J-TAMPER, issue 26). Nothing to do otherwise."""
        staged = self._staged
        if staged is None:
            return
        self._staged = None
        try:
            self.storage.create(self.segment, staged)
        except OSError:
            self.broken = True
            raise

    def append(self, body):
        """Write one record and flush it, or stage it with the segment recovery begins until sync(). After a failed
        write nothing more is written until recovery."""
        if self.broken or not self._open:
            raise OSError(5)
        frame = self._frame
        wall = self.wall
        wall.stamp()
        frame[BODY_AT:LINK_AT] = body
        struct.pack_into("<IH", frame, BODY_AT + BODY_SECONDS, wall.seconds, wall.ms)
        chain = self._sealer.link(self.seq + 1, self.chain)
        try:
            if self._staged is None:
                self.storage.append(self.segment, frame, self.chain)
            else:
                self._staged.extend(frame)
        except OSError:
            self.broken = True
            raise
        self.chain = chain
        self.seq += 1
        self.records += 1

    def close(self):
        """An orderly stop: what is staged created, the storage closed (firmware/ring.py drains into the files)."""
        if not self.broken:
            self.sync()
        self._open = False
        self.storage.close()

    def reopen(self):
        """Go on appending after close(), as when a technician's command resumes a stopped shoe."""
        if not self.broken:
            self._open = True
