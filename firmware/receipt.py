"""The shoe's signed head (docs/journal-format.md, "Receipts"): its journal's end, where the next record will
link, with a nonce the host drew, so that a pulled copy of the journal can be shown to end exactly there and a
later journal to extend it (J-TAMPER). On a board with a secure element (firmware/checkpoints.py's
Checkpoints.element) the element signs it with its counter 0 as it stands, read and not counted up: an
unauthenticated pull must not use the counter up, and the counter orders receipts against the checkpoints and each
other. Version 3: the element's internal-sign key, the chip's own message vouching for the counter (as the
checkpoints' entries, firmware/checkpoints.py), with its RandOut and configuration bytes; version 2: slot 0's
signature of the digest, on a part without an internal-sign key. The sim, which has no element, tags it under the
public development key (version 1); a board whose element does not answer gives none. Loaded only when asked
for."""

import struct
from binascii import hexlify
from hashlib import sha256

DOMAIN = b"sabot receipt\0"
LABEL = b"sabot receipt 2\0"  # version 2's, signed by the element
VOUCHED = b"sabot receipt 3\0"  # version 3's: the counter is not in these bytes, the chip folds it in itself
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


def vouched(nonce, sabot, segment, seq, chain):
    """Version 3: the bytes whose SHA-256's first 20 bytes the element takes as its nonce's NumIn: the label, the
    nonce, sabot, segment, sequence number, chain value (the counter is the chip's to fold in)."""
    return VOUCHED + nonce + struct.pack("<HII", sabot, segment, seq) + chain


def _head(journal, nonce, version):
    return ('{"receipt": %d, "sabot": %d, "key_id": "%s", "segment": %d, "seq": %d, "chain": "%s", "nonce": "%s", '
            % (version, journal.sabot, hexlify(journal.key.id).decode(), journal.segment, journal.seq,
               hexlify(journal.chain).decode(), hexlify(nonce).decode()))


def _signed_line(head, counter, signature, chip=None):
    """The line's end; chip (the element's configuration bytes) for version 3, whose signature is RandOut || R || S."""
    if chip is None:
        return head + '"counter": %d, "signature": "%s"}' % (counter, hexlify(signature).decode())
    return head + '"counter": %d, "rand_out": "%s", "chip": "%s", "signature": "%s"}' % (
        counter, hexlify(signature[:32]).decode(), hexlify(chip).decode(), hexlify(signature[32:]).decode())


def _attested(head, chip, got):
    """Version 3's line from the element's answer: the counter it read (4 bytes) || RandOut || R || S."""
    return _signed_line(head, struct.unpack_from("<I", got, 0)[0], got[4:], chip)


def receipt(journal, nonce, checkpoints=None):
    """The receipt as one line of JSON, its fields in a fixed order (a MicroPython dict keeps none): signed by the
    element of checkpoints (the shell's, None on a board without one) when it has one, tagged under the key
    otherwise. An element that does not answer raises OSError: no receipt rather than a weaker one."""
    element = checkpoints.element if checkpoints is not None else None
    if element is None:
        return _head(journal, nonce, 1) + '"tag": "%s"}' % hexlify(journal.key.tag(signed(journal, nonce), 32)).decode()
    chip = checkpoints.chip
    if chip is None:
        counter = element.counter(_COUNTER)
        digest = sha256(signed_by_element(journal, nonce, counter)).digest()
        return _signed_line(_head(journal, nonce, 2), counter, element.sign(digest))
    digest = sha256(vouched(nonce, journal.sabot, journal.segment, journal.seq, journal.chain)).digest()
    return _attested(_head(journal, nonce, 3), chip, element.attest(digest[:20]))


class Signing:
    """receipt() by the element a poll at a time (boards/mcu/atecc.py's runs), for the protocol's loop: the journal's
    end taken when asked, then (version 2) the counter read and the signature, or (version 3) the chip's one run
    that reads its counter and signs over it, none of them waited for (firmware/protocol.py's work() polls once a
    pass). step(ms) is the line once signed, None meanwhile; raises OSError as receipt() does."""

    def __init__(self, journal, nonce, checkpoints):
        element = checkpoints.element
        self._chip = checkpoints.chip
        self._head = _head(journal, nonce, 2 if self._chip is None else 3)
        self._end = (bytes(nonce), journal.sabot, journal.segment, journal.seq, bytes(journal.chain))
        self._element = element
        self._counter = None
        if self._chip is None:
            self._run = element.reading(_COUNTER)
        else:
            nonce, sabot, segment, seq, chain = self._end
            self._run = element.attesting(sha256(vouched(nonce, sabot, segment, seq, chain)).digest()[:20])

    def step(self, ms):
        got = self._run.poll(ms)
        if got is None:
            return None
        if self._chip is not None:
            return _attested(self._head, self._chip, got)
        if self._counter is None:
            self._counter = got
            nonce, sabot, segment, seq, chain = self._end
            self._run = self._element.signing(sha256(_by_element(nonce, sabot, got, segment, seq, chain)).digest())
            return None
        return _signed_line(self._head, self._counter, got)
