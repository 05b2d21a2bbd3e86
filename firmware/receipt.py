"""The shoe's signed head (docs/journal-format.md, "Receipts"): its journal's end, where the next record will
link, tagged under the shoe's key together with a nonce the host drew, so that a pulled copy of the journal
can be shown to end exactly there and a later journal to extend it (J-TAMPER). Loaded only when asked for."""

import json
import struct
from binascii import hexlify

DOMAIN = b"sabot receipt\0"


def signed(journal, nonce):
    """The bytes the tag covers: the domain, the nonce, sabot, segment, sequence number, chain value."""
    return DOMAIN + nonce + struct.pack("<HII", journal.sabot, journal.segment, journal.seq) + journal.chain


def receipt(journal, nonce):
    """The receipt as one line of JSON."""
    return json.dumps({
        "receipt": 1,
        "sabot": journal.sabot,
        "key_id": hexlify(journal.key.id).decode(),
        "segment": journal.segment,
        "seq": journal.seq,
        "chain": hexlify(journal.chain).decode(),
        "nonce": hexlify(nonce).decode(),
        "tag": hexlify(journal.key.tag(signed(journal, nonce), 32)).decode(),
    })
