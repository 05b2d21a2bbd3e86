"""The statistics of the results checks: the exact probabilities of a chemin de fer coup and exact binomial tests,
Bonferroni-corrected over the whole fleet, so that a clean fleet raises a finding with probability at most
FALSE_ALARM, whatever its size.

The probabilities are those of a six-deck coup dealt by the tableau with the punto banco choice on each optional
cell (the Wizard of Odds' combination counts over the 312 x 311 x ... x 307 ordered six-card draws);
tests/host/test_fleet_stats.py re-derives them by enumeration through firmware.tableau. By exchangeability every
coup of a shoe, not only the first, has these odds; coups of one shoe are weakly dependent (the cards are not
replaced), which the binomial ignores."""

import math
from fractions import Fraction

DRAWS = 878869206895680  # 312 x 311 x 310 x 309 x 308 x 307
PROBABILITIES = {"banque": Fraction(403095751234560, DRAWS), "ponte": Fraction(392220492728832, DRAWS),
                 "egalite": Fraction(83552962932288, DRAWS)}
OUTCOMES = ("banque", "ponte", "egalite")
FALSE_ALARM = 0.001  # the fleet-wide probability that a clean fleet raises any results finding
_NEGLIGIBLE = 1e-17  # a term this small against the sum so far ends a tail


def _log_pmf(n, k, p):
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + \
        (n - k) * math.log1p(-p)


def _tail(n, k, p, step):
    """P(X <= k) (step -1) or P(X >= k) (step +1) for X ~ Binomial(n, p), summed outward from k until the terms,
    which shrink geometrically past the mode, no longer count."""
    total = 0.0
    i = k
    while 0 <= i <= n:
        term = math.exp(_log_pmf(n, i, p))
        total += term
        if term < total * _NEGLIGIBLE:
            break
        i += step
    return min(1.0, total)


def two_sided(n, k, p):
    """The exact two-sided p-value of k successes in n trials of probability p: twice the smaller tail, at most 1
    (a valid test: under the hypothesis it is below a with probability at most a)."""
    if n == 0:
        return 1.0
    tail = _tail(n, k, p, -1) if k < n * p else _tail(n, k, p, +1)
    return min(1.0, 2 * tail)


def threshold(tests, alarm=FALSE_ALARM):
    """The p-value under which one of `tests` tests is a finding, so that all together raise one with probability
    at most `alarm` on a clean fleet (Bonferroni: it needs no independence between the tests)."""
    return alarm / max(1, tests)


def outlying(groups, alarm=FALSE_ALARM):
    """[(group, outcome, coups, count, expected, p-value)] for the groups, {group: {"coups": n, OUTCOME: count}},
    whose count of an outcome is out of line with its exact probability, at fleet-wide false-alarm rate `alarm`."""
    limit = threshold(len(groups) * len(OUTCOMES), alarm)
    found = []
    for group, counts in groups.items():
        n = counts["coups"]
        for outcome in OUTCOMES:
            p = float(PROBABILITIES[outcome])
            value = two_sided(n, counts[outcome], p)
            if value < limit:
                found.append((group, outcome, n, counts[outcome], n * p, value))
    return found
