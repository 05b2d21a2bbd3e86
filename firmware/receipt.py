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
    return _by_element(nonce, journal.sabot, counter, journal.segment, journal.seq, journal.chain)


def _by_element(nonce, sabot, counter, segment, seq, chain):
    return LABEL + nonce + struct.pack("<HIII", sabot, counter, segment, seq) + chain


def _head(journal, nonce, version):
    return ('{"receipt": %d, "sabot": %d, "key_id": "%s", "segment": %d, "seq": %d, "chain": "%s", "nonce": "%s", '
            % (version, journal.sabot, hexlify(journal.key.id).decode(), journal.segment, journal.seq,
               hexlify(journal.chain).decode(), hexlify(nonce).decode()))


def _signed_line(head, counter, signature):
    return head + '"counter": %d, "signature": "%s"}' % (counter, hexlify(signature).decode())


def receipt(journal, nonce, checkpoints=None):
    """The receipt as one line of JSON, its fields in a fixed order (a MicroPython dict keeps none): signed by the
    element of checkpoints (the shell's, None on a board without one) when it has one, tagged under the key
    otherwise. An element that does not answer raises OSError: no receipt rather than a weaker one."""
    element = checkpoints.element if checkpoints is not None else None
    if element is None:
        return _head(journal, nonce, 1) + '"tag": "%s"}' % hexlify(journal.key.tag(signed(journal, nonce), 32)).decode()
    counter = element.counter(_COUNTER)
    signature = element.sign(sha256(signed_by_element(journal, nonce, counter)).digest())
    return _signed_line(_head(journal, nonce, 2), counter, signature)


class Signing:
    """receipt() by the element a poll at a time (boards/mcu/atecc.py's runs), for the protocol's loop: the journal's
    end taken when asked, the counter read, then the signature, none of them waited for (firmware/protocol.py's
    work() polls once a pass). step(ms) is the line once signed, None meanwhile; raises OSError as receipt() does."""

    def __init__(self, journal, nonce, element):
        self._head = _head(journal, nonce, 2)
        self._end = (bytes(nonce), journal.sabot, journal.segment, journal.seq, bytes(journal.chain))
        self._element = element
        self._counter = None
        self._run = element.reading(_COUNTER)

    def step(self, ms):
        got = self._run.poll(ms)
        if got is None:
            return None
        if self._counter is None:
            self._counter = got
            nonce, sabot, segment, seq, chain = self._end
            self._run = self._element.signing(sha256(_by_element(nonce, sabot, got, segment, seq, chain)).digest())
            return None
        return _signed_line(self._head, self._counter, got)
