"""`sabot log verify`: the approver's check of a journal's integrity and of the rules it shows (H-VERIFY)."""

import json
import sys
from pathlib import Path

from firmware.devkey import DEVELOPMENT_KEY
from sabot.journalfile import ALL_TYPES, Reader, Record, Unusable, load_segments
from sabot.rules import ARTICLES, Rules, assignment_findings

DEVELOPMENT_WORDS = ("the DEVELOPMENT key, public, which signs the simulator's and the tests' journals, never a casino "
                     "shoe's: anyone can have written or re-signed this journal")


def read_key(path):
    """A key file holds the shoe's key as hexadecimal text (docs/keys.md); None gives the development key."""
    if path is None:
        return DEVELOPMENT_KEY
    try:
        text = Path(path).read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, UnicodeError, ValueError) as e:
        reason = getattr(e, "strerror", None) or e
        raise Unusable("%s: not a key file (hexadecimal text): %s" % (path, reason)) from None
    if len(key) < 16:
        raise Unusable("%s: a key has at least 16 bytes, this one %d" % (path, len(key)))
    return key


def check(paths, key, records=None):
    """(segments, reader, findings sorted by seq) for a journal; Unusable when it cannot be read at all.
    A list given as records receives every record read, for a caller that shows them (the report)."""
    segments, reader, rules = _check(paths, key, records)
    return segments, reader, sorted(reader.findings + rules.findings, key=lambda f: f.seq)


def _check(paths, key, records=None):
    segments = load_segments(paths)
    reader = Reader(segments, key)
    rules = Rules()
    if records is None:  # the quickest way: only rows, release intents folded into the next (Reader.row_lists)
        for segment, rows, _ in reader.scanned(rules.types, True):
            rules.header(segment.number, segment.snapshot, segment.seq_before)
            rules.fold(rows)
    else:
        for segment, rows, offsets in reader.scanned(ALL_TYPES):
            rules.header(segment.number, segment.snapshot, segment.seq_before)
            for row, offset in zip(rows, offsets):
                rules.feed(row)
                records.append(Record(row, segment, offset))
    reader.finish()
    rules.finish(reader.seq)
    return segments, reader, rules


def journals_of(paths):
    """Each folder is a journal of its own; segment files given one by one make one journal together."""
    folders = [[p] for p in paths if Path(p).is_dir()]
    files = [p for p in paths if not Path(p).is_dir()]
    return folders + ([files] if files else [])


def firmware_name(firmware):
    """The 16 bytes a segment header names its firmware by: a development build's text, or a release's digest."""
    text = firmware.rstrip(b"\0")
    return text.decode() if text and all(32 <= b < 127 for b in text) else "release " + firmware.hex()


def verify(paths, key_file, as_json, same_table=3, out=sys.stdout, allow_development_key=False):
    """Exit status 0 only for a journal with no finding authenticated by a key the user gave, or by the
    development key when allow_development_key says that is what the caller means (the sim's and tests' journals):
    anyone can re-sign a journal with the public development key (H-VERIFY)."""
    try:
        key = read_key(key_file)
        checked = []
        for group in journals_of(paths):
            segments, reader, rules = _check(group, key)
            checked.append((" ".join(map(str, group)), segments, reader, rules))
    except Unusable as e:
        print("sabot log verify: error: %s" % e, file=sys.stderr)
        return 2
    findings = [(label, f) for label, _, reader, rules in checked for f in sorted(
        reader.findings + rules.findings, key=lambda f: f.seq)]
    findings += assignment_findings([(label, segments[0].sabot, rules.seances)
                                     for label, segments, _, rules in checked], same_table)
    intact = not any(f.id == "J-TAMPER" for _, f in findings)
    development = key == DEVELOPMENT_KEY
    ok = not findings and (not development or allow_development_key)
    many = len(checked) > 1
    if as_json:
        json.dump({"ok": ok, "records": sum(c[2].records for c in checked), "intact": intact,
                   "key": "development" if development else "provided",
                   **({"development_key": DEVELOPMENT_WORDS} if development else {}),
                   "findings": [dict({"id": f.id, "article": ARTICLES[f.id], "seq": f.seq, "message": f.message},
                                     **({"journal": label} if many else {})) for label, f in findings]}, out)
        out.write("\n")
        return 0 if ok else 1
    for label, segments, reader, _ in checked:
        first = segments[0]
        out.write("journal%s: sabot %d, firmware %s, %d segment(s), %d records (seq %d to %d)\n" % (
            " " + label if many else "", first.sabot, firmware_name(first.firmware), len(segments), reader.records,
            reader.first_seq, reader.seq))
    if development:
        out.write("key: %s\n" % DEVELOPMENT_WORDS)
    out.write("integrity: %s\n" % ("intact: framing, CRCs, SHA-256 chain, HMAC tags, sequence and time order"
                                   if intact else "BROKEN"))
    for label, f in findings:
        out.write("  %sseq %-7d %-9s (%s) %s\n" % (label + " " if many else "", f.seq, f.id, ARTICLES[f.id],
                                                  f.message))
    if findings:
        result = "%d finding(s)" % len(findings)
    elif not ok:
        result = "not clean: authenticated by the development key only (--key FILE, or --allow-development-key)"
    else:
        result = "clean" + (" (development key allowed)" if development else "")
    out.write("result: %s\n" % result)
    return 0 if ok else 1
