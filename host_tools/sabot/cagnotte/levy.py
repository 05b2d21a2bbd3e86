"""The levy due on one coup, in exact decimal: the rate by game (Article 60), what the bank won (Article 62's a, b
and c at deux tableaux), rounded to the nearest ten cents (Article 59)."""

from decimal import ROUND_HALF_UP, Decimal

from firmware import games

# The bank's result on a tableau, as the croupier announces it (Article 62); the shoe's R_RESULT names the winner.
GAGNANT, PERDANT, EGALITE = "gagnant", "perdant", "égalité"
RATES = {  # Article 60
    games.CHEMIN_DE_FER: Decimal("0.05"),
    games.DEUX_TABLEAUX_LIMITEE: Decimal("0.02"),
    games.DEUX_TABLEAUX_OUVERTE: Decimal("0.0125"),
}
TEN_CENTS = Decimal("0.1")
# "arrondi à la dizaine de centimes d'euro la plus voisine": a sum halfway between two (a multiple of 5 cents) goes
# to the upper one, as a cashier rounds; the article is silent on the half.
ROUNDING = ROUND_HALF_UP


def rounded(amount):
    """To the nearest ten cents, a half up (Article 59)."""
    return amount.quantize(TEN_CENTS, rounding=ROUNDING)


def won_by_bank(results, stakes):
    """(what the bank won that the levy is taken on, Article 62's case or None). results: the bank's result on
    each tableau (one at chemin de fer); stakes: the sums exposed against the bank on each."""
    if len(results) == 1:
        return (stakes[0], "chemin de fer") if results[0] == GAGNANT else (Decimal(0), None)
    won = [s for r, s in zip(results, stakes) if r == GAGNANT]
    if len(won) == 2:
        return stakes[0] + stakes[1], "a"
    if not won:
        return Decimal(0), None
    other = results[1] if results[0] == GAGNANT else results[0]
    if other == PERDANT:
        lost = stakes[1] if results[0] == GAGNANT else stakes[0]
        return max(won[0] - lost, Decimal(0)), "b"
    return won[0], "c"


def due(game, results, stakes):
    """(the levy due on the coup, the sum it is taken on, Article 62's case or None)."""
    base, case = won_by_bank(results, stakes)
    return rounded(base * RATES[game]), base, case
