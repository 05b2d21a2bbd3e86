"""The verifier's own tableau, written from docs/tableau.md apart from the firmware's (firmware/tableau.py), so
that a wrong cell in the shoe's tableau is a faux tirage here (T-CF, T-DT), not a rule both agree on.

Hands: at chemin de fer 0 the ponte and 1 the banker; at deux tableaux 0 and 1 the tableaux and 2 the banker.
"""

_OVER = -1  # no hand may draw: the coup is over
_STANDS = 0
_DRAWS = 1
_CHOOSES = 2  # an optional cell: the croupier's announcement decides; without it the hand may still draw
OVER, STANDS, DRAWS, CHOOSES = _OVER, _STANDS, _DRAWS, _CHOOSES  # for the rules (Cython keeps the _ ones in C)

# docs/tableau.md, "Chemin de fer": the banker by his total (rows 0-7) against the ponte's third card (columns 0-9)
# or "—", the ponte stood (column 10). D draws, S stands, O optional.
_BANKER_TABLE = (
    "DDDDDDDDDDD",
    "DDDDDDDDDDD",
    "DDDDDDDDDDD",
    "DDDDDDDDSOD",
    "SODDDDDDSSD",
    "SSSSODDDSSO",
    "SSSSSSDDSSS",
    "SSSSSSSSSSS",
)
_CELL = {"D": _DRAWS, "S": _STANDS, "O": _CHOOSES}
_COLUMNS = 11
BANKER = bytes(_CELL[c] for row in _BANKER_TABLE for c in row)  # row by row, _COLUMNS a row
# The ponte, and each tableau at deux tableaux, by his two cards' total: 0-4 draws, 5 chooses, 6-7 stands.
PONTE = bytes((_DRAWS, _DRAWS, _DRAWS, _DRAWS, _DRAWS, _CHOOSES, _STANDS, _STANDS))
_PONTE_STOOD = 10  # the banker's column when the ponte kept his two cards


def points(card):
    """Ace 1, two to nine their face, ten and heads 0 (card codes: suit × 13 + rank − 1)."""
    rank = card % 13 + 1
    return 0 if rank >= 10 else rank


class Hands:
    """A coup's hands as the verifier re-deals them from the card records."""

    def __init__(self):
        self.cards = bytearray(3)
        self.total = bytearray(3)
        self.third = bytearray(3)  # the points of a hand's third card
        self.stood = bytearray(3)  # 1: the croupier announced that the hand stands
        self.count = 2  # hands in play: 2 at chemin de fer, 3 at deux tableaux
        self.followed = True  # every card of the coup read, so the tableau can be followed

    def start(self, count):
        self.count = count
        self.followed = True
        for h in range(3):
            self.cards[h] = 0
            self.total[h] = 0
            self.third[h] = 0
            self.stood[h] = 0

    def dealt(self):
        return self.cards[0] + self.cards[1] + self.cards[2]

    def give(self, hand, card):
        p = points(card)
        self.cards[hand] += 1
        self.total[hand] = (self.total[hand] + p) % 10
        if self.cards[hand] == 3:
            self.third[hand] = p

    def natural(self, hand):
        return self.cards[hand] == 2 and self.total[hand] >= 8

    def choice(self, hand):
        """What the tableau lets a hand holding two cards do: STANDS, DRAWS or CHOOSES."""
        t = self.total[hand]
        if t >= 8:
            return _STANDS
        banker = self.count - 1
        if hand != banker:
            return PONTE[t]
        if self.count == 3:
            return _CHOOSES  # the banker at deux tableaux draws or stands as he likes
        return BANKER[t * _COLUMNS + (self.third[0] if self.cards[0] == 3 else _PONTE_STOOD)]

    def may_draw(self, hand):
        return self.cards[hand] == 2 and not self.stood[hand] and self.choice(hand) != _STANDS

    def next(self):
        """The hand the next card is for, or OVER."""
        n = self.dealt()
        if n < 2 * self.count:
            return n % self.count  # the first cards go round the hands, twice
        banker = self.count - 1
        if self.count == 2:
            if self.natural(0) or self.natural(1):
                return _OVER
        elif self.natural(banker):
            return _OVER  # the banker's natural settles both tableaux
        for hand in range(banker):
            if self.may_draw(hand):
                return hand
        if self.count == 3 and self.natural(0) and self.natural(1):
            return _OVER
        return banker if self.may_draw(banker) else _OVER

    def winner(self, tableau):
        """1 the ponte (or the tableau), 2 the banker, 3 égalité (docs/journal-format.md, R_RESULT)."""
        mine = self.total[tableau]
        his = self.total[self.count - 1]
        return 1 if mine > his else (2 if his > mine else 3)

    def result_code(self):
        """R_RESULT's code as docs/journal-format.md packs it: totals 4 bits a hand, winners from bit 12."""
        code = self.total[0] | self.total[1] << 4 | self.winner(0) << 12
        if self.count == 3:
            code |= self.total[2] << 8 | self.winner(1) << 14
        return code

    def counts_code(self):
        """R_RESULT's card: each hand's card count, 2 bits a hand."""
        return self.cards[0] | self.cards[1] << 2 | self.cards[2] << 4
