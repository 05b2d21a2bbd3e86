"""The journal's layout as the rules read it (docs/journal-format.md): a folded release's bits, the snapshot's
fields, which fields each record type uses, and the words for a record the shoe must write next. Every module of
sabot.rules takes them from here."""

from firmware.records import (
    R_ALARM,
    R_CLOSED,
    R_COUP_END,
    R_FINDING,
    R_NO_MORE_BETS,
    R_RECOVERY,
    R_RESULT,
    R_SEANCE,
)

_WORDS = {  # what an expected record is, for the finding that says it is missing
    R_ALARM: "its alarm", R_FINDING: "its finding", R_CLOSED: "the shoe closed (S-STOP)", R_RESULT: "the coup's result",
    R_COUP_END: "the coup's end", R_RECOVERY: "the recovery record",
}
_ANY = -1  # an expected record's code that may be anything
_RELEASED_SHIFT = 6  # sabot._frames.RELEASED_SHIFT: a row's type from this bit on is the release folded into it
_RELEASED = 1 << _RELEASED_SHIFT
# The snapshot's fixed fields, (start, end) (docs/journal-format.md): séance, table, taille, tailles in the séance,
# game, coup, in a coup, cards dealt in the coup, position, stop card seen, the alarms (code n as bit n - 1),
# phase, release under way; then the card counts and the coup's hands.
_SNAPSHOT_FIELDS = ((0, 2), (2, 4), (4, 6), (6, 7), (7, 8), (8, 10), (10, 11), (11, 12), (12, 14), (14, 15), (15, 17),
                    (17, 18), (18, 19))
_SNAPSHOT_COUNTS = 19
_SNAPSHOT_HANDS = 73
# The fields other than séance, taille, coup and position a record of each type uses (docs/journal-format.md);
# the others are 0.
_USES_CARD = (1 << R_SEANCE) | (1 << R_FINDING) | (1 << R_RESULT)
_USES_DISPOSITION = (1 << R_SEANCE) | (1 << R_RESULT)
_USES_CONDITION = (1 << R_SEANCE) | (1 << R_RECOVERY)
_NO_CODE = (1 << R_NO_MORE_BETS) | (1 << R_CLOSED)  # records whose code is 0 (R_BOOT's: its cause, alarms.py)
