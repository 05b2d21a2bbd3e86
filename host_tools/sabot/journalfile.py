"""Reads journal segments on the host and checks their integrity: framing, CRCs, the SHA-256 chain, the HMAC
tags, sequence continuity and time order (J-TAMPER). Written apart from the firmware's writer, so that one
bug cannot hide itself (tests/host/test_keys.py checks the HMAC against CPython's hmac); the format's numbers
come from firmware.journal.
"""

import copy
import struct
from binascii import crc32
from hashlib import sha256
from pathlib import Path

from firmware import journal as fmt

FRAME = struct.Struct("<BBI" + fmt.BODY[1:] + "%ds%dsI" % (fmt.LINK_SIZE, fmt.TAG_SIZE))
HEADER = struct.Struct(fmt.HEADER)
# Indexes in a record's fields, which follow fmt.FIELDS.
(TYPE, SECONDS, MS, SEANCE, TAILLE, COUP, POSITION, CARD, DISPOSITION, CONDITION, CODE) = range(len(fmt.FIELDS))


class Unusable(Exception):
    """Input that is not a journal this tool can read: exit status 2."""


class Segment:
    def __init__(self, path, data):
        self.path = path
        self.data = data
        fields = HEADER.unpack_from(data, 0)
        (_, self.version, self.header_size, self.sabot, self.number, self.key_id, self.firmware,
         self.previous_chain, self.previous_valid, self.seq_before) = fields
        self.snapshot = data[fmt.HEADER_FIXED:fmt.HEADER_FIXED + fmt.SNAPSHOT_SIZE]


class Record:
    __slots__ = ("seq", "fields", "segment", "offset")

    def __init__(self, seq, fields, segment, offset):
        self.seq = seq
        self.fields = fields
        self.segment = segment
        self.offset = offset

    @property
    def time_ms(self):
        """Milliseconds since 2020-01-01 UTC."""
        return self.fields[SECONDS] * 1000 + self.fields[MS]


class Finding:
    def __init__(self, rid, seq, message):
        self.id = rid
        self.seq = seq
        self.message = message


def load_segments(paths):
    """Segments from files and folders of *.sbj, in segment order; Unusable when a file is not a journal."""
    files = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(path.glob("*.sbj"))
            if not found:
                raise Unusable("%s: no journal segments (*.sbj) in this folder" % path)
            files += found
        elif path.exists():
            files.append(path)
        else:
            raise Unusable("%s: no such file or folder" % path)
    segments = []
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as e:
            raise Unusable("%s: %s" % (path, e.strerror)) from None
        if not data:
            raise Unusable("%s: empty file" % path)
        if data[:3] != fmt.MAGIC:
            raise Unusable("%s: not a sabot journal (it does not start with SBJ)" % path)
        if data[3] != fmt.VERSION:
            raise Unusable("%s: journal format version %d; this verifier reads version %d" % (
                path, data[3], fmt.VERSION))
        if len(data) < fmt.HEADER_SIZE:
            raise Unusable("%s: cut short inside its header (%d bytes)" % (path, len(data)))
        segments.append(Segment(path, data))
    segments.sort(key=lambda s: s.number)
    return segments


