"""What a reader of the journal needs beside firmware/records.py: the codes as identifiers (tuples indexed by
its constants: the words of the sim's trace and timeline and of `sabot log export`, part of the format) and
the packed fields unpacked, each the inverse of its records.pack_* (documented there). Kept apart from
records.py so that a shoe's controller does not load them: on the device every name costs heap."""

from firmware import records
from firmware.records import NO_HAND


def _identifiers(prefix):
    """records.py's constants named prefix + NAME as identifiers ("name") indexed by their codes: a new record type
    is its R_ constant alone, here as in the export and the trace."""
    found = {}
    for attr in dir(records):
        if attr.startswith(prefix):
            found[getattr(records, attr)] = attr[len(prefix):].lower()
    return tuple(found.get(code, "") for code in range(max(found) + 1))


RECORD_NAMES = _identifiers("R_")
DISPOSITION_NAMES = ("dealt", "burned", "stop")
CONDITION_NAMES = ("normal", "forced", "double_feed")
ALARM_NAMES = ("", "forced", "double_feed", "jam", "journal", "journal_full", "overrun", "firmware", "rollback",
               "development_key")
FINDING_NAMES = ("", "stop_position", "foreign_card", "short_coup", "no_stop")
END_NAMES = ("button", "maximum", "tableau")
RELEASE_NAMES = ("", "deal", "burn")
WINNER_NAMES = ("", "ponte", "banque", "egalite")


def name(names, code):
    """A code's identifier, or "code N" for one this version does not know (a newer or damaged journal)."""
    return names[code] if 0 <= code < len(names) else "code %d" % code


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
