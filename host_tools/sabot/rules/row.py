# cython: boundscheck=False, wraparound=False
"""A record's fields as the rules read them, by name (journalfile's row, SEQ to CODE): one Row that the fold fills
again for each record, from its frame's bytes (Rules.fold_frames: no object made a record on verify's way through)
or from a row (Rules.feed). The rules read it during their record's transition and never keep it."""

from firmware.layout import BODY_AT, BODY_CARD, BODY_CODE, BODY_MS, BODY_SEANCE, BODY_SECONDS, FRAME_SIZE, SEQ_AT
from sabot._frames import PICK_KIND_SHIFT, RELEASED_SHIFT

_PICK_OFFSET = (1 << PICK_KIND_SHIFT) - 1
_SECONDS = BODY_AT + BODY_SECONDS
_MS = BODY_AT + BODY_MS
_SEANCE = BODY_AT + BODY_SEANCE  # then the taille, the coup and the position, 2 bytes each
_CARD = BODY_AT + BODY_CARD  # then the disposition and the condition, a byte each
_CODE = BODY_AT + BODY_CODE


class Row:
    def __init__(self):
        self.set((0,) * 11)

    def set(self, fields):
        """From a row: (seq, type, time in ms, séance, taille, coup, position, card, disposition, condition, code)."""
        (self.seq, self.type, self.time, self.seance, self.taille, self.coup, self.position, self.card,
         self.disposition, self.condition, self.code) = fields

    def read(self, data, pick):
        """From the frame of data a pick of sabot._frames.scan names, a release intent folded into it from
        PICK_KIND_SHIFT on: its type then carries the intent's code from RELEASED_SHIFT on."""
        at = pick & _PICK_OFFSET
        if at + FRAME_SIZE > len(data):  # the one bound checked (the line above): a pick names a whole frame
            raise IndexError("a pick past the data's last frame")
        high = data[at + SEQ_AT + 3]  # a wide number (row.pxd): shifted 24 bits, a byte over 127 stays positive
        self.seq = data[at + SEQ_AT] | data[at + SEQ_AT + 1] << 8 | data[at + SEQ_AT + 2] << 16 | high << 24
        self.type = data[at + BODY_AT] | (pick >> PICK_KIND_SHIFT) << RELEASED_SHIFT
        high = data[at + _SECONDS + 3]
        seconds = data[at + _SECONDS] | data[at + _SECONDS + 1] << 8 | data[at + _SECONDS + 2] << 16 | high << 24
        self.time = seconds * 1000 + (data[at + _MS] | data[at + _MS + 1] << 8)
        self.seance = data[at + _SEANCE] | data[at + _SEANCE + 1] << 8
        self.taille = data[at + _SEANCE + 2] | data[at + _SEANCE + 3] << 8
        self.coup = data[at + _SEANCE + 4] | data[at + _SEANCE + 5] << 8
        self.position = data[at + _SEANCE + 6] | data[at + _SEANCE + 7] << 8
        self.card = data[at + _CARD]
        self.disposition = data[at + _CARD + 1]
        self.condition = data[at + _CARD + 2]
        self.code = data[at + _CODE] | data[at + _CODE + 1] << 8
