"""The journal's layout as the rules read it, from the shared vocabulary (firmware/records.py, firmware/layout.py,
the C core's folding of a release): a folded release's bits, the snapshot's fields, which fields each record type
uses; and the words for a record the shoe must write next. Every module of sabot.rules takes them from here, under
the names their .pxd files type."""

from firmware.layout import SNAPSHOT_FIXED, SNAPSHOT_HANDS
from firmware.record_names import NO_CODE, SNAPSHOT_FIELDS, USES_CARD, USES_CONDITION, USES_DISPOSITION
from firmware.records import R_ALARM, R_AUTHORITY, R_CLOSED, R_COUP_END, R_FINDING, R_RECOVERY, R_RESULT
from sabot._frames import RELEASED_SHIFT

_WORDS = {  # what an expected record is, for the finding that says it is missing
    R_ALARM: "its alarm", R_FINDING: "its finding", R_CLOSED: "the shoe closed (S-STOP)", R_RESULT: "the coup's result",
    R_COUP_END: "the coup's end", R_RECOVERY: "the recovery record", R_AUTHORITY: "the rest of the authority change",
}
_ANY = -1  # an expected record's code that may be anything
_RELEASED_SHIFT = RELEASED_SHIFT  # a row's type from this bit on is the release folded into it
_RELEASED = 1 << RELEASED_SHIFT
_SNAPSHOT_FIELDS = SNAPSHOT_FIELDS  # the snapshot's fixed fields, (start, end)
_SNAPSHOT_COUNTS = SNAPSHOT_FIXED  # then the card counts
_SNAPSHOT_HANDS = SNAPSHOT_HANDS  # then the coup's hands
_USES_CARD = USES_CARD  # the fields other than séance, taille, coup and position a record of each type uses
_USES_DISPOSITION = USES_DISPOSITION
_USES_CONDITION = USES_CONDITION
_NO_CODE = NO_CODE  # records whose code is 0
