"""Whole shoes from many seeds: every coup the shoe dealt, re-dealt here by an independent reading of the
tableau, gives the same hands, totals and winners as the shoe's result records (T-CF, T-DT)."""

import pytest

from boards.sim.board import SimBoard
from boards.sim.devices import SimWall
from boards.sim.flash import MemoryStorage
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.records import DEALT, R_CARD, R_COUP_END, R_RESULT
from tests.core.play import journal_records


def points(card):
    rank = card % 13 + 1
    return rank if rank < 10 else 0


def total(values):
    return sum(values) % 10


def banker_draws(banker, third):
    """Chemin de fer: the banker's table, optional cells counted as draws (no stand was announced)."""
    if third is None:
        return banker <= 5
    return {0: True, 1: True, 2: True, 3: third != 8, 4: 1 <= third <= 7, 5: 4 <= third <= 7,
            6: third in (6, 7), 7: False}[banker]


def deal_chemin_de_fer(cards):
    """The hands a chemin de fer coup gives, from its cards in the shoe's order: [ponte, banker]."""
    ponte, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    rest = list(cards[4:])
    if total(ponte) >= 8 or total(banker) >= 8:
        return [ponte, banker]
    third = None
    if total(ponte) <= 5:
        ponte.append(rest.pop(0))
        third = ponte[2]
    if banker_draws(total(banker), third):
        banker.append(rest.pop(0))
    return [ponte, banker]


def deal_deux_tableaux(cards):
    """[tableau 1, tableau 2, banker] from a deux tableaux coup's cards; the banker draws unless natural."""
    hands = [[cards[0], cards[3]], [cards[1], cards[4]], [cards[2], cards[5]]]
    rest = list(cards[6:])
    if total(hands[2]) >= 8:
        return hands
    for hand in hands[:2]:
        if total(hand) <= 5:
            hand.append(rest.pop(0))
    if not (total(hands[0]) >= 8 and len(hands[0]) == 2 and total(hands[1]) >= 8 and len(hands[1]) == 2):
        hands[2].append(rest.pop(0))
    return hands


def coups(records):
    """(dealt card records, result record) for each coup of the journal."""
    found, cards = [], []
    for r in records:
        if r["type"] == R_CARD and r["disposition"] == DEALT:
            cards.append(r)
        elif r["type"] == R_RESULT:
            result = r
        elif r["type"] == R_COUP_END:
            found.append((cards, result))
            cards, result = [], None
    return found


@pytest.mark.req("T-CF", "T-DT", "G-CF", "G-DTL", "G-DTO")
@pytest.mark.parametrize("game,deal,seeds", [
    ("chemin_de_fer", deal_chemin_de_fer, range(1, 21)),
    ("deux_tableaux_limitee", deal_deux_tableaux, range(1, 11)),
    ("deux_tableaux_ouverte", deal_deux_tableaux, range(11, 16)),
])
def test_every_coup_of_whole_shoes_matches_an_independent_deal(game, deal, seeds):
    checked = 0
    for seed in seeds:
        storage = MemoryStorage(1 << 22)
        run(parse("seance\ngame %s\nshoe seed=%d\n" % (game, seed) + "no_more_bets\ndraw 9\n" * 90), SimBoard(storage))
        for cards, result in coups(journal_records(storage)):
            values = [points(r["card"]) for r in cards]
            hands = deal(values)
            assert len(values) == sum(len(h) for h in hands), (seed, values, hands)  # no card more, none less
            where = [r["code"] - 1 for r in cards]
            for index, hand in enumerate(hands):
                assert [v for v, h in zip(values, where) if h == index] == hand, (seed, values, where)
            totals = [result["code"] >> 4 * i & 15 for i in range(len(hands))]
            assert totals == [total(h) for h in hands]
            for tableau in range(len(hands) - 1):
                mine, bank = total(hands[tableau]), total(hands[-1])
                expected = 1 if mine > bank else 2 if bank > mine else 3
                assert result["code"] >> 12 + 2 * tableau & 3 == expected
            checked += 1
    print("\n%s: %d coups re-dealt, all matching" % (game, checked))
    assert checked > 15 * len(seeds)


def _rogue_journal(folder, cards, result):
    """A journal as a shoe that ignores the tableau would write it, signed with the development key: one
    chemin de fer coup of (hand, card) pairs, then the result record given."""
    from firmware import journal, layout
    from firmware.cards import parse as card
    from firmware.controller import Controller
    from firmware.devkey import DEVELOPMENT_KEY
    from firmware.mac import Key
    from firmware.records import NORMAL, R_BOOT, R_LOAD, R_NO_MORE_BETS, R_RELEASE, R_SEANCE
    from firmware.storage import FileStorage

    wall = SimWall(lambda: 1000, 0)
    log = journal.Journal(FileStorage(str(folder)), Key(DEVELOPMENT_KEY), 1, bytes(16), wall)
    log.recover(Controller())
    body = bytearray(layout.BODY_SIZE)

    def record(kind, position=0, code=0, card_code=0, disposition=0, condition=NORMAL, taille=1, coup=1, seance=1):
        journal.pack_body(body, kind, seance, taille, coup, position, card_code, disposition, condition, code)
        log.append(body)

    record(R_BOOT, taille=0, coup=0, seance=0)
    record(R_SEANCE, code=1, taille=0, coup=0)
    record(R_LOAD, coup=0)
    record(R_NO_MORE_BETS)
    for position, (hand, text) in enumerate(cards, 1):
        record(R_RELEASE, position - 1, code=1)
        record(R_CARD, position, code=hand + 1, card_code=card(text), disposition=DEALT)
    record(R_RESULT, len(cards), code=result[0], card_code=result[1], disposition=2)
    record(R_COUP_END, len(cards), code=2)
    log.close()


@pytest.mark.req("T-CF", "H-VERIFY")
def test_verify_flags_a_card_the_tableau_forbids_and_a_result_that_does_not_match(tmp_path):
    from firmware.devkey import DEVELOPMENT_KEY
    from sabot.verify import check

    cases = {
        # Ponte 9 and banker 8 are shown: a fifth card to the ponte is a false draw.
        "after a natural": ([(0, "4S"), (1, "TS"), (0, "5S"), (1, "8S"), (0, "2S")], (1 | 8 << 4 | 2 << 12, 0)),
        # Ponte 3 draws an 8; the banker on 3 must stand against an 8, yet draws.
        "banker must stand": ([(0, "3S"), (1, "3S"), (0, "KS"), (1, "KS"), (0, "8S"), (1, "5S")],
                              (1 | 8 << 4 | 2 << 12, 0)),
        # A lawful coup whose recorded result names the wrong winner.
        "wrong result": ([(0, "4S"), (1, "TS"), (0, "5S"), (1, "8S")], (9 | 8 << 4 | 2 << 12, 0)),
    }
    for name, (dealt, result) in cases.items():
        folder = tmp_path / name.replace(" ", "-")
        _rogue_journal(folder, dealt, result)
        _, _, findings = check([folder], DEVELOPMENT_KEY)
        tableau = [f.message for f in findings if f.id == "T-CF"]
        if name == "wrong result":
            assert tableau == ["the result recorded does not match the cards dealt (ponte 9, banque 8)"], tableau
        else:  # the faux tirage, and the coup the shoe did not end where the tableau does
            assert any("drawn to" in m for m in tableau), tableau
            assert any("no record of the coup's result" in m for m in tableau), tableau
        assert all(f.id == "T-CF" for f in findings), [(f.id, f.message) for f in findings]
