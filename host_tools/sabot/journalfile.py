"""Reads journal segments on the host and checks their integrity: framing, CRCs, the SHA-256 chain, sequence
continuity and time order (J-TAMPER); format 3's HMAC tags too, a format the verifier keeps reading (format 4's
authenticity is the secure element's signed checkpoints, sabot/checkpoints.py). Written apart from the firmware's
writer, so that one bug cannot hide itself (tests/host/test_integrity_core.py checks the C core against hashlib and
CPython's hmac); format 5's numbers come from firmware.layout, format 3's and 4's are in V3 and V4 below.

The frames are checked by sabot._frames, in C: one by one in Python, the interpreter cost a hundred times the
hashing (docs/journal-format.md, "Verifying"). Each segment's header states where its chain starts, so
segments are checked apart, in worker threads, while the caller folds the records of the one before.
"""

import copy
import hmac
import struct
from array import array
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from hashlib import sha256
from pathlib import Path
from zlib import crc32

from firmware import layout as fmt
from firmware.journal import NO_CHAIN
from firmware.mac import Key
from firmware.records import R_BOOT, R_RECOVERY, pack_torn
from sabot import _frames

HEADER = struct.Struct(fmt.HEADER)
# A record as the reader hands it on, a row (sabot._frames builds them): its sequence number, then its body's
# fields, the time as milliseconds since 2020-01-01 UTC.
(SEQ, TYPE, TIME, SEANCE, TAILLE, COUP, POSITION, CARD, DISPOSITION, CONDITION, CODE) = range(len(fmt.FIELDS))
ALL_TYPES = (1 << 64) - 1  # a mask of record types, bit t for type t
_WORKERS = 2  # threads that check frames while the caller folds (on two cores, three measured no quicker)
_BATCH = 32  # segments a worker thread checks a call, taking Python's lock once
_AHEAD = 2  # batches checked ahead of the one being folded
_SEGMENT_MOST = 1 << _frames.PICK_KIND_SHIFT  # bytes: the C core's picks name offsets below it (a shoe's: 200 KB)
ISSUES = {
    _frames.ALTERED: "%(name)s: record at byte %(offset)d altered (CRC)",
    _frames.SEQUENCE: "sequence jumps from %(before)d to %(seq)d: records removed, duplicated or reordered",
    _frames.UNLINKED: "chain broken before seq %(seq)d: a record removed, inserted or reordered; records after it "
                      "in %(name)s cannot be authenticated",
    _frames.FORGED: "record seq %(seq)d fails its HMAC: altered or forged",
    _frames.TIME_BACK: "time goes back at seq %(seq)d",
    _frames.CLOCK_BACK: "the clock went back %(back)sat the power-up of seq %(seq)d: the shoe's clock was reset or set "
                        "back while it was off",
}


class Unusable(Exception):
    """Input that is not a journal this tool can read: exit status 2. fr: its own French words, when it has them
    (a refused registry's, sabot.registry_signatures), else None."""

    fr = None


class Format:
    """What differs between the formats verify reads (docs/journal-format.md): the sizes, and whether frames are
    tagged under a shoe's key (format 3) or only chained, the element signing the chain's head (format 4). The
    header's fixed fields and snapshot, the frame's seq, body and link are where they were."""

    def __init__(self, version, frame_size, header_size, tagged, firmware_more=0):
        self.version = version
        self.frame_size = frame_size
        self.header_size = header_size
        self.header_crc_at = header_size - 4
        self.tagged = tagged
        self.firmware_more = firmware_more  # where the firmware's name goes on past its first 16 bytes (format 5)
        self.chained_to = self.header_crc_at if firmware_more else 162  # C0 hashes the header up to its tag or CRC

    def chained(self, chain, frame):
        """The chain value after a frame: format 4 hashes the body after the chain value before it, format 3 the frame
        up to its tag."""
        if self.tagged:
            return sha256(chain + frame[:fmt.CRC_AT]).digest()
        return sha256(chain + frame[fmt.BODY_AT:fmt.LINK_AT]).digest()


V5 = Format(fmt.VERSION, fmt.FRAME_SIZE, fmt.HEADER_SIZE, False, fmt.FIRMWARE_MORE_AT)
V4 = Format(4, fmt.FRAME_SIZE, 166, False)  # the firmware's name in 16 bytes, cut; CRC-32 at 162
V3 = Format(3, 54, 182, True)  # its tag (16 bytes) at 34 in a frame, at 162 in a header; CRC-32 at 50 and 178
FORMATS = {f.version: f for f in (V3, V4, V5)}
_V3_HEADER_TAG_AT = 162


