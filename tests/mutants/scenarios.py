"""Random scenarios for the mutation run: a séance, a shoe of each game, then a croupier's, a cheat's and the
power's random actions, drawn from a seed so that a run can be repeated."""

import random
from pathlib import Path

BUNDLED = Path(__file__).resolve().parents[2] / "boards" / "sim" / "scenarios"
GAMES = ("chemin_de_fer", "deux_tableaux_limitee", "deux_tableaux_ouverte")
HANDS = (("ponte", "banque"), ("tableau1", "tableau2", "banque"))
_ACTIONS = (  # (weight, action), the action a text or a function of the rng and the game
    (30, lambda rng, game: "no_more_bets\ndraw %d" % rng.randint(1, 9)),
    (10, lambda rng, game: "coup_end"),
    (8, lambda rng, game: "stand " + rng.choice(HANDS[game != 0])),
    (5, lambda rng, game: "burn %d" % rng.randint(1, 3)),
    (3, lambda rng, game: "force"),
    (3, lambda rng, game: "double"),
    (2, lambda rng, game: "jam\ndraw\nwait 3000"),
    (6, lambda rng, game: "clear_alarm"),
    (3, lambda rng, game: "power_cut\npower_on"),
    (2, lambda rng, game: "power_cut\ndraw\npower_on"),
    (2, lambda rng, game: "jam\ndraw\npower_cut\npower_on"),  # a release under way at the cut
    (2, lambda rng, game: "seance table=%d" % rng.randint(1, 9)),
    (1, lambda rng, game: "seance_close"),
    (3, lambda rng, game: "shoe seed=%d" % rng.randrange(1000)),
    (2, lambda rng, game: "reader " + rng.choice(("on", "off"))),
    (1, lambda rng, game: "wait 70"),
)


def random_scenario(seed, actions=80):
    rng = random.Random(seed)
    game = rng.randrange(len(GAMES))
    lines = ["game " + GAMES[game], "seance table=%d" % rng.randint(1, 9)]
    if rng.random() < 0.3:  # a short stack, so that the stop card and the shoe's end come quickly
        stack = ["%s%s" % (rng.choice("A23456789TJQK"), rng.choice("SHDC")) for _ in range(rng.randint(8, 40))]
        lines.append("shoe cards=%s stop_after=%d" % (",".join(stack), rng.randint(0, len(stack))))
    else:
        lines.append("shoe seed=%d" % rng.randrange(1000))
    weights = [w for w, _ in _ACTIONS]
    for _ in range(actions):
        _, action = rng.choices(_ACTIONS, weights)[0]
        lines.append(action(rng, game))
    return "\n".join(lines) + "\n"


def scenarios(seeds):
    """The bundled scenarios, then `seeds` random ones."""
    texts = [p.read_text() for p in sorted(BUNDLED.glob("*.txt"))]
    return texts + [random_scenario(seed) for seed in range(seeds)]
