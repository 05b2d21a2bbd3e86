"""A synthetic fleet for the tests and the bench: seeded casinos, tables, sabots and séances, each sabot's journal
written by the firmware's own writer (firmware.journal) as the shoe writes it, its coups dealt by the firmware's
tableau from shuffled six-deck shoes, with the punto banco choice on each optional cell (the probabilities of
sabot.fleet.stats). A clean casino rotates its sabots: each séance the sabots idle longest, none at the table it
had the séance before. Planted anomalies, each named in the plan returned: a shoe dealt in the order of an
earlier one (across casinos, and by one sabot without a reshuffle), a stacked shoe that favours the banker, a
sabot always at the same table, and a sabot that stops reporting."""

import json
import random
from pathlib import Path

from firmware import journal, layout
from firmware.cards import STOP
from firmware.controller import Controller
from firmware.storage import FileStorage
from firmware.tableau import NONE, OPTIONAL, Coup
from sabot.fleet import schema
from sabot.verify import read_key

FIRMWARE = b"fleet-synth\0\0\0\0\0"
DAY_MS = 86_400_000
START_MS = 2219 * DAY_MS  # 2026-01-28 (days since 2020-01-01): a nine-day fleet spans two months
_DECKS = 6
_STOP_AT = 306  # the stop card's position: seven cards behind it (G-CF)
_CARD_MS = 1_500
_COUP_MS = 45_000
_EVENING_MS = 20 * 3_600_000
_STACK_TRIES = 40  # rearrangements tried to make a stacked shoe's next coup the banker's
_BANQUE = 2  # Coup.winner()
_STACKED_SHARE = 0.5  # of a stacked shoe's coups arranged for the banker
_RETRIES = 200  # random assignments tried before accepting one that repeats a table


def punto_banco_stands(coup, hand):
    """Whether the banker stands on an optional cell as punto banco plays it: on 4 against a third card of 1; on
    the other optional cells he draws, and so does the ponte on 5 (docs/tableau.md)."""
    return hand == 1 and coup.totals[1] == 4 and coup.counts[0] == 3 and coup.third[0] == 1 and \
        coup.rule(1) == OPTIONAL


def play(coup, draw, stand=None):
    """Deal a chemin de fer coup by the tableau: draw(hand) gives each card, stand(hand) hears each stand."""
    coup.start(False)
    hand = coup.next_hand()
    while hand != NONE:
        if punto_banco_stands(coup, hand):
            coup.stood[hand] = 1
            if stand:
                stand(hand)
        else:
            coup.add(hand, draw(hand))
        hand = coup.next_hand()


def shuffled(rng):
    cards = list(range(52)) * _DECKS
    rng.shuffle(cards)
    return cards


def stack(cards, at, rng, coup):
    """Swap cards from `at` with cards further down until the next coup is the banker's: a pre-arranged shoe."""
    for _ in range(_STACK_TRIES):
        deck = iter(cards[at:])
        play(coup, lambda hand, deck=deck: next(deck))
        if coup.winner(0) == _BANQUE:
            return
        i = at + rng.randrange(6)
        j = rng.randrange(at + 6, len(cards))
        cards[i], cards[j] = cards[j], cards[i]


class _Shoe:
    """One sabot's journal, written record by record through the firmware's Journal, on its own clock."""

    def __init__(self, folder, sabot, key):
        self.now = 0
        self.ctl = Controller()
        self.seconds = self.ms = 0
        self.log = journal.Journal(FileStorage(str(folder)), journal.Key(key), sabot, FIRMWARE, self)
        self.log.recover(self.ctl)
        self.body = bytearray(layout.BODY_SIZE)
        self.seance = self.taille = self.coup = self.position = 0
        self.hands = Coup()

    def stamp(self):
        """The journal's wall clock (seconds since 2020 and ms): each record a card's time after the last."""
        self.now += _CARD_MS
        self.seconds, self.ms = divmod(self.now, 1000)

    def record(self, rtype, card=0, disposition=schema.DEALT, code=0, condition=0):
        if self.log.due():
            self.log.rotate(self.ctl)
        journal.pack_body(self.body, rtype, self.seance, self.taille, self.coup, self.position, card, disposition,
                          condition, code)
        self.log.append(self.body)

    def open_seance(self, moment, table, employee):
        self.now = max(self.now, moment)
        if self.log.seq:
            self.log.rotate(self.ctl)  # a new segment each séance, as the shoe starts one
        self.seance += 1
        self.record(schema.R_SEANCE, 0, employee & 255, table, employee >> 8)

    def deal(self, cards, coups, rng, stacked=False):
        """A taille of 312 cards: one to three burned, then coups until `coups` (None: the stop card's coup)."""
        self.taille += 1
        self.coup = self.position = 0
        self.record(schema.R_LOAD)
        at = [0]
        stop = [False]

        def take():
            if self.position + 1 == _STOP_AT:
                self.record(schema.R_RELEASE, code=2)
                self.position += 1
                self.record(schema.R_CARD, STOP, schema.STOP_CARD)
                stop[0] = True
            self.record(schema.R_RELEASE, code=1)
            self.position += 1
            at[0] += 1
            return cards[at[0] - 1]

        def draw(hand):
            card = take()
            self.record(schema.R_CARD, card, code=hand + 1)
            return card

        for _ in range(1 + rng.randrange(3)):
            self.record(schema.R_CARD, take(), schema.BURNED)
        while not stop[0] and (coups is None or self.coup < coups):
            if stacked and rng.random() < _STACKED_SHARE:
                stack(cards, at[0], rng, self.hands)
            self.coup += 1
            self.now += _COUP_MS
            self.record(schema.R_NO_MORE_BETS)
            coup = self.hands
            play(coup, draw, lambda hand: self.record(schema.R_STAND, code=hand))
            self.record(schema.R_RESULT, coup.counts[0] | coup.counts[1] << 2, coup.hands, coup.packed_result())
            self.record(schema.R_COUP_END, code=2)
        if stop[0]:
            self.record(schema.R_CLOSED)
        self.record(schema.R_SEANCE_CLOSE)


