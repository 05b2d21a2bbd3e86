"""Card identities as one small int each, so the hot path never allocates.

0-51 are the playing cards (suit * 13 + rank - 1), then the stop card and a card whose face was not read.
"""

from firmware.compat import const

STOP = const(52)
UNKNOWN = const(53)
KINDS = const(54)  # size of a table indexed by card code

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def code(rank_index, suit_index):
    return suit_index * 13 + rank_index


def rank(card):
    """1 (ace) to 13 (king)."""
    return card % 13 + 1


def parse(text):
    """'AS', 'TH', 'STOP' or '??' to a code; ValueError for anything else."""
    if text == "STOP":
        return STOP
    if text == "??":
        return UNKNOWN
    if len(text) == 2:
        r = RANKS.find(text[0])
        s = SUITS.find(text[1])
        if r >= 0 and s >= 0:
            return code(r, s)
    raise ValueError("unknown card %r (rank A 2-9 T J Q K, suit S H D C)" % text)


def name(card):
    if card == STOP:
        return "STOP"
    if card == UNKNOWN or card < 0 or card > STOP:
        return "??"
    return RANKS[card % 13] + SUITS[card // 13]