class Segment:
    def __init__(self, path, data):
        self.path = path
        self.data = data
        fields = HEADER.unpack_from(data, 0)
        (_, self.version, self.header_size, self.sabot, self.number, self.key_id, self.firmware,
         self.previous_chain, self.previous_valid, self.seq_before) = fields
        self.format = FORMATS[self.version]
        more = self.format.firmware_more
        if more:
            self.firmware += data[more:more + fmt.FIRMWARE_SIZE - len(self.firmware)]
        self.snapshot = data[fmt.HEADER_FIXED:fmt.HEADER_FIXED + fmt.SNAPSHOT_SIZE]

    def header_chain(self):
        """The chain value its first record links to: the previous chain and the header's bytes before its tag or
        CRC (0..161; format 5's 0..177), hashed."""
        return sha256(self.previous_chain + self.data[:self.format.chained_to]).digest()

    def chains_at(self, seqs):
        """{seq: chain value after record seq}, for the seqs asked that the segment reaches (its header's for the seq
        before it); one pass over its frames, as far as the greatest asked."""
        size = self.format.frame_size
        data = self.data
        chain = self.header_chain()
        wanted = set(seqs)
        found = {}
        seq = self.seq_before
        if seq in wanted:
            found[seq] = chain
        last = max(wanted, default=seq)
        at = self.format.header_size
        while seq < last and at + size <= len(data):
            chain = self.format.chained(chain, data[at:at + size])
            seq += 1
            at += size
            if seq in wanted:
                found[seq] = chain
        return found

    def body_at(self, i):
        """The body of the segment's frame i (0 for the first), unchecked, or None where no whole frame stands."""
        at = self.format.header_size + i * self.format.frame_size + fmt.BODY_AT
        return self.data[at:at + fmt.BODY_SIZE] if at + fmt.BODY_SIZE <= len(self.data) else None


class Record:
    """A record for those who show it: its row, the segment it is in and its frame's offset there."""

    __slots__ = ("fields", "segment", "offset")

    def __init__(self, fields, segment, offset):
        self.fields = fields
        self.segment = segment
        self.offset = offset

    @property
    def seq(self):
        return self.fields[SEQ]

    @property
    def time_ms(self):
        """Milliseconds since 2020-01-01 UTC."""
        return self.fields[TIME]


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
        elif path.is_file():
            files.append(path)
        elif path.exists():
            raise Unusable("%s: not a regular file (a device or a pipe): give journal segments" % path)
        else:
            raise Unusable("%s: no such file or folder" % path)
    segments = []
    for path in files:
        try:
            if path.stat().st_size >= _SEGMENT_MOST:
                raise Unusable("%s: %d bytes, more than any shoe's segment: not a journal segment" % (
                    path, path.stat().st_size))
            data = path.read_bytes()
        except OSError as e:
            raise Unusable("%s: %s" % (path, e.strerror)) from None
        if not data:
            raise Unusable("%s: empty file" % path)
        if data[:3] != fmt.MAGIC:
            raise Unusable("%s: not a sabot journal (it does not start with SBJ)" % path)
        if data[3] not in FORMATS:
            known = [str(v) for v in sorted(FORMATS)]
            raise Unusable("%s: journal format version %d; this verifier reads versions %s and %s" % (
                path, data[3], ", ".join(known[:-1]), known[-1]))
        if len(data) < FORMATS[data[3]].header_size:
            raise Unusable("%s: cut short inside its header (%d bytes)" % (path, len(data)))
        segments.append(Segment(path, data))
    segments.sort(key=lambda s: s.number)
    if len({s.version for s in segments}) > 1:
        raise Unusable("segments of format versions %s together: give one journal's" % " and ".join(
            str(v) for v in sorted({s.version for s in segments})))
    return segments