class Reader:
    """Walks the segments once, yielding records and collecting integrity findings."""

    def __init__(self, segments, key):
        self.segments = segments
        self.key = key
        self.key_id = fmt.Key(key).id
        # HMAC-SHA256 (RFC 2104) with the padded key's states made once: three times quicker per record than
        # hmac.digest(), which keys anew each call.
        padded = (sha256(key).digest() if len(key) > 64 else key).ljust(64, b"\0")
        self._inner = sha256(bytes(b ^ 0x36 for b in padded))
        self._outer = sha256(bytes(b ^ 0x5C for b in padded))
        self.findings = []
        self.records = 0
        self.first_seq = 0
        self.seq = 0  # the last record's
        self.chain = fmt.NO_CHAIN
        self.last_time = 0
        self.previous = None  # the last segment read
        self.valid = 0  # its length up to the end of its last intact frame
        self.broken = False  # whether its chain broke
        self.torn = 0  # bytes after its last intact frame

    def _finding(self, seq, message):
        self.findings.append(Finding("J-TAMPER", seq, message))

    def _tag(self, chain):
        inner = self._inner.copy()
        inner.update(chain)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()[:fmt.TAG_SIZE]

    def __iter__(self):
        for segment in self.segments:
            yield from self.read(segment)
        self.finish()

    def checkpoint(self):
        """A copy of this reader's progress, to go on from here with other segments (tests use it to check
        many journals that share their first segments without reading those again)."""
        other = copy.copy(self)
        other.findings = list(self.findings)
        return other

    def finish(self):
        if self.torn:
            self._finding(self.seq, "journal truncated: %d bytes after seq %d are not a whole record" % (
                self.torn, self.seq))

    def read(self, segment):
        """Check one segment, after those already read, and yield its records."""
        data = segment.data
        name = segment.path.name
        previous = self.previous
        if crc32(memoryview(data)[:fmt.HEADER_CRC_AT]) != struct.unpack_from("<I", data, fmt.HEADER_CRC_AT)[0]:
            self._finding(self.seq, "%s: segment header altered (CRC)" % name)
        if segment.key_id != self.key_id:
            self._finding(self.seq, "%s: written under another key (key id %s)" % (name, segment.key_id.hex()))
        header_chain = sha256(segment.previous_chain + data[:fmt.HEADER_TAG_AT]).digest()
        if self._tag(header_chain) != data[fmt.HEADER_TAG_AT:fmt.HEADER_CRC_AT]:
            self._finding(self.seq, "%s: segment header fails its HMAC" % name)
        if previous is None:
            if segment.number != 1 or segment.seq_before != 0:
                self._finding(segment.seq_before, "%s: the journal's first segments are missing (segment %d, "
                              "after seq %d)" % (name, segment.number, segment.seq_before))
        else:
            if segment.number != previous.number + 1:
                self._finding(self.seq, "%s: segments %d to %d are missing" % (
                    name, previous.number + 1, segment.number - 1))
            if segment.seq_before != self.seq or (segment.previous_chain != self.chain and not self.broken):
                self._finding(self.seq, "%s: does not continue segment %s (records removed or replaced)" % (
                    name, previous.path.name))
            if segment.previous_valid != self.valid:
                self._finding(self.seq, "%s: segment %s was %d bytes long when this one began, now %d" % (
                    name, previous.path.name, segment.previous_valid, self.valid))
        chain = header_chain
        seq = segment.seq_before
        broken = False
        last_time = self.last_time
        end = len(data)
        offset = fmt.HEADER_SIZE
        view = memoryview(data)
        # The loop below runs once a record, millions of times for a year's journal: names are bound locally.
        unpack, frame_size, crc_at, tag_at, link_size = FRAME.unpack_from, fmt.FRAME_SIZE, fmt.CRC_AT, fmt.TAG_AT, \
            fmt.LINK_SIZE
        inner, outer, tag_size, sync, body_size = self._inner, self._outer, fmt.TAG_SIZE, fmt.SYNC, fmt.BODY_SIZE
        fields_end = 3 + len(fmt.FIELDS)
        while offset + frame_size <= end:
            frame = unpack(data, offset)
            if frame[0] != sync or frame[1] != body_size or crc32(view[offset:offset + crc_at]) != frame[-1]:
                if offset + frame_size < end:
                    self._finding(seq + 1, "%s: record at byte %d altered (CRC)" % (name, offset))
                    broken = True
                    offset += frame_size
                    seq += 1
                    continue
                break  # a torn last frame: judged at the journal's end, or by the next segment's header
            frame_seq = frame[2]
            if frame_seq != seq + 1:
                self._finding(frame_seq, "sequence jumps from %d to %d: records removed, duplicated or "
                              "reordered" % (seq, frame_seq))
            if not broken and frame[-3] != chain[:link_size]:
                self._finding(frame_seq, "chain broken before seq %d: a record removed, inserted or "
                              "reordered; records after it in %s cannot be authenticated" % (frame_seq, name))
                broken = True
            chain = sha256(chain + data[offset:offset + tag_at]).digest()
            if not broken:
                h = inner.copy()
                h.update(chain)
                mac = outer.copy()
                mac.update(h.digest())
                if mac.digest()[:tag_size] != frame[-2]:
                    self._finding(frame_seq, "record seq %d fails its HMAC: altered or forged" % frame_seq)
                    broken = True
            fields = frame[3:fields_end]
            time = fields[SECONDS] * 1000 + fields[MS]
            if time < last_time:
                self._finding(frame_seq, "time goes back at seq %d" % frame_seq)
            last_time = time
            seq = frame_seq
            self.records += 1
            if not self.first_seq:
                self.first_seq = seq
            yield Record(seq, fields, segment, offset)
            offset += frame_size
        valid = offset  # the end of the last whole frame
        self.seq = seq
        self.chain = chain
        self.last_time = last_time
        self.valid = valid
        self.broken = broken
        self.torn = end - valid  # in a middle segment, its successor's header must declare it
        self.previous = segment
