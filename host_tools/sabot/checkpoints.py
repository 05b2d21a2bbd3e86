"""The shoe's signed checkpoints (docs/journal-format.md, "Checkpoints") checked on the host with its secure element's
public key alone: every entry's CRC, its sabot number, counters that go up one at a time (or skip values that the
shoe's own records between the two entries say were spent with no entry: a power cut during a checkpoint, the
element failing to sign one: R_ELEMENT), each entry's chain value against the chain recomputed from the journal's
own bytes at its segment and sequence number, each entry's hash of the one before it (entry versions 2 and 3,
journal format 5), and every entry's ECDSA signature (version 3: the chip's own, over its counter as it read it,
sabot.attested) (issue 37: an earlier entry rewritten, its CRC made good, is caught by
its own signature), checked in C without the GIL in a thread a core (sabot._frames.PublicKey, some 23 us each), one
by one with pyca/cryptography when an entry is said. Written from the format's description, never the firmware's
code; the offsets are firmware/checkpoints.py's, as every reader's."""

import bisect
import hashlib
import os
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from firmware import layout as fmt
from firmware.format import checkpoint as cp
from firmware.journal import NO_CHAIN
from sabot import _frames, attested, element, openings
from sabot.element import NotEnrolled, read_public_key, registry_keys, two_keys  # noqa: F401 (others' names)
from sabot.journalfile import Finding

REASONS = {cp.BOOT: ("power-up", "mise sous tension"),
           cp.RECOVERY: ("recovery", "reprise"),
           cp.COUP_END: ("coup end", "fin de coup"),
           cp.SEANCE: ("séance", "séance"),
           cp.PULL: ("pull", "relevé"),
           cp.BEGUN: ("journal begun", "journal commencé"),
           cp.ALARM: ("alarm", "alarme"),
           cp.AUTHORITY: ("authority change", "changement d'autorité"),
           cp.OPENING: ("coup opened", "ouverture de coup")}


class Layout:
    """An entry version's bytes: its fields' struct format, size, the bytes vouched for (after cp.LABEL), where
    R || S are (the CRC-32 is the last 4 bytes); version 2 and 3 (journal format 5) hold the hash of the entry before
    it, 1 (format 4) not; version 3 is the chip's own signature over its counter (its RandOut and configuration bytes
    between the signed bytes and R || S), 1 and 2 signatures of the digest."""

    def __init__(self, version, entry, size, signed, signature_at):
        self.version, self.entry, self.size, self.signed = version, entry, size, signed
        self.signature_at = signature_at

    def fields(self, data):
        return struct.unpack_from(self.entry, data, 0) + ((None,) if self.version == 1 else ())

    def digest(self, data, counter):
        """What the element's signature of an entry (its bytes data, its counter) is over."""
        vouched = hashlib.sha256(cp.LABEL + bytes(data[:self.signed])).digest()
        if self.version < cp.VERSION:
            return vouched
        chip = data[cp.CHIP_AT:cp.CHIP_AT + attested.CHIP]
        return attested.digest(vouched, counter, data[cp.RAND_AT:cp.CHIP_AT], chip)


V3 = Layout(cp.VERSION, cp.ENTRY, cp.SIZE, cp.SIGNED, cp.SIGNATURE_AT)
V2 = Layout(cp.EXTERNAL, cp.ENTRY, cp.EXTERNAL_SIZE, cp.SIGNED, cp.EXTERNAL_SIGNATURE_AT)
V1 = Layout(1, "<BBHIII32s", 116, 48, 48)
LAYOUTS = {1: V1, 2: V2, 3: V3}
# The journal's format: the versions of its checkpoint entries (format 5: 3 by a part with an internal-sign key, 2 by
# one without; a file holds one version, its first byte's)
JOURNAL_ENTRIES = {4: (1,), 5: (2, 3)}
# Entries from which the element's key has its multiples precomputed (sabot._frames.PublicKey): some 35 ms once,
# then 23 us a signature instead of 65.
PRECOMPUTED_FROM = 1024