class Reader:
    """Walks the segments once, handing on records and collecting integrity findings."""

    def __init__(self, segments, key, wanted=None):
        """key: the shoe's secret, for format 3's tags, whose id its headers must name (format 4's name the element,
        checked against its public key by sabot.verify); wanted: {segment number: seqs, ascending, a seq there as
        often as asked} whose chain values the reading keeps in chains (the checkpoints', sabot.checkpoints), by the
        C core."""
        self.segments = segments
        self.wanted = dict(wanted or {})
        self.chains = {}  # segment number: the chain value after each of its wanted seqs, 32 zero bytes if unreached
        self.elements = []  # the rules' R_ELEMENT records, (seq, counter, count, why), once read (sabot.checkpoints)
        self.format = segments[0].format if segments else V5
        self.key = key
        self.key_id = Key(key).id if self.format.tagged or not segments else segments[0].key_id
        self._checker = _frames.Checker(key if self.format.tagged else None)
        self.findings = []
        self.records = 0
        self.first_seq = 0
        self.seq = 0  # the last record's
        self.chain = NO_CHAIN
        self.last_time = 0
        self.previous = None  # the last segment read
        self.valid = 0  # its length up to the end of its last intact frame
        self.broken = False  # whether its chain broke
        self.torn = 0  # bytes after its last intact frame

    def _finding(self, seq, message, rid="J-TAMPER"):
        self.findings.append(Finding(rid, seq, message))

    def _tag(self, chain):
        """A format 3 header's tag: once a segment, so the standard library's HMAC."""
        return hmac.digest(self.key, chain, "sha256")[:16]

    def __iter__(self):
        for segment, rows, offsets in self.scanned(ALL_TYPES):
            for row, offset in zip(rows, offsets):
                yield Record(row, segment, offset)
        self.finish()

    def picked(self, types):
        """(segment, picks) for each segment in order, the picks of the records whose type's bit is set in types
        (sabot._frames.scan): the quickest way through, what the rules' fold reads (Rules.fold_frames). A release
        intent's pick is folded into the next pick, from PICK_KIND_SHIFT on; no row is built."""
        yield from self._walked(types, True)

    def scanned(self, types):
        """(segment, rows, their frames' offsets) for each segment in order."""
        for segment, picks in self._walked(types, False):
            yield (segment,) + self._rows(segment, picks)

    def _rows(self, segment, picks):
        """(rows, their frames' offsets) of a segment's picks, none of them folded."""
        return _frames.rows(segment.data, picks, self.format.frame_size), memoryview(picks).cast("I")

    def _walked(self, types, merge):
        """(segment, picks) for each segment in order, the frames of the next ones checked meanwhile."""
        segments = self.segments
        with ThreadPoolExecutor(_WORKERS) as pool:
            ahead = deque()
            for at in range(0, len(segments), _BATCH):
                batch = segments[at:at + _BATCH]
                ahead.append((batch, pool.submit(self._scan, batch, types, merge)))
                if len(ahead) > _AHEAD:
                    yield from self._took(*ahead.popleft())
            while ahead:
                yield from self._took(*ahead.popleft())

    def _took(self, batch, scan):
        for segment, scanned in zip(batch, scan.result()):
            yield segment, self._take(segment, scanned)

    def _torn_middle(self, segment):
        """Bytes after a middle segment's last whole record are a tail a power cut tore: the next segment must begin
        with the power-up that cut them, its recovery record saying how many (J-DURABLE); anything else was put
        there after."""
        data = segment.data
        first = self.format.header_size + fmt.BODY_AT
        second = first + self.format.frame_size
        torn = pack_torn(self.torn)
        if (len(data) < second + fmt.BODY_SIZE or data[first] != R_BOOT or data[second] != R_RECOVERY
                or struct.unpack_from("<H", data, second + fmt.BODY_CODE)[0] != torn):
            self._finding(self.seq, "%d bytes after the last record of %s that no recovery at power-up cut: "
                          "appended after it was written" % (self.torn, self.previous.path.name))

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
        rows, offsets = self._rows(segment, self._take(segment, self._scan([segment], ALL_TYPES, False)[0]))
        for row, offset in zip(rows, offsets):
            yield Record(row, segment, offset)

    def _scan(self, segments, types, merge):
        """The checks of segments' frames that need nothing from the segments before them: (the chain value its
        frames start from, the C core's result) for each."""
        chains = [s.header_chain() for s in segments]
        found = self._checker.scan([(s.data, self.format.header_size, chain, s.seq_before,
                                     array("I", self.wanted.get(s.number, ())))
                                    for s, chain in zip(segments, chains)], types, merge)
        return list(zip(chains, found))

    def _take(self, segment, scan):
        """A segment's header against the segments before it, and its frames' issues as findings; its picks."""
        header_chain, (end, seq, chain, broken, records, first_seq, first_ms, last_ms, issues, picks, chains) = scan
        if segment.number in self.wanted:
            self.chains[segment.number] = chains
        data = segment.data
        name = segment.path.name
        previous = self.previous
        crc_at = self.format.header_crc_at
        if crc32(memoryview(data)[:crc_at]) != struct.unpack_from("<I", data, crc_at)[0]:
            self._finding(self.seq, "%s: segment header altered (CRC)" % name)
        if segment.key_id != self.key_id:
            self._finding(self.seq, "%s: written under another key (key id %s)" % (name, segment.key_id.hex()))
        if self.format.tagged and self._tag(header_chain) != data[_V3_HEADER_TAG_AT:crc_at]:
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
            if segment.sabot != previous.sabot:
                self._finding(self.seq, "%s: sabot number %d, where the journal's segments before it are sabot %d" % (
                    name, segment.sabot, previous.sabot), "S-IDENT")
            if self.torn:
                self._torn_middle(segment)
        for what, at, offset, before in issues:
            self._finding(at, ISSUES[what] % {"name": name, "seq": at, "offset": offset, "before": before,
                                              "back": ""}, "J-TIME" if what == _frames.CLOCK_BACK else "J-TAMPER")
        if records:
            if first_ms < self.last_time:
                back = ISSUES[_frames.CLOCK_BACK] % {"seq": first_seq, "back": "%.3f s " % (
                    (self.last_time - first_ms) / 1000)}
                if data[self.format.header_size + fmt.BODY_AT] == R_BOOT:
                    self._finding(first_seq, back, "J-TIME")
                else:
                    self._finding(first_seq, ISSUES[_frames.TIME_BACK] % {"seq": first_seq})
            self.last_time = last_ms
            self.records += records
            self.first_seq = self.first_seq or first_seq
        self.seq = seq
        self.chain = chain
        self.valid = end  # the end of the last whole frame
        self.broken = broken
        self.torn = len(data) - end  # in a middle segment, its successor's header must declare it
        self.previous = segment
        return picks
