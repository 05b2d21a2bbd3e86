"""What a reader of the journal needs beside firmware/records.py and firmware/layout.py: the packed fields
unpacked, each the inverse of its records.pack_* (documented there), and the snapshot's fields located. Kept apart
so that a shoe's controller does not load them: on the device every name costs heap. The codes' identifiers and
words are firmware/format/words.py's."""

import struct

from firmware import records as r
from firmware.layout import SNAPSHOT
from firmware.records import NO_HAND

# Which fields other than séance, taille, coup and position a record of each type uses, bit t for type t; the
# others are 0 (docs/journal-format.md, "What the shoe writes"). Here rather than in firmware/records.py: the
# verifier checks them, the shoe's controller never asks (four names less in its heap, H-SIM).
USES_CARD = (1 << r.R_SEANCE | 1 << r.R_FINDING | 1 << r.R_RESULT | 1 << r.R_REFUSAL | 1 << r.R_DRAW
             | 1 << r.R_OUVERTE_DAY | 1 << r.R_ELEMENT | 1 << r.R_AUTHORITY)
USES_DISPOSITION = (1 << r.R_SEANCE | 1 << r.R_RESULT | 1 << r.R_OUVERTE | 1 << r.R_DRAW | 1 << r.R_OUVERTE_DAY
                    | 1 << r.R_ELEMENT | 1 << r.R_AUTHORITY)
USES_CONDITION = (1 << r.R_SEANCE | 1 << r.R_RECOVERY | 1 << r.R_OUVERTE_DAY | 1 << r.R_ELEMENT
                  | 1 << r.R_AUTHORITY)
NO_CODE = 1 << r.R_NO_MORE_BETS | 1 << r.R_CLOSED  # records whose code is 0 (R_BOOT's: its cause, BOOT_*)
# Requests on the shoe's cable answered busy, a burst of them (firmware/protocol.py: more than the loop answers a pass,
# with no gap of 2 s), journalled between coups after it began, one record a minute at most (a flood spends no flash);
# code: the bursts since the power-up (up to 65535), so that each record counts those the minute did not write. Named
# here, not in firmware/records.py, which the sim board loads (H-SIM); the controller writes it by its number.
R_BURST = 23


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


def unpack_element(card, disposition, condition, code):
    """R_ELEMENT's (counter, count, why): the last counter value spent with no checkpoint, how many, EL_*."""
    return code | disposition << 16, card, condition


def unpack_authority(card, disposition, condition, code):
    """R_AUTHORITY's (what, part, value): what changed (AU_*), which of its three records (0 who asked, 1 before,
    2 after), the 32-bit value."""
    return condition & 15, condition >> 4, code | card << 16 | disposition << 24


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