class Entry:
    __slots__ = ("index", "data", "version", "reason", "sabot", "counter", "segment", "seq", "chain", "previous",
                 "layout")

    def __init__(self, index, data, fields=None, layout=V3):
        self.index = index  # 1 for the file's first
        self.data = data
        self.layout = layout
        (self.version, self.reason, self.sabot, self.counter, self.segment, self.seq,
         self.chain, self.previous) = fields or layout.fields(data)

    def intact(self):
        """Its CRC-32 over the bytes before it: the whole entry's CRC is then the residue (firmware/layout.py)."""
        return zlib.crc32(self.data) == fmt.CRC_RESIDUE

    def signed_by(self, key):
        """Its signature checked with pyca/cryptography (sabot.element), apart from the C core's."""
        at = self.layout.signature_at
        return element.verifies(key, self.layout.digest(self.data, self.counter), self.data[at:at + 64])


class Result:
    """What verify says of a journal's checkpoints: checked (a public key given) or not, the entries (Entry, or a
    checkpoint File's whole entries when they are all in line) and the records after the last one."""

    def __init__(self, checked, entries=(), after=None, torn=0, explained=0):
        self.checked = checked
        self.entries = entries if isinstance(entries, File) else list(entries)
        self.after = after  # records after the last checkpoint (None without one)
        self.torn = torn
        self.explained = explained  # counter values skipped between entries that the shoe's R_ELEMENT records cover

    def counted_after(self, counter, seq):
        """The entries counted after counter that end at seq or before: those a receipt of that counter and seq must
        not be ahead of (sabot.receipts). In a File in line, a few from the one after counter, seqs going up."""
        entries = self.entries
        if isinstance(entries, File):  # counters never going back (a coup's end repeats its opening's)
            at = bisect.bisect_right(range(len(entries)), counter, key=entries.counter)
            while at < len(entries) and entries.seqs[at] <= seq:
                yield entries[at]
                at += 1
            return
        for entry in entries:
            if entry.counter > counter and entry.seq <= seq:
                yield entry

    def as_json(self):
        if not self.checked:
            return {"checked": False}
        last = self.entries[-1] if self.entries else None
        return {"checked": True, "count": len(self.entries),
                "counters": [self.entries[0].counter, last.counter] if last else None,
                "last_seq": last.seq if last else None, "records_after": self.after,
                "explained_gaps": self.explained}


