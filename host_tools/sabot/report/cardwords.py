"""A card as the report names it: its rank in the reader's language and its suit's symbol (R♣ is the king of
clubs in French), with the full name for a tooltip."""

from firmware import cards

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = "HD"
RANKS = {  # the journal's rank letters (firmware/cards.py) in each language
    "fr": {"A": "A", "T": "10", "J": "V", "Q": "D", "K": "R"},
    "en": {"T": "10"},
}
RANK_NAMES = {
    "fr": {"A": "as", "J": "valet", "Q": "dame", "K": "roi", "T": "dix", "2": "deux", "3": "trois", "4": "quatre",
           "5": "cinq", "6": "six", "7": "sept", "8": "huit", "9": "neuf"},
    "en": {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "T": "ten", "2": "two", "3": "three", "4": "four",
           "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine"},
}
SUIT_NAMES = {"fr": {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"},
              "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}}
OTHERS = {"fr": {cards.STOP: ("arrêt", "carte d'arrêt"), cards.UNKNOWN: ("?", "carte non lue")},
          "en": {cards.STOP: ("stop", "stop card"), cards.UNKNOWN: ("?", "card not read")}}


def short(card, lang):
    """'R♣', '10♥'; the stop card and an unread card in words."""
    if card >= cards.STOP:
        return OTHERS[lang].get(card, OTHERS[lang][cards.UNKNOWN])[0]
    name = cards.name(card)
    return RANKS[lang].get(name[0], name[0]) + SUITS[name[1]]


def full(card, lang):
    """'roi de trèfle', 'king of clubs'."""
    if card >= cards.STOP:
        return OTHERS[lang].get(card, OTHERS[lang][cards.UNKNOWN])[1]
    name = cards.name(card)
    return (" de " if lang == "fr" else " of ").join((RANK_NAMES[lang][name[0]], SUIT_NAMES[lang][name[1]]))


def is_red(card):
    return card < cards.STOP and cards.name(card)[1] in RED
