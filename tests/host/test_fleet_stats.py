"""The results checks' statistics: the exact chemin de fer odds re-derived by enumeration through the firmware's
tableau with the generator's punto banco choices, and the exact binomial test (F-RESULTS)."""

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from firmware.tableau import Coup
from sabot.fleet import stats, synth
from tests.core.req import covers

_CODE = [9] + list(range(9))  # a card of each value: the ten of spades, then the ace to the nine


class _Short(Exception):
    """The coup wants one more card than the sequence holds."""


def enumerate_coups(decks=6):
    """{winner: ordered six-card draws} over every ordered draw from a shoe of `decks` decks."""
    left = [16 * decks] + [4 * decks] * 9
    total = 52 * decks
    wins = {1: 0, 2: 0, 3: 0}
    coup = Coup()

    def deal(values, weight):
        cards = iter(values)

        def draw(hand):
            card = next(cards, None)
            if card is None:
                raise _Short()
            return _CODE[card]

        try:
            synth.play(coup, draw)
        except _Short:
            for value in range(10):
                remaining = left[value] - values.count(value)
                if remaining:
                    deal(values + [value], weight * remaining)
            return
        rest = 1
        for used in range(len(values), 6):
            rest *= total - used
        wins[coup.winner(0)] += weight * rest

    deal([], 1)
    return wins


@covers("F-RESULTS")
def test_the_tableau_with_punto_banco_choices_gives_the_exact_published_odds():
    wins = enumerate_coups()
    assert sum(wins.values()) == stats.DRAWS == 312 * 311 * 310 * 309 * 308 * 307
    assert Fraction(wins[2], stats.DRAWS) == stats.PROBABILITIES["banque"]
    assert Fraction(wins[1], stats.DRAWS) == stats.PROBABILITIES["ponte"]
    assert Fraction(wins[3], stats.DRAWS) == stats.PROBABILITIES["egalite"]
    assert round(float(stats.PROBABILITIES["banque"]), 6) == 0.458653
    assert round(float(stats.PROBABILITIES["ponte"]), 6) == 0.446279
    assert round(float(stats.PROBABILITIES["egalite"]), 6) == 0.095069


def exact_two_sided(n, k, p):
    p = Fraction(p)
    pmf = [Fraction(math.comb(n, i)) * p ** i * (1 - p) ** (n - i) for i in range(n + 1)]
    return float(min(1, 2 * min(sum(pmf[:k + 1]), sum(pmf[k:]))))


@covers("F-RESULTS")
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))),
       st.sampled_from([0.458653, 0.446279, 0.095069, 0.5]))
def test_the_binomial_test_is_twice_the_smaller_exact_tail(nk, p):
    n, k = nk
    assert abs(stats.two_sided(n, k, p) - exact_two_sided(n, k, p)) <= 1e-9 * max(1e-300, exact_two_sided(n, k, p))


@covers("F-RESULTS")
def test_the_threshold_spreads_the_fleet_wide_false_alarm_rate_over_every_test():
    assert stats.threshold(3000) == stats.FALSE_ALARM / 3000
    fair = {"coups": 1000, "banque": 459, "ponte": 446, "egalite": 95}
    skewed = {"coups": 1000, "banque": 560, "ponte": 360, "egalite": 80}
    found = stats.outlying({"fair": fair, "skewed": skewed})
    assert {group for group, *_ in found} == {"skewed"}
    assert {outcome for _, outcome, *_ in found} == {"banque", "ponte"}
