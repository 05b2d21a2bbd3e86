"""The shoe's receipts (docs/journal-format.md, "Receipts"): its journal's head with a fresh nonce, which `sabot
pull-log` (and `sabot sim`) write into the journal's folder as receipt.json, pull-log with the nonce it issued in
pull.json. Version 2, from a shoe with a secure element, is signed by the element with its counter 0 and checked
with the shoe's public key alone; version 1, from a shoe without one (the sim), is tagged under the shoe's key.
`log verify` checks that the journal ends exactly at the receipt found there, and that it extends each earlier
receipt given (--receipt), and that a receipt with a higher counter does not end before one with a lower: a journal
cut at the end, replayed or rolled back to an older image fails (J-TAMPER). Written from the format's description:
the chain values are recomputed here with hashlib, apart from the frames' checker."""

import hashlib
import hmac
import json
import struct
from pathlib import Path

from firmware.format import checkpoint as cp
from sabot import attested, element
from sabot.journalfile import Finding, Unusable

NAME = "receipt.json"  # in a pulled journal's folder, beside the segments
PULL = "pull.json"  # beside it: the nonce pull-log issued, when and through which port
_DOMAIN = b"sabot receipt\0"
_LABEL = b"sabot receipt 2\0"  # version 2's, signed by the element
_VOUCHED = b"sabot receipt 3\0"  # version 3's, the chip's own signature over its counter
_FIELDS = {1: ("sabot", "key_id", "segment", "seq", "chain", "nonce", "tag"),
           2: ("sabot", "key_id", "segment", "seq", "chain", "nonce", "counter", "signature"),
           3: ("sabot", "key_id", "segment", "seq", "chain", "nonce", "counter", "rand_out", "chip", "signature")}
BY_ELEMENT = (2, 3)  # signed by the element: 3 the chip's own signature over its counter (sabot.attested)
NO_RECEIPT = "no receipt from the shoe: records cut from the end of the journal cannot be ruled out"


class Receipt:
    def __init__(self, label, fields):
        self.label = label
        self.version = fields["receipt"]
        self.sabot, self.segment, self.seq = fields["sabot"], fields["segment"], fields["seq"]
        self.key_id, self.chain, self.nonce = (bytes.fromhex(fields[k]) for k in ("key_id", "chain", "nonce"))
        self.tag = bytes.fromhex(fields["tag"]) if self.version == 1 else None
        self.counter = fields["counter"] if self.version in BY_ELEMENT else None
        self.signature = bytes.fromhex(fields["signature"]) if self.version in BY_ELEMENT else None
        self.rand_out, self.chip = ((bytes.fromhex(fields["rand_out"]), bytes.fromhex(fields["chip"]))
                                    if self.version == 3 else (None, None))
        if self.chip is not None and (len(self.rand_out) != attested.RAND_OUT or len(self.chip) != attested.CHIP):
            raise ValueError("its rand_out is not 32 bytes or its chip not 5")
        if self.counter is not None and (not isinstance(self.counter, int) or not 0 <= self.counter < 1 << 32):
            raise ValueError("its counter is not a 32-bit count")

    def signed_by(self, key):
        """Version 1: whether its tag is the shoe's key's."""
        body = _DOMAIN + self.nonce + struct.pack("<HII", self.sabot, self.segment, self.seq) + self.chain
        return hmac.compare_digest(hmac.new(key, body, hashlib.sha256).digest(), self.tag)

    def signed_by_element(self, public_key):
        """Versions 2 and 3: whether its signature is the element's whose public key is given (3: the chip's own
        message, its counter as the chip read it)."""
        if self.version == 3:  # the counter folded in by the chip, not among the bytes vouched for
            body = _VOUCHED + self.nonce + struct.pack("<HII", self.sabot, self.segment, self.seq) + self.chain
            digest = attested.digest(hashlib.sha256(body).digest(), self.counter, self.rand_out, self.chip)
        else:
            body = (_LABEL + self.nonce + struct.pack("<HIII", self.sabot, self.counter, self.segment, self.seq)
                    + self.chain)
            digest = hashlib.sha256(body).digest()
        return element.verifies(public_key, digest, self.signature)


def load(path):
    """A receipt file, or Unusable."""
    try:
        fields = json.loads(Path(path).read_text(encoding="utf-8"))
        names = _FIELDS.get(fields.get("receipt"), ())
        if not names or any(k not in fields for k in names):
            raise ValueError("not a sabot receipt (%s)" % "; ".join(
                "version %d, fields %s" % (v, ", ".join(names)) for v, names in _FIELDS.items()))
        return Receipt(str(path), fields)
    except (OSError, UnicodeError, ValueError, TypeError, AttributeError) as e:
        raise Unusable("%s: %s" % (path, getattr(e, "strerror", None) or e)) from None


def found_in(paths):
    """The receipt in a journal given as one folder, or None."""
    if len(paths) == 1 and (Path(paths[0]) / NAME).is_file():
        return load(Path(paths[0]) / NAME)
    return None


def issued_in(paths):
    """The nonce pull-log issued for a journal given as one folder (its pull.json), or None without one."""
    if len(paths) != 1 or not (Path(paths[0]) / PULL).is_file():
        return None
    path = Path(paths[0]) / PULL
    try:
        return bytes.fromhex(json.loads(path.read_text(encoding="utf-8"))["nonce"])
    except (OSError, UnicodeError, ValueError, TypeError, KeyError) as e:
        raise Unusable("%s: not pull-log's record of its nonce: %s" % (path, getattr(e, "strerror", None) or e)) \
            from None


