"""The game variants of Articles 58 and 61, as data. The controller only reads this table; the verifier reads its
figures too (sabot.rules.games), never the controller's use of them."""

from firmware.compat import const

# Columns of a row in GAMES.
NAME = const(0)
DECKS = const(1)  # 52-card decks in a full shoe
BACKS = const(2)  # decks of each back colour
STOP_BEFORE = const(3)  # cards that must remain behind the stop card (S-STOPPOS)
COUP_MIN = const(4)  # fewest cards in a coup
COUP_MAX = const(5)  # most cards in a coup; reaching it locks the shoe (S-LOCK)
TAILLES_PER_SEANCE = const(6)  # 0 = no limit
HANDS = const(7)  # hands the tableau deals to: ponte and banque, or two tableaux and the banque
REQUIREMENT = const(8)  # the game's ID in docs/requirements.md, which the verifier's findings name

CHEMIN_DE_FER = const(0)
DEUX_TABLEAUX_LIMITEE = const(1)
DEUX_TABLEAUX_OUVERTE = const(2)

GAMES = (  # type: tuple[tuple, ...]
    ("chemin_de_fer", 6, (3, 3), 7, 4, 6, 0, 2, "G-CF"),
    ("deux_tableaux_limitee", 3, (2, 1), 10, 6, 9, 0, 3, "G-DTL"),
    ("deux_tableaux_ouverte", 6, (3, 3), 10, 6, 9, 2, 3, "G-DTO"),  # Article 61: two tailles per séance
)


def by_name(name):
    """The index of a game in GAMES; ValueError if unknown."""
    for index, row in enumerate(GAMES):
        if row[NAME] == name:
            return index
    raise ValueError("unknown game %r (%s)" % (name, "|".join(row[NAME] for row in GAMES)))


def shoe_size(game):
    """Cards in a full shoe, the stop card included."""
    return GAMES[game][DECKS] * 52 + 1
