"""The drawing rules of baccara (the tableau), as data, and which hand the next card of a coup is for.

docs/tableau.md cites the rules and the cells where sources disagree (those are optional here: a card the
rules may allow is never locked out). Hands: at chemin de fer 0 the ponte and 1 the banker; at deux
tableaux 0 and 1 the tableaux and 2 the banker.
"""

from firmware.cards import STOP
from firmware.compat import const
from firmware.records import WIN_BANQUE, WIN_EGALITE, WIN_PONTE, pack_result

NONE = const(255)  # no hand may draw: the coup is over
DRAW = const(68)  # b"D"
OPTIONAL = const(79)  # b"O": the croupier's "stand" input decides; without it the hand may still draw
_STAND = const(83)  # b"S"

# A coup's hands in a segment header's snapshot (layout.SNAPSHOT_HANDS): counts, totals, third cards' values
# and "stood" flags, 3 bytes each, then 1 if every card of the coup was read.
_SAVED_TOTALS = const(3)
_SAVED_THIRD = const(6)
_SAVED_STOOD = const(9)
_SAVED_KNOWN = const(12)

# A ponte's (or a tableau's) two-card total: draws on 0-4, chooses on 5, stands on 6-7; 8-9 are naturals.
PONTE = b"DDDDDOSS"

# Chemin de fer banker, by his total (rows 0-7) and the ponte's third card value (columns 0-9), or the
# ponte having stood (column 10) (T-CF). One bytes object, row after row: on the VM each object costs heap.
_CF_ROW = const(11)
BANKER_CF = (
    b"DDDDDDDDDDD"  # 0
    b"DDDDDDDDDDD"  # 1
    b"DDDDDDDDDDD"  # 2
    b"DDDDDDDDSOD"  # 3: stands on an 8; a 9 is optional (sources differ)
    b"SODDDDDDSSD"  # 4: draws on 2-7; a 1 is optional (sources differ)
    b"SSSSODDDSSO"  # 5: draws on 5-7; a 4 is optional; optional when the ponte stood (sources differ)
    b"SSSSSSDDSSS"  # 6: draws on 6-7
    b"SSSSSSSSSSS"  # 7
)

# Order of the first cards of a coup: chemin de fer ponte, banker, ponte, banker; deux tableaux tableau 1,
# tableau 2, banker, twice.
DEAL_CF = b"\x00\x01\x00\x01"
DEAL_DT = b"\x00\x01\x02\x00\x01\x02"


def value(card):
    """A card's points: ace 1, two to nine their face, ten and the heads 0."""
    rank = card % 13 + 1
    return rank if rank < 10 else 0


class Coup:
    """The hands of the coup under way; preallocated, so dealing a card allocates nothing."""

    def __init__(self):
        self.counts = bytearray(3)
        self.totals = bytearray(3)
        self.third = bytearray(3)  # the value of each hand's third card
        self.stood = bytearray(3)  # the croupier announced that the hand stands on an optional cell
        self.hands = 2
        self.known = True  # every card read: without identities the tableau cannot apply (maxima only)

    def start(self, two_tableaux):
        self.hands = 3 if two_tableaux else 2
        self.known = True
        for i in range(3):
            self.counts[i] = 0
            self.totals[i] = 0
            self.third[i] = 0
            self.stood[i] = 0

    def save(self, buf, at):
        buf[at:at + _SAVED_TOTALS] = self.counts
        buf[at + _SAVED_TOTALS:at + _SAVED_THIRD] = self.totals
        buf[at + _SAVED_THIRD:at + _SAVED_STOOD] = self.third
        buf[at + _SAVED_STOOD:at + _SAVED_KNOWN] = self.stood
        buf[at + _SAVED_KNOWN] = self.known

    def load(self, buf, at, two_tableaux):
        self.start(two_tableaux)
        self.counts[:] = buf[at:at + _SAVED_TOTALS]
        self.totals[:] = buf[at + _SAVED_TOTALS:at + _SAVED_THIRD]
        self.third[:] = buf[at + _SAVED_THIRD:at + _SAVED_STOOD]
        self.stood[:] = buf[at + _SAVED_STOOD:at + _SAVED_KNOWN]
        self.known = bool(buf[at + _SAVED_KNOWN])

    def dealt(self):
        return self.counts[0] + self.counts[1] + self.counts[2]

    def add(self, hand, card):
        if card >= STOP:
            self.known = False
            return
        points = value(card)
        self.counts[hand] += 1
        self.totals[hand] = (self.totals[hand] + points) % 10
        if self.counts[hand] == 3:
            self.third[hand] = points

    def rule(self, hand):
        """DRAW, OPTIONAL or _STAND for a hand that holds two cards, from the tableau."""
        total = self.totals[hand]
        if self.hands == 2 and hand == 1:
            column = self.third[0] if self.counts[0] == 3 else 10
            return BANKER_CF[total * _CF_ROW + column] if total < 8 else _STAND
        if self.hands == 3 and hand == 2:
            return OPTIONAL if total < 8 else _STAND  # the banker at deux tableaux chooses freely
        return PONTE[total] if total < 8 else _STAND

    def next_hand(self):
        """The hand the next card goes to, or NONE when no hand may draw any more."""
        dealt = self.dealt()
        if self.hands == 2:
            if dealt < 4:
                return DEAL_CF[dealt]
            if self._natural(0) or self._natural(1):
                return NONE  # a natural: the hands are shown
        else:
            if dealt < 6:
                return DEAL_DT[dealt]
            if self._natural(2):
                return NONE  # the banker's natural settles both tableaux
        banker = self.hands - 1
        for hand in range(banker):
            if self.counts[hand] == 2 and not self.stood[hand] and self.rule(hand) != _STAND:
                return hand
        if self.hands == 3 and self._natural(0) and self._natural(1):
            return NONE  # both tableaux natural: nothing left to play against
        if self.counts[banker] == 2 and not self.stood[banker] and self.rule(banker) != _STAND:
            return banker
        return NONE

    def _natural(self, hand):
        return self.counts[hand] == 2 and self.totals[hand] >= 8

    def packed_result(self):
        """The result record's code (records.pack_result)."""
        return pack_result(self.totals, self.winner(0), self.winner(1) if self.hands == 3 else 0)

    def winner(self, tableau):
        """Who wins a tableau (the ponte's hand at chemin de fer): records.WIN_*."""
        mine = self.totals[tableau]
        banker = self.totals[self.hands - 1]
        return WIN_PONTE if mine > banker else (WIN_BANQUE if banker > mine else WIN_EGALITE)
