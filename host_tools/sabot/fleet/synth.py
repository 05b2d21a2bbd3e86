"""A synthetic fleet for the tests and the bench: seeded casinos, tables, sabots and séances, each sabot's journal
written by the firmware itself on the sim board (boards/sim): its shell and controller, driven as a croupier drives
a shoe (séance, shoe loaded, burns, "rien ne va plus", a card at each request, the punto banco choice on each
optional cell: the probabilities of sabot.fleet.stats), so that `sabot log verify` finds in a clean sabot's
journal what it finds in a shoe's, nothing. Each sabot has its secure element (the model's signatures, seeded), its
journal's checkpoints signed by it, and its public key in its casino's registry (shoes.json, as `sabot key enrol`
writes it). Each journal ends with the shoe's receipt (receipt.json), the element's. A clean
casino rotates its sabots: each séance the sabots idle longest, none at the table it had the séance before.
Planted anomalies, each named in the plan returned: a shoe dealt in the order of an earlier one (across casinos,
and by one sabot without a reshuffle), a stacked shoe that favours the banker, a sabot always at the same table,
and a sabot that stops reporting. Each sabot's cagnotte ledger (docs/cagnotte.md) beside its journal: the levy due
taken on every coup the bank won; planted, a croupier who levies 90 % of it and a coup the bank won with no levy."""

import hashlib
import json
import random
import shutil
from decimal import Decimal
from pathlib import Path

from boards.sim import runner
from boards.sim.board import SimBoard
from boards.sim.devices import SimWall
from boards.sim.scenario import parse
from firmware import games
from firmware.checkpoints import Checkpoints
from firmware.controller import CLOSED
from firmware.devkey import DEVELOPMENT_KEY
from firmware.events import EV_SEANCE
from firmware.receipt import receipt
from firmware.records import pack_seance
from firmware.storage import FileStorage
from firmware.tableau import NONE, OPTIONAL, Coup
from sabot import keys, progress, receipts
from sabot.cagnotte import coups as journal_coups
from sabot.cagnotte import levy
from sabot.fleet.synth_element import Element

DAY_MS = 86_400_000
START_MS = 2219 * DAY_MS  # 2026-01-28 (days since 2020-01-01): a nine-day fleet spans two months
_GAME = games.CHEMIN_DE_FER
_DECKS = games.GAMES[_GAME][games.DECKS]
_STOP_AFTER = _DECKS * 52 - games.GAMES[_GAME][games.STOP_BEFORE]  # cards before the stop card (S-STOPPOS)
_EVENING_MS = 20 * 3_600_000
_STACK_TRIES = 40  # rearrangements tried to make a stacked shoe's next coup the banker's
_BANQUE = 2  # Coup.winner()
_STACKED_SHARE = 0.5  # of a stacked shoe's coups arranged for the banker
_RETRIES = 200  # random assignments tried before accepting one that repeats a table
_CROUPIER = 1000  # the first employee number; a casino has two croupiers more than tables
_UNDER = Decimal("0.9")  # of the levy due, what the planted croupier levies
_TICKETS = (Decimal(5), Decimal(1), Decimal("0.1"))  # the ticket values in service (three at most, Article 59)
_SAME_TABLE = 3  # séances of the planted sabot at table 1: fleet check's default --same-table


class TooFew(ValueError):
    """A fleet too small for the anomalies it plants: said in one line (sabot fleet synth exits 2)."""


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


def arranged(cards, burns, rng):
    """A stacked shoe: before about half its coups, cards swapped until that coup is the banker's, each coup played
    here as the shoe will deal it, so that the arrangement holds when the croupier deals it."""
    cards = list(cards)
    hands = Coup()
    at = burns
    while at <= _STOP_AFTER:  # the stop card's coup is the last
        if rng.random() < _STACKED_SHARE:
            stack(cards, at, rng, hands)
        deck = iter(cards[at:])
        play(hands, lambda hand, deck=deck: next(deck))
        at += hands.counts[0] + hands.counts[1]
    return cards