class File:
    """A journal's checkpoint file, its whole entries walked by the C core (sabot._frames.entries: some 200,000 for
    a million cards): how many are in line from the first, and the segment, seq and chain value each names; an
    entry read as an Entry when asked (a sequence of them)."""

    def __init__(self, data, layout=None):
        """layout: the entries' version (V1, V2, V3), the first byte's when not given."""
        self.data = memoryview(data)
        self.layout = layout or LAYOUTS.get(data[0] if data else cp.VERSION, V3)
        self.count, self.in_line, segments, seqs, self.chains = _frames.entries(data, self.layout.version)
        self.segments = memoryview(segments).cast("I")
        self.seqs = memoryview(seqs).cast("I")
        self.torn = len(data) - self.count * self.layout.size

    def __len__(self):
        return self.count

    def counter(self, i):
        at = i * self.layout.size + 4
        return int.from_bytes(self.data[at:at + 4], "little")

    def __getitem__(self, i):
        i = range(self.count)[i]  # an IndexError past the ends, as a list's
        size = self.layout.size
        return Entry(i + 1, self.data[i * size:(i + 1) * size], layout=self.layout)

    def entries(self):
        """Every whole entry, read one by one (what is not in line)."""
        return [self[i] for i in range(self.count)]

    def unsigned(self, key):
        """The indexes (0 for the first) of the whole entries whose signature is not key's, checked in C in a
        thread a core (sabot._frames.PublicKey.unsigned leaves Python's lock), the key's multiples precomputed
        once for a file of many."""
        key = _frames.PublicKey(element.xy(key), self.count >= PRECOMPUTED_FROM)
        workers = max(1, min(os.cpu_count() or 1, self.count // 512 or 1))
        bounds = [self.count * i // workers for i in range(workers + 1)]
        data = self.data[:self.count * self.layout.size]
        if workers == 1:
            found = [key.unsigned(data, self.layout.version, 0, self.count)]
        else:
            with ThreadPoolExecutor(workers) as pool:
                found = list(pool.map(lambda at: key.unsigned(data, self.layout.version, bounds[at], bounds[at + 1]),
                                      range(workers)))
        return {i for failed in found for i in memoryview(failed).cast("I")}

    def spans(self):
        """{segment number: (first, end)}: the entries naming each segment, together when all are in line (their
        segments never going back)."""
        found = {}
        at = 0
        while at < self.in_line:
            number = self.segments[at]
            end = bisect.bisect_right(self.segments, number, at, self.in_line)
            found[number] = (at, end)
            at = end
        return found


def read(paths):
    """The checkpoint File of a journal given as one folder; None when it has none."""
    if len(paths) != 1 or not (Path(paths[0]) / cp.FILE).is_file():
        return None
    return File((Path(paths[0]) / cp.FILE).read_bytes())


def wanted(points):
    """{segment number: seqs, ascending} the checkpoints of a File name: the chain values a reading keeps for
    findings() (Reader's wanted). All in line, each segment's entries' seqs as they stand, one a entry."""
    if points is None:
        return {}
    if points.in_line == points.count:
        return {number: points.seqs[first:end] for number, (first, end) in points.spans().items()}
    asked = {}
    for entry in points.entries():
        asked.setdefault(entry.segment, set()).add(entry.seq)
    return {number: sorted(seqs) for number, seqs in asked.items()}


def findings(paths, segments, end_seq, keys, reader, points=None):
    """(Result, J-TAMPER findings) for a journal's checkpoints checked with keys (the shoe's public keys; none: the
    checkpoints are not checked, and verify says so). reader: the Reader of the journal, given wanted(points), whose
    chain values its reading kept. points: the journal's checkpoint File, read again without."""
    if not keys:
        return Result(False), []
    points = points if points is not None else read(paths)
    if points is None:
        return Result(True), [Finding("J-TAMPER", end_seq, "no checkpoint file with the journal, though the shoe's "
                                                           "element signs them: its checkpoints were deleted")]
    if points.count and len(keys) > 1:  # an element replaced: the key that signs the first entry
        keys = [k for k in keys if points[0].signed_by(k)] or keys
    bad = points.unsigned(keys[0])
    if _all_in_line(points, segments, bad, reader):
        return Result(True, points, end_seq - points[-1].seq), openings.unended(points, segments)
    result, found = _one_by_one(points, segments, end_seq, bad, _kept(reader), reader.elements)
    return result, found + openings.unended(result.entries, segments)


def _all_in_line(points, segments, bad, reader):
    """Whether every entry is in line (sabot._frames.entries), of this journal's sabot, the last one signed by its
    element, and each names a chain value the reading of the journal found there: the checkpoints need no more
    reading (a million cards' in a few milliseconds)."""
    if (not points.count or points.in_line != points.count or points.torn or points[0].sabot != segments[0].sabot
            or bad or points.layout.version not in JOURNAL_ENTRIES.get(segments[0].version, ())):
        return False
    by_number = {s.number: s for s in segments}
    for number, (first, end) in points.spans().items():
        segment = by_number.get(number)
        if (segment is None or points.seqs[first] < segment.seq_before
                or reader.chains.get(number) != points.chains[first * fmt.CHAIN_SIZE:end * fmt.CHAIN_SIZE]):
            return False
    return points[0].previous in (None, NO_CHAIN)  # a journal's first entry follows none


def _kept(reader):
    """{seq: chain value} a reading kept (Reader.chains: for each segment, one a seq it was asked), where it reached."""
    kept = {}
    size = fmt.CHAIN_SIZE
    for number, values in reader.chains.items():
        for i, seq in enumerate(reader.wanted[number]):
            if values[i * size:(i + 1) * size] != NO_CHAIN:
                kept[seq] = values[i * size:(i + 1) * size]
    return kept


def _one_by_one(points, segments, end_seq, bad, chains, elements=()):
    """(Result, findings) of a checkpoint File read one entry at a time, each out of line said. bad: the indexes of
    the entries not signed by the shoe's element (File.unsigned); chains: {seq: chain value} a reading kept;
    elements: the journal's R_ELEMENT records, (seq, counter, count, why) in seq order (the rules', State.elements),
    which explain a gap in the counters between the entries around them. An entry not signed vouches for nothing,
    but its counter still places the next one: one rewritten entry is one finding."""
    entries, torn = points.entries(), points.torn
    explain = _Explanations(elements)
    found = []
    sabot = segments[0].sabot
    allowed = JOURNAL_ENTRIES.get(segments[0].version, ())
    version = points.layout.version if points.layout.version in allowed or not allowed else allowed[-1]
    good = []
    previous = None
    before = None  # the entry before this one in the file, whatever it is
    for entry in entries:
        if entry.version != version or not entry.intact():
            found.append(Finding("J-TAMPER", min(entry.seq, end_seq), "checkpoint %d: damaged (CRC)" % entry.index))
            before = entry
            continue
        signed = entry.index - 1 not in bad
        if entry.sabot != sabot or not signed or previous is not None and (
                entry.counter != previous.counter + _counts(previous, entry) and not explain.covers(previous, entry)
                or entry.seq < previous.seq and entry.reason != cp.BEGUN):
            found += _out_of_line(entry, previous, sabot, signed, end_seq, explain)
        if entry.previous is not None and entry.previous != (
                NO_CHAIN if before is None else hashlib.sha256(before.data).digest()):
            found.append(Finding("J-TAMPER", min(entry.seq, end_seq), "checkpoint %d (counter %d) does not hold the "
                                 "hash of the entry before it: %s" % (entry.index, entry.counter, "entries removed, "
                                                                      "inserted or rewritten" if before else
                                                                      "the file's first entries deleted")))
        before = entry
        if entry.sabot == sabot:
            previous = entry
            if signed:
                good.append(entry)
    if torn:
        found.append(Finding("J-TAMPER", end_seq, "the checkpoint file ends in %d bytes that are not a whole entry"
                             % torn))
    found += _against_journal(good, segments, end_seq, chains)
    after = end_seq - good[-1].seq if good else None
    return Result(True, good, after, torn, explain.explained), found


def _counts(previous, entry):
    """What the counter goes up by from previous to entry: nothing for a coup's end right after its opening."""
    return 0 if previous.reason == cp.OPENING and entry.reason == cp.COUP_END and entry.version > 1 else 1


class _Explanations:
    """The shoe's records of counter values spent with no checkpoint (R_ELEMENT), by seq: which gap they cover."""

    def __init__(self, elements):
        self.elements = elements
        self.seqs = [e[0] for e in elements]
        self.explained = 0

    def missing(self, previous, entry):
        """(values between the two entries' counters that no record between their seqs covers, values those records
        name outside them)."""
        low, high = previous.counter + 1, entry.counter - 1
        first = bisect.bisect_right(self.seqs, previous.seq)
        end = bisect.bisect_right(self.seqs, entry.seq)
        spans = sorted((counter - count + 1, counter) for _, counter, count, _ in self.elements[first:end] if count)
        stray = sum(max(0, min(b, low - 1) - a + 1) + max(0, b - max(a, high + 1) + 1) for a, b in spans)
        covered, at = 0, low
        for a, b in spans:
            a, b = max(a, at), min(b, high)
            if a <= b:
                covered += b - a + 1
                at = b + 1
        return high - low + 1 - covered, stray

    def covers(self, previous, entry):
        """Whether the gap between two entries is exactly what the records between them say was spent."""
        if entry.counter <= previous.counter + 1:
            return False
        uncovered, stray = self.missing(previous, entry)
        if uncovered or stray:
            return False
        self.explained += entry.counter - previous.counter - 1
        return True


def _out_of_line(entry, previous, sabot, signed, end_seq, explain=None):
    """What is wrong with an intact entry, said: another sabot's, not signed by the element, or out of line with the
    one before it (its counter or its seq)."""
    what = "checkpoint %d (counter %d)" % (entry.index, entry.counter)
    at = min(entry.seq, end_seq)
    if entry.sabot != sabot:
        return [Finding("J-TAMPER", at, "%s is sabot %d's, not this journal's" % (what, entry.sabot))]
    if not signed:
        return [Finding("J-TAMPER", at, "%s is not signed by the shoe's element: forged or altered" % what)]
    if previous is None:
        return []
    found = []
    if entry.counter < previous.counter + _counts(previous, entry):
        found.append(Finding("J-TAMPER", at, "%s does not follow counter %d: checkpoints put back or reordered" % (
            what, previous.counter)))
    elif entry.counter > previous.counter + _counts(previous, entry):
        uncovered, stray = explain.missing(previous, entry) if explain else (entry.counter - previous.counter - 1, 0)
        if uncovered:
            found.append(Finding("J-TAMPER", at, "%s follows counter %d: %d checkpoint(s) missing%s" % (
                what, previous.counter, uncovered, "" if uncovered == entry.counter - previous.counter - 1 else
                " (of %d the shoe's records say were spent with no checkpoint)" % (
                    entry.counter - previous.counter - 1))))
        if stray:
            found.append(Finding("J-TAMPER", at, "%s follows counter %d: the shoe's records between them say %d "
                                 "counter value(s) outside the gap were spent with no checkpoint" % (
                                     what, previous.counter, stray)))
    if entry.seq < previous.seq and entry.reason != cp.BEGUN:
        found.append(Finding("J-TAMPER", at, "%s goes back to seq %d after seq %d" % (what, entry.seq, previous.seq)))
    return found


def _against_journal(entries, segments, end_seq, chains):
    """Each entry's segment and seq must be in the journal, with the chain value found there (chains: those a
    reading kept, by seq)."""
    found = []
    by_number = {s.number: s for s in segments}
    asked = {}
    for entry in entries:
        if entry.reason == cp.BEGUN and entry.segment == 0:
            if entry.seq != 0 or entry.chain != bytes(fmt.CHAIN_SIZE) or segments[0].seq_before != 0:
                found.append(Finding("J-TAMPER", 0, "checkpoint %d (counter %d) begins a journal this one does "
                                                    "not begin" % (entry.index, entry.counter)))
            continue
        segment = by_number.get(entry.segment)
        if segment is None or entry.seq < segment.seq_before:
            found.append(_not_held(entry, end_seq))
            continue
        asked.setdefault(entry.segment, []).append(entry)
    for wanting in asked.values():
        for entry in wanting:
            chain = chains.get(entry.seq)
            if chain is None:
                found.append(_not_held(entry, end_seq))
            elif chain != entry.chain:
                found.append(Finding("J-TAMPER", entry.seq, "checkpoint %d (counter %d): the chain at seq %d is not "
                                     "the journal's: records altered or replaced" % (
                                         entry.index, entry.counter, entry.seq)))
    return found


def _not_held(entry, end_seq):
    return Finding("J-TAMPER", min(entry.seq, end_seq), "checkpoint %d (counter %d) names segment %d, seq %d, which "
                   "the journal does not hold: records cut or deleted" % (
                       entry.index, entry.counter, entry.segment, entry.seq))
