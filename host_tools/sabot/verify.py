"""`sabot log verify`: the approver's check of a journal's integrity and of the rules it shows (H-VERIFY)."""

import json
import sys
from pathlib import Path

from boards.sim.devkey import DEVELOPMENT_KEY
from sabot.journalfile import Reader, Unusable, load_segments
from sabot.rules import ARTICLES, Rules


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


def check(paths, key):
    """(segments, reader, findings sorted by seq) for a journal; Unusable when it cannot be read at all."""
    segments = load_segments(paths)
    reader = Reader(segments, key)
    rules = Rules()
    for record in reader:
        rules.feed(record)
    findings = sorted(reader.findings + rules.findings, key=lambda f: f.seq)
    return segments, reader, findings


def verify(paths, key_file, as_json, out=sys.stdout):
    try:
        key = read_key(key_file)
        segments, reader, findings = check(paths, key)
    except Unusable as e:
        print("sabot log verify: error: %s" % e, file=sys.stderr)
        return 2
    ok = not findings
    intact = not any(f.id == "J-TAMPER" for f in findings)
    development = key == DEVELOPMENT_KEY
    if as_json:
        json.dump({"ok": ok, "records": reader.records, "intact": intact,
                   "key": "development" if development else "provided",
                   "findings": [{"id": f.id, "article": ARTICLES[f.id], "seq": f.seq, "message": f.message}
                                for f in findings]}, out)
        out.write("\n")
        return 0 if ok else 1
    first = segments[0]
    out.write("journal: sabot %d, firmware %s, %d segment(s), %d records (seq %d to %d)\n" % (
        first.sabot, first.firmware.rstrip(b"\0").decode("ascii", "replace"), len(segments), reader.records,
        reader.first_seq, reader.seq))
    if development:
        out.write("key: the DEVELOPMENT key, which signs the simulator's and the tests' journals, never a "
                  "casino shoe's\n")
    out.write("integrity: %s\n" % ("intact: framing, CRCs, SHA-256 chain, HMAC tags, sequence and time order"
                                   if intact else "BROKEN"))
    for f in findings:
        out.write("  seq %-7d %-9s (%s) %s\n" % (f.seq, f.id, ARTICLES[f.id], f.message))
    out.write("result: %s\n" % ("clean" if ok else "%d finding(s)" % len(findings)))
    return 0 if ok else 1
