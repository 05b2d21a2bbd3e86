"""The shoe's signed head (docs/journal-format.md, "Receipts"): its journal's end, where the next record will
link, with a nonce the host drew, so that a pulled copy of the journal can be shown to end exactly there and a
later journal to extend it (J-TAMPER). On a board with a secure element (firmware/checkpoints.py's
Checkpoints.element) the element signs it (version 2) with its counter 0 as it stands, read and not counted up: an
unauthenticated pull must not use the counter up, and the counter orders receipts against the checkpoints and each
other. The sim, which has no element, tags it under the public development key (version 1); a board whose element
does not answer gives none. Loaded only when asked for."""

import struct
from binascii import hexlify
from hashlib import sha256

DOMAIN = b"sabot receipt\0"
LABEL = b"sabot receipt 2\0"  # version 2's, signed by the element
_COUNTER = 0  # the element's counter 0, which counts the checkpoints (firmware/checkpoints.py)


def signed(journal, nonce):
    """The bytes version 1's tag covers: the domain, the nonce, sabot, segment, sequence number, chain value."""
    return DOMAIN + nonce + struct.pack("<HII", journal.sabot, journal.segment, journal.seq) + journal.chain


def signed_by_element(journal, nonce, counter):
    """The bytes whose SHA-256 the element signs in version 2: the label, the nonce, sabot, the counter, segment,
    sequence number, chain value."""
    return LABEL + nonce + struct.pack("<HIII", journal.sabot, counter, journal.segment, journal.seq) + journal.chain


def receipt(journal, nonce, checkpoints=None):
    """The receipt as one line of JSON, its fields in a fixed order (a MicroPython dict keeps none): signed by the
    element of checkpoints (the shell's, None on a board without one) when it has one, tagged under the key
    otherwise. An element that does not answer raises OSError: no receipt rather than a weaker one."""
    element = checkpoints.element if checkpoints is not None else None
    head = ('{"receipt": %d, "sabot": %d, "key_id": "%s", "segment": %d, "seq": %d, "chain": "%s", "nonce": "%s", '
            % (1 if element is None else 2, journal.sabot, hexlify(journal.key.id).decode(), journal.segment,
               journal.seq, hexlify(journal.chain).decode(), hexlify(nonce).decode()))
    if element is None:
        return head + '"tag": "%s"}' % hexlify(journal.key.tag(signed(journal, nonce), 32)).decode()
    counter = element.counter(_COUNTER)
    signature = element.sign(sha256(signed_by_element(journal, nonce, counter)).digest())
    return head + '"counter": %d, "signature": "%s"}' % (counter, hexlify(signature).decode())