def _casinos(rng, sabots):
    """[(name, tables, sabots)] until the fleet has at least `sabots` sabots: 3 to 8 tables, 1 or 2 sabots spare."""
    found = []
    total = 0
    while total < sabots:
        tables = rng.randint(3, 8)
        count = tables + rng.randint(1, 2)
        found.append(("c%03d" % (len(found) + 1), tables, count))
        total += count
    return found


def _schedule(rng, tables, count, days, fixed=None, gone=None):
    """{sabot: [(day, table)]}: each day the sabots idle longest, none at its last table; `fixed` always at table 1,
    `gone` not after the first day."""
    last_day = {s: -1 for s in range(1, count + 1)}
    last_table = {}
    plan = {s: [] for s in last_day}
    for day in range(days):
        free = [s for s in last_day if s != fixed and not (s == gone and day)]
        rng.shuffle(free)
        free.sort(key=lambda s: (s != gone, last_day[s]))
        chosen = free[:tables - (fixed is not None)]
        numbers = list(range(2 if fixed else 1, tables + 1))
        for _ in range(_RETRIES):
            rng.shuffle(numbers)
            if all(last_table.get(s) != t for s, t in zip(chosen, numbers)):
                break
        pairs = list(zip(chosen, numbers)) + ([(fixed, 1)] if fixed else [])
        for sabot, table in pairs:
            plan[sabot].append((day, table))
            last_day[sabot] = day
            last_table[sabot] = table
    return plan


def generate(root, seed, sabots=1000, days=9, coups=6, anomalies=True):
    """Journals root/CASINO/sabot-NNNN/ for a fleet of at least `sabots` sabots over `days` days of séances of
    `coups` coups each (None: whole tailles, to the stop card); writes and returns the plan (plan.json)."""
    root = Path(root)
    if root.exists() and any(root.iterdir()):
        raise FileExistsError("%s: not empty; a fleet is generated into a new folder" % root)
    rng = random.Random(seed)
    key = read_key(None)  # the development key: the simulator's, never a casino shoe's
    casinos = _casinos(rng, sabots)
    if anomalies and len(casinos) < 2:
        raise ValueError("planted anomalies need two casinos: ask for more sabots")
    first, second, last = casinos[0][0], casinos[1 % len(casinos)][0], casinos[-1][0]
    planted = {}
    if anomalies:
        planted = {"same_table": [first, 1, 1], "missing": [first, 2], "biased": [second, 1],
                   "repeat_across": [[last, 2, 3], [first, 3, 1]], "repeat_same": [[second, 3, 2], [second, 3, 1]]}
    repeats = [planted["repeat_across"], planted["repeat_same"]] if planted else []
    shoes = {}  # (casino, sabot, taille) -> its cards, for the planted repeats
    plan = {"seed": seed, "days": days, "coups": coups, "start_ms": START_MS, "planted": planted, "casinos": {}}
    for name, tables, count in casinos:
        fixed = 1 if planted and name == first else None
        gone = 2 if planted and name == first else None
        schedule = _schedule(rng, tables, count, days, fixed, gone)
        plan["casinos"][name] = {"tables": tables, "sabots": count}
        (root / name).mkdir(parents=True)
        for sabot, seances in schedule.items():
            shoe = _Shoe(root / name / ("sabot-%04d" % sabot), sabot, key)
            biased = planted.get("biased") == [name, sabot]
            for taille, (day, table) in enumerate(seances, 1):
                deal_rng = random.Random("%d/%s/%d/%d" % (seed, name, sabot, taille))
                cards = shuffled(deal_rng)
                here = [name, sabot, taille]
                for later, earlier in repeats:  # each earlier taille is written before its repeat
                    if here == earlier:
                        shoes[tuple(here)] = list(cards)
                    if here == later:
                        cards = list(shoes[tuple(earlier)])
                shoe.open_seance(START_MS + day * DAY_MS + _EVENING_MS + table * 60_000, table,
                                 1000 + rng.randrange(50))
                shoe.deal(cards, None if biased else coups, deal_rng, stacked=biased)
            shoe.log.close()
    (root / "plan.json").write_text(json.dumps(plan, indent=1) + "\n", encoding="utf-8")
    return plan