class Shoe:
    """One sabot: the firmware's shell on the sim board, its journal in its folder, its checkpoints signed by its
    element (made from seed), its wall clock the fleet's."""

    def __init__(self, folder, sabot, seed):
        self.folder = folder
        self.board = SimBoard(FileStorage(str(folder)), sabot=sabot)
        self.element = Element(seed)
        self.board.checkpoints = Checkpoints(str(folder), self.element, sabot)
        self.board.key = self.board.checkpoints.key()
        self.board.wall = SimWall(lambda: self.board.clock.now, START_MS // 1000)

    def _act(self, command, a=0, b=0):
        runner.act(self.board, _GAME, command, a, b)

    def _at(self, moment):
        """The shoe's clock on to `moment` (ms since 2020), the shoe switched on for its first séance."""
        board = self.board
        if board.shell is None:
            board.clock.now = moment - START_MS
            board.power_on()
        self._act("wait", max(0, moment - START_MS - board.clock.now))

    def scenario(self, moment, text):
        """A sim scenario's commands (boards/sim/scenario.py) from `moment`: séances of another game than the
        fleet's, such as banque ouverte's (F-OUVERTE)."""
        self._at(moment)
        game = _GAME
        for _line, command, a, b in parse(text):
            game = runner.act(self.board, game, command, a, b)

    def seance(self, moment, table, employee, cards, burns, coups):
        """A séance at `table`: the shoe loaded with `cards`, `burns` burned, then `coups` coups (None: to the stop
        card's), dealt by the tableau with punto banco's choices, and the séance closed."""
        board = self.board
        self._at(moment)
        board.press(EV_SEANCE, pack_seance(table, _GAME, employee))
        self._act("shoe_cards", cards, _STOP_AFTER)
        self._act("burn", burns)
        ctl = board.shell.ctl
        dealt = 0
        while ctl.phase != CLOSED and (coups is None or dealt < coups):
            self._act("no_more_bets")
            while ctl.in_coup:
                hand = ctl.hands.next_hand()
                if punto_banco_stands(ctl.hands, hand):
                    self._act("stand", hand)
                else:
                    self._act("draw", 1)
            dealt += 1
        self._act("seance_close")

    def close(self, nonce):
        """The shoe's receipt into its folder, as `sabot pull-log` fetches it, and the power off. A spare sabot
        never dealt from was switched on all the same: its journal holds its boot."""
        if self.board.shell is None:
            self.board.power_on()
        shell = self.board.shell
        shell.checkpoints.write(shell.journal, 5)  # pull-log's checkpoint (firmware/checkpoints.py's PULL)
        (Path(self.folder) / receipts.NAME).write_text(receipt(shell.journal, nonce, shell.checkpoints) + "\n")
        self.board.close()


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


def tickets(amount):
    """The tickets detached for a levy, the largest values first: "5x2 1x2 0.1x3" for 12.30 €."""
    items = []
    for value in _TICKETS:
        count = int(amount // value)
        amount -= count * value
        if count:
            items.append("%sx%d" % (value, count))
    return " ".join(items)


def write_ledger(path, journal, key, rng, under=None, missing=False):
    """The sabot's cagnotte ledger: whole-euro stakes against the bank, the levy due taken on every coup it won;
    the séances of employee `under` levy 90 % of it and, when `missing`, the first coup it won nothing."""
    seances = {}
    coups, _ = journal_coups.read([str(journal)], key, seances)
    if not coups:
        return
    lines = ["seance,taille,coup,stake_1,stake_2,levy,tickets"]
    for coup in coups:
        stake = Decimal(rng.randrange(10, 501))
        taken = levy.due(coup.game, coup.results, (stake,))[0]
        if missing and taken:
            taken, missing = Decimal(0), False
        elif seances[coup.key[0]].employee == under:
            taken = levy.rounded(taken * _UNDER)
        lines.append("%d,%d,%d,%s,,%s,%s" % (coup.key + (stake, taken if taken else "", tickets(taken))))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def key_of(seed, casino, sabot):
    """A synthetic sabot's element's seed: the same fleet seed, the same keys."""
    return hashlib.sha256(b"sabot synth key %d/%s/%d" % (seed, casino.encode(), sabot)).digest()


def enrol(folder, shoe):
    """The sabot in its casino's registry, folder/shoes.json, as `sabot key enrol` writes it."""
    keys.record(str(Path(folder) / keys.REGISTRY), {"sabot": shoe.board.sabot, "public_key": shoe.element.public.hex(),
                                                    "casino_key": None, "enrolled": "2026-01-28T00:00:00+00:00"})


def _enough(rng, casinos, days, planted):
    """TooFew unless each planted anomaly's sabot has the séances it needs, found by a dry run of the schedules on a
    copy of the generator (the same draws as generate's, so that a seed's fleet stays the same)."""
    twin = random.Random()
    twin.setstate(rng.getstate())
    first = casinos[0][0]
    seances = {}
    for name, tables, count in casinos:
        for sabot, dealt in _schedule(twin, tables, count, days, 1 if name == first else None,
                                      2 if name == first else None).items():
            seances[(name, sabot)] = len([twin.randrange(50) for _ in dealt])  # as generate draws each croupier
    across, same = planted["repeat_across"], planted["repeat_same"]
    needs = [planted["same_table"][:2] + [_SAME_TABLE], planted["missing"] + [1], planted["biased"] + [1],
             planted["no_levy"] + [1], across[0], across[1], same[0]]
    for casino, sabot, least in needs:
        if seances.get((casino, sabot), 0) < least:
            raise TooFew("the planted anomalies need %d séance(s) of sabot %d of casino %s, which %d day(s) of "
                         "séances do not give it: ask for more --days or --sabots, or --clean" % (
                             least, sabot, casino, days))


def generate(root, seed, sabots=1000, days=9, coups=6, anomalies=True):
    """For a fleet of at least `sabots` sabots over `days` days of séances of `coups` coups each (None: whole
    tailles, to the stop card), each casino's folder as it keeps its shoes': root/CASINO/journals/sabot-NNNN/ (the
    segments, checkpoints and receipt.json, as `sabot pull-log` fetches them) and root/CASINO/shoes.json, the registry
    of its sabots' public keys (docs/keys.md); writes and returns the plan (plan.json). The fleet is written into
    a folder beside root (partial()) renamed root once whole: an interrupted run leaves no half fleet at root, and
    the next run clears what it left."""
    root = Path(root)
    if root.exists() and any(root.iterdir()):
        raise FileExistsError("%s: not empty; a fleet is generated into a new folder" % root)
    if sabots < 1:
        raise TooFew("a fleet of %d sabots: ask for 1 at least" % sabots)
    building = partial(root)
    try:
        plan = _generate(building, seed, sabots, days, coups, anomalies)
        if root.exists():
            root.rmdir()  # empty, as checked
        (building / _MARK).unlink()
        building.rename(root)
    except BaseException:  # Ctrl-C too: what this run wrote goes, nothing else
        if (building / _MARK).is_file():
            shutil.rmtree(building)
        raise
    return plan


_MARK = ".sabot-fleet-synth"  # in the folder a run is writing, and nothing else: what the next run may clear


def partial(root):
    """The folder a run writes root's fleet into, made: .ROOT.partial beside it; one an interrupted run left (its
    mark inside) cleared first; another in its way refused."""
    building = root.with_name("." + root.name + ".partial")
    if building.exists():
        if not (building / _MARK).is_file():
            raise FileExistsError("%s: in the way of the fleet's temporary folder, and not one sabot fleet synth "
                                  "left: move it" % building)
        shutil.rmtree(building)
    building.mkdir(parents=True)
    (building / _MARK).write_text("sabot fleet synth writes here, then renames it %s\n" % root.name)
    return building


def _generate(root, seed, sabots, days, coups, anomalies):
    rng = random.Random(seed)
    casinos = _casinos(rng, sabots)
    if anomalies and len(casinos) < 2:
        raise TooFew("%d sabot(s) make one casino of %d sabots; the planted anomalies need two casinos: ask for "
                     "more --sabots (%d at least), or --clean" % (sabots, casinos[0][2], casinos[0][2] + 1))
    first, second, last = casinos[0][0], casinos[1 % len(casinos)][0], casinos[-1][0]
    planted = {}
    if anomalies:
        planted = {"same_table": [first, 1, 1], "missing": [first, 2], "biased": [second, 1],
                   "repeat_across": [[last, 2, 3], [first, 3, 1]], "repeat_same": [[second, 3, 2], [second, 3, 1]],
                   "under_levy": [second, _CROUPIER], "no_levy": [first, 4]}
        _enough(rng, casinos, days, planted)
    repeats = [planted["repeat_across"], planted["repeat_same"]] if planted else []
    shoes = {}  # (casino, sabot, taille) -> its cards, for the planted repeats
    plan = {"seed": seed, "days": days, "coups": coups, "start_ms": START_MS, "planted": planted, "casinos": {}}
    shown = progress.bar(sum(count for _, _, count in casinos), "fleet synth", unit="sabot")
    for name, tables, count in casinos:
        fixed = 1 if planted and name == first else None
        gone = 2 if planted and name == first else None
        schedule = _schedule(rng, tables, count, days, fixed, gone)
        plan["casinos"][name] = {"tables": tables, "sabots": count}
        (root / name / "journals").mkdir(parents=True)
        (root / name / "ledgers").mkdir()
        for sabot, seances in schedule.items():
            shown.update(1)
            shoe = Shoe(root / name / "journals" / ("sabot-%04d" % sabot), sabot, key_of(seed, name, sabot))
            enrol(root / name, shoe)
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
                burns = 1 + deal_rng.randrange(3)
                shoe.seance(START_MS + day * DAY_MS + _EVENING_MS + table * 60_000, table,
                            _CROUPIER + rng.randrange(50) % (tables + 2),
                            arranged(cards, burns, deal_rng) if biased else cards, burns, None if biased else coups)
            shoe.close(hashlib.sha256(b"%d/%s/%d" % (seed, name.encode(), sabot)).digest())
            write_ledger(root / name / "ledgers" / ("sabot-%04d.csv" % sabot), shoe.folder, DEVELOPMENT_KEY,
                         random.Random("%d/%s/%d/ledger" % (seed, name, sabot)),
                         _CROUPIER if planted.get("under_levy", [None])[0] == name else None,
                         planted.get("no_levy") == [name, sabot])
    shown.close()
    (root / "plan.json").write_text(json.dumps(plan, indent=1) + "\n", encoding="utf-8")
    return plan
