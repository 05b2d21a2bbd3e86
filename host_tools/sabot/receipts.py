"""The shoe's receipts (docs/journal-format.md, "Receipts"): its journal's head signed under its key with a fresh
nonce, which `sabot pull-log` (and `sabot sim`) write into the journal's folder as receipt.json. `log verify` checks
that the journal ends exactly at the receipt found there, and that it extends each earlier receipt given
(--receipt): a journal cut at the end, replayed or rolled back to an older image fails (J-TAMPER). Written from
the format's description: the chain values are recomputed here with hashlib, apart from the frames' checker."""

import hashlib
import hmac
import json
import struct
from pathlib import Path

from firmware import layout as fmt
from sabot.journalfile import Finding, Unusable

NAME = "receipt.json"  # in a pulled journal's folder, beside the segments
_DOMAIN = b"sabot receipt\0"
_FIELDS = ("sabot", "key_id", "segment", "seq", "chain", "nonce", "tag")
NO_RECEIPT = "no receipt from the shoe: records cut from the end of the journal cannot be ruled out"


class Receipt:
    def __init__(self, label, fields):
        self.label = label
        self.sabot, self.segment, self.seq = fields["sabot"], fields["segment"], fields["seq"]
        self.key_id, self.chain, self.nonce, self.tag = (bytes.fromhex(fields[k]) for k in
                                                        ("key_id", "chain", "nonce", "tag"))

    def signed_by(self, key):
        body = _DOMAIN + self.nonce + struct.pack("<HII", self.sabot, self.segment, self.seq) + self.chain
        return hmac.compare_digest(hmac.new(key, body, hashlib.sha256).digest(), self.tag)


def load(path):
    """A receipt file, or Unusable."""
    try:
        fields = json.loads(Path(path).read_text(encoding="utf-8"))
        if fields.get("receipt") != 1 or any(k not in fields for k in _FIELDS):
            raise ValueError("not a sabot receipt (version 1, fields %s)" % ", ".join(_FIELDS))
        return Receipt(str(path), fields)
    except (OSError, UnicodeError, ValueError, TypeError, AttributeError) as e:
        raise Unusable("%s: %s" % (path, getattr(e, "strerror", None) or e)) from None


def found_in(paths):
    """The receipt in a journal given as one folder, or None."""
    if len(paths) == 1 and (Path(paths[0]) / NAME).is_file():
        return load(Path(paths[0]) / NAME)
    return None


def chain_at(segment, seq):
    """The chain value after record seq in a segment (its header's when seq is the one before it), or None when
    the segment does not reach it."""
    if seq < segment.seq_before:
        return None
    data = segment.data
    chain = hashlib.sha256(segment.previous_chain + data[:fmt.HEADER_TAG_AT]).digest()
    for i in range(seq - segment.seq_before):
        at = fmt.HEADER_SIZE + i * fmt.FRAME_SIZE
        if at + fmt.FRAME_SIZE > len(data):
            return None
        chain = hashlib.sha256(chain + data[at:at + fmt.TAG_AT]).digest()
    return chain


def findings(segments, end_seq, key, at_end, earlier):
    """J-TAMPER findings: the journal against the receipt found with it (at_end, or None) and earlier ones."""
    found = []
    key_id = hashlib.sha256(b"sabot key id " + key).digest()[:8]
    by_number = {s.number: s for s in segments}
    for receipt, last in ([(at_end, True)] if at_end else []) + [(r, False) for r in earlier]:
        what = "receipt %s (seq %d)" % (receipt.label, receipt.seq)
        if receipt.key_id != key_id and receipt.key_id == segments[0].key_id:
            continue  # the journal and its receipt under another key than the one given: its one finding says so
        if receipt.key_id != key_id or not receipt.signed_by(key):
            found.append(Finding("J-TAMPER", receipt.seq, "%s does not verify under the key" % what))
        elif receipt.sabot != segments[0].sabot:
            found.append(Finding("J-TAMPER", receipt.seq, "%s is sabot %d's, not this journal's" % (
                what, receipt.sabot)))
        elif receipt.segment not in by_number or chain_at(by_number[receipt.segment], receipt.seq) != receipt.chain:
            found.append(Finding("J-TAMPER", min(receipt.seq, end_seq), (
                "the journal does not reach the end the shoe signed in %s: records cut at the end" if last else
                "the journal does not extend %s: an older journal replayed, or the shoe rolled back") % what))
        elif last and (end_seq != receipt.seq or segments[-1].number != receipt.segment):
            found.append(Finding("J-TAMPER", receipt.seq, "the journal goes on past the end the shoe signed in %s"
                                 % what))
    if not at_end:
        found.append(Finding("J-TAMPER", end_seq, NO_RECEIPT))
    return found
