"""The shoe's signed head (docs/journal-format.md, "Receipts"): its journal's end, where the next record will
link, tagged under the shoe's key together with a nonce the host drew, so that a pulled copy of the journal
can be shown to end exactly there and a later journal to extend it (J-TAMPER). Loaded only when asked for."""

import struct
from binascii import hexlify

DOMAIN = b"sabot receipt\0"


def signed(journal, nonce):
    """The bytes the tag covers: the domain, the nonce, sabot, segment, sequence number, chain value."""
    return DOMAIN + nonce + struct.pack("<HII", journal.sabot, journal.segment, journal.seq) + journal.chain


def receipt(journal, nonce):
    """The receipt as one line of JSON, its fields in a fixed order (a MicroPython dict keeps none)."""
    return ('{"receipt": 1, "sabot": %d, "key_id": "%s", "segment": %d, "seq": %d, "chain": "%s", "nonce": "%s", '
            '"tag": "%s"}') % (journal.sabot, hexlify(journal.key.id).decode(), journal.segment, journal.seq,
                               hexlify(journal.chain).decode(), hexlify(nonce).decode(),
                               hexlify(journal.key.tag(signed(journal, nonce), 32)).decode())
