"""The card journal's on-flash format: a header, then one fixed-size frame per record.

docs/journal-format.md describes the bytes. Writing reuses one preallocated frame, so journalling a card
allocates nothing (J-EVERY, J-DURABLE: each frame is flushed before the controller may release again).
"""

import struct
from binascii import crc32

from firmware.compat import const

MAGIC = b"SBJ"
VERSION = const(1)
HEADER = "<3sBHH"  # magic, format version, sabot number, reserved
HEADER_SIZE = const(8)

# Record body: type, time (ms), séance, taille, coup, position in the shoe, card, disposition, condition, code.
BODY = "<BIHHHHBBBH"
BODY_SIZE = const(18)
FIELDS = ("type", "time", "seance", "taille", "coup", "position", "card", "disposition", "condition", "code")

SYNC = const(0xA5)
_SEQ_AT = const(2)
_BODY_AT = const(6)
_CRC_AT = const(24)  # CRC-32 of bytes 1.._CRC_AT: length, sequence number and body
FRAME_SIZE = const(28)


def header(sabot):
    return struct.pack(HEADER, MAGIC, VERSION, sabot, 0)


def pack_body(buf, rtype, time, seance, taille, coup, position, card, disposition, condition, code):
    struct.pack_into(BODY, buf, 0, rtype, time & 0xFFFFFFFF, seance, taille, coup, position, card, disposition,
                     condition, code)


class Writer:
    """Appends records to an open binary stream, one flushed frame each."""

    def __init__(self, stream, seq=0):
        self.stream = stream
        self.seq = seq
        self._frame = bytearray(FRAME_SIZE)
        self._frame[0] = SYNC
        self._frame[1] = BODY_SIZE
        self._checked = memoryview(self._frame)[1:_CRC_AT]

    def append(self, body):
        frame = self._frame
        self.seq += 1
        struct.pack_into("<I", frame, _SEQ_AT, self.seq)
        frame[_BODY_AT:_CRC_AT] = body
        struct.pack_into("<I", frame, _CRC_AT, crc32(self._checked))
        self.stream.write(frame)
        self.stream.flush()


def check_header(data):
    """The sabot number from a journal's first bytes; ValueError if they are not a journal of this format."""
    if len(data) < HEADER_SIZE or data[:3] != MAGIC:
        raise ValueError("not a sabot journal (bad magic)")
    magic, version, sabot, _ = struct.unpack(HEADER, data[:HEADER_SIZE])
    if version != VERSION:
        raise ValueError("journal format version %d is not supported (this firmware reads %d)" % (version, VERSION))
    return sabot


def frame_at(data, offset):
    """(seq, body bytes) of the intact frame at offset, or None where the journal's valid end is."""
    end = offset + FRAME_SIZE
    if end > len(data) or data[offset] != SYNC or data[offset + 1] != BODY_SIZE:
        return None
    mv = memoryview(data)
    if crc32(mv[offset + 1:offset + _CRC_AT]) != struct.unpack_from("<I", data, offset + _CRC_AT)[0]:
        return None
    return struct.unpack_from("<I", data, offset + _SEQ_AT)[0], bytes(mv[offset + _BODY_AT:offset + _CRC_AT])


def records(data):
    """Yield (seq, fields tuple) for each intact frame after the header, up to the valid end."""
    offset = HEADER_SIZE
    while True:
        frame = frame_at(data, offset)
        if frame is None:
            return
        yield frame[0], struct.unpack(BODY, frame[1])
        offset += FRAME_SIZE


def replay(stream, restore):
    """Feed each intact record body to restore(), from a stream just past the header; return the last seq.

    Reads one frame at a time, so a long journal never has to fit in RAM.
    """
    frame = bytearray(FRAME_SIZE)
    seq = 0
    while stream.readinto(frame) == FRAME_SIZE:
        found = frame_at(frame, 0)
        if found is None:
            break
        seq = found[0]
        restore(found[1])
    return seq