def has_checkpoints(paths):
    """Whether a journal given as one folder came with the checkpoints of a shoe with a secure element."""
    return len(paths) == 1 and (Path(paths[0]) / cp.FILE).is_file()


def chain_at(segment, seq):
    """The chain value after record seq in a segment (its header's when seq is the one before it), or None when
    the segment does not reach it."""
    return segment.chains_at((seq,)).get(seq)


def findings(segments, end_seq, key, at_end, earlier, public_keys=(), paths=None, checkpoints=None):
    """J-TAMPER findings: the journal against the receipt found with it (at_end, or None) and earlier ones.
    public_keys: the shoe's element's (version 2's signatures are checked with them; without any, only where the
    receipts stand). paths: the journal's, where its checkpoints (a shoe with an element, whose receipts are
    version 2) and pull-log's pull.json (the nonce it issued) are looked for. checkpoints: the journal's entries
    verified with the public key (sabot.checkpoints.Result), which the receipts' counters order too."""
    found = []
    key_id = hashlib.sha256(b"sabot key id " + key).digest()[:8]
    by_number = {s.number: s for s in segments}
    element_shoe = paths is not None and has_checkpoints(paths)
    issued = issued_in(paths) if paths is not None else None
    signed = []  # version 2's whose signature verified: ordered by counter below
    for receipt, last in ([(at_end, True)] if at_end else []) + [(r, False) for r in earlier]:
        what = "receipt %s (seq %d)" % (receipt.label, receipt.seq)
        if receipt.version == 1 and element_shoe:
            found.append(Finding("J-TAMPER", min(receipt.seq, end_seq), "%s is not signed by the shoe's element, "
                                 "though the shoe has one: its key can be read off the shoe" % what))
            continue
        if receipt.version in BY_ELEMENT:
            if public_keys and not any(receipt.signed_by_element(k) for k in public_keys):
                found.append(Finding("J-TAMPER", min(receipt.seq, end_seq), "%s is not signed by the shoe's "
                                     "element: forged or altered" % what))
                continue
            if public_keys:
                signed.append(receipt)
        elif receipt.key_id != key_id and receipt.key_id == segments[0].key_id:
            continue  # the journal and its receipt under another key than the one given: its one finding says so
        elif receipt.key_id != key_id or not receipt.signed_by(key):
            found.append(Finding("J-TAMPER", receipt.seq, "%s does not verify under the key" % what))
            continue
        if receipt.sabot != segments[0].sabot:
            found.append(Finding("J-TAMPER", receipt.seq, "%s is sabot %d's, not this journal's" % (
                what, receipt.sabot)))
        elif receipt.segment not in by_number or chain_at(by_number[receipt.segment], receipt.seq) != receipt.chain:
            found.append(Finding("J-TAMPER", min(receipt.seq, end_seq), (
                "the journal does not reach the end the shoe signed in %s: records cut at the end" if last else
                "the journal does not extend %s: an older journal replayed, or the shoe rolled back") % what))
        elif last and (end_seq != receipt.seq or segments[-1].number != receipt.segment):
            found.append(Finding("J-TAMPER", receipt.seq, "the journal goes on past the end the shoe signed in %s"
                                 % what))
        if last and issued is not None and receipt.nonce != issued:
            found.append(Finding("J-TAMPER", min(receipt.seq, end_seq), "%s answers another nonce than the one "
                                 "pull-log issued (%s): an older receipt put in its place" % (what, PULL)))
    found += _out_of_order(signed, end_seq)
    found += _checkpoints_behind(signed, checkpoints, end_seq)
    if not at_end:
        found.append(Finding("J-TAMPER", end_seq, NO_RECEIPT))
    return found


def _ends_before(one, other):
    """Whether one (a receipt or a checkpoint) ends before other: a lower sequence number, or the same with another
    chain value (the journal between them was rewritten)."""
    return one.seq < other.seq or (one.seq == other.seq and one.chain != other.chain)


def _out_of_order(signed, end_seq):
    """Receipts signed by the element, ordered by its counter: one with a higher counter must not end before one
    with a lower (its sequence number lower, or the same with another chain value): the shoe's journal went back
    between the two pulls."""
    found = []
    ordered = sorted(signed, key=lambda r: (r.counter, r.seq))
    for at, later in enumerate(ordered):
        for earlier in ordered[:at]:  # an equal counter (no checkpoint between the pulls) never has a lower seq here
            if _ends_before(later, earlier):
                found.append(Finding("J-TAMPER", min(later.seq, end_seq), (
                    "receipt %s (seq %d, counter %d) does not end after receipt %s (seq %d, counter %d), whose "
                    "counter is not higher: the shoe's journal went back between the two pulls") % (
                    later.label, later.seq, later.counter, earlier.label, earlier.seq, earlier.counter)))
                break
    return found


def _checkpoints_behind(signed, checkpoints, end_seq):
    """A checkpoint the element counted after a receipt it signed (a higher counter) must not end before it: the
    journal went back after that pull (an older image put back, its checkpoints with it, and the shoe restarted)."""
    found = []
    for receipt in signed if checkpoints is not None else ():
        for entry in checkpoints.counted_after(receipt.counter, receipt.seq):
            if entry.reason != cp.BEGUN and _ends_before(entry, receipt):
                found.append(Finding("J-TAMPER", min(entry.seq, end_seq), (
                    "checkpoint %d (counter %d) ends at seq %d, before receipt %s (seq %d, counter %d), which the "
                    "element signed earlier: the shoe's journal went back after that pull") % (
                    entry.index, entry.counter, entry.seq, receipt.label, receipt.seq, receipt.counter)))
                break
    return found
