"""What the journal can count bounds a whole scenario (docs/scenarios.md), checked by `sabot sim` before any runtime
runs it: a card's count in a shoe is a byte, the coup, séance and taille numbers and a card's position 16 bits, the
shoes of a séance a byte, and the wall clock's seconds stay under 2**30 (docs/architecture.md). A module apart from
the parser: the VM's runner never loads it, and the whole shoe's run keeps within a 65 KB heap (H-SIM)."""

from boards.sim.scenario import _COUNTED, ScenarioError
from firmware import cards, games

MAX_ACTIONS = 65535  # each adds at most one to a 16-bit number
MAX_OF_A_CARD = 255
MAX_SHOES = 255
MAX_WAIT_MS = 20 * 365 * 86400 * 1000  # twenty years in all: from the sim's 2026, the wall clock stays before 2054


def check(steps, path="<scenario>"):
    """The parsed steps (scenario.commands) of a whole scenario, or ScenarioError at the line that goes past."""
    actions = waited = shoes = 0
    of_card = [0] * cards.STOP
    game = games.CHEMIN_DE_FER
    for number, name, a, _ in steps:
        actions += a if name in _COUNTED else 1
        waited += a if name == "wait" else 0
        shoes += name.startswith("shoe")
        game = a if name == "game" else game
        over = actions > MAX_ACTIONS and "plays more than %d actions (a count N is N)" % MAX_ACTIONS
        over = over or waited > MAX_WAIT_MS and "waits more than %d ms in all (twenty years)" % MAX_WAIT_MS
        over = over or shoes > MAX_SHOES and "loads more than %d shoes" % MAX_SHOES
        for card in range(cards.STOP) if name == "shoe_seed" else a if name == "shoe_cards" else ():
            of_card[card] += games.GAMES[game][games.DECKS] if name == "shoe_seed" else 1
            over = over or of_card[card] > MAX_OF_A_CARD and "holds more than %d of the card %s in its shoes" % (
                MAX_OF_A_CARD, cards.name(card))
        if over:
            raise ScenarioError("%s:%d: the scenario %s: split it" % (path, number, over))
    return steps
