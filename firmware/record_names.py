"""What a reader of the journal needs beside firmware/records.py and firmware/layout.py: the packed fields
unpacked, each the inverse of its records.pack_* (documented there), and the snapshot's fields located. Kept apart
so that a shoe's controller does not load them: on the device every name costs heap. The codes' identifiers and
words are boards/sim/words.py's."""

import struct

from firmware.layout import SNAPSHOT
from firmware.records import NO_HAND


def _spans(layout):
    """(start, end) of each field of a struct layout, little-endian and unpadded."""
    spans = []
    at = 0
    for code in layout[1:]:
        end = at + struct.calcsize("<" + code)
        spans.append((at, end))
        at = end
    return tuple(spans)


SNAPSHOT_FIELDS = _spans(SNAPSHOT)  # the snapshot's fixed fields, in Controller.snapshot()'s order


def unpack_hand(code):
    return NO_HAND if code == 0 else code - 1


def unpack_employee(disposition, condition):
    return disposition | condition << 8


def unpack_counts(card, hands):
    return tuple(card >> 2 * h & 3 for h in range(hands))


def unpack_totals(code, hands):
    return tuple(code >> 4 * h & 15 for h in range(hands))


def unpack_winners(code, hands):
    """The winner of each tableau: one at chemin de fer (2 hands), two at deux tableaux."""
    return tuple(code >> 12 + 2 * t & 3 for t in range(max(hands - 1, 1)))
