"""The tableau at the shoe: every ponte total and every cell of the chemin de fer banker's table, and the
deux tableaux rules, played card by card on the sim board (T-CF, T-DT). The expected actions are written
here from the rules in words (docs/tableau.md), not read from firmware/tableau.py."""

from firmware.records import END_TABLEAU, R_COUP_END, R_RESULT, R_STAND
from tests.core.play import play
from tests.core.req import covers

CARD = ("TS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S")  # a card of each value, 0 to 9


def _ponte(total):
    """What the ponte (or a tableau) does on a two-card total: draw, optional, stand, or natural."""
    if total <= 4:
        return "draw"
    return ("optional", "stand", "stand", "natural", "natural")[total - 5]


def _banker(total, third):
    """The chemin de fer banker on his total, against the ponte's third card (None: the ponte stood)."""
    if third is None:
        return "draw" if total <= 4 else ("optional" if total == 5 else "stand")
    if total <= 2:
        return "draw"
    if total == 3:
        return "stand" if third == 8 else ("optional" if third == 9 else "draw")
    if total == 4:
        return "draw" if 2 <= third <= 7 else ("optional" if third == 1 else "stand")
    if total == 5:
        return "draw" if 5 <= third <= 7 else ("optional" if third == 4 else "stand")
    if total == 6:
        return "draw" if third in (6, 7) else "stand"
    return "stand"


def _coup(values, *after):
    """A chemin de fer coup whose cards have these values, in the shoe's order; the dealer asks for six."""
    shoe = "shoe cards=" + ",".join(CARD[v] for v in values) + ",KD,KD,KD"
    p = play(shoe, "no_more_bets", *(after or ("draw 6",)))
    dealt = [(r["code"], r["card"]) for r in p.cards()]
    ends = p.of_type(R_COUP_END)
    return p, dealt, ends


def _two_cards(total):
    """Two card values making a total, neither a natural on its own."""
    return (total, 0) if total < 10 else (total - 10, 0)


@covers("T-CF")
def test_every_ponte_total():
    for total in range(10):
        p1, p2 = _two_cards(total)
        # Banker 7: he stands whatever happens, so only the ponte's rule decides the fifth card.
        p, dealt, ends = _coup((p1, 7, p2, 0, 3))
        expected = _ponte(total)
        if expected in ("draw", "optional"):
            assert len(dealt) == 5 and dealt[4][0] == 1, (total, dealt)  # hand 0 + 1: the ponte
        else:
            assert len(dealt) == 4, (total, dealt)
        assert ends and ends[0]["code"] == END_TABLEAU, total  # locked without "coup end"
        assert p.board.shoe.out == len(dealt)


@covers("T-CF")
def test_a_ponte_on_five_may_stand_and_may_not_stand_on_a_draw():
    p, dealt, _ = _coup((5, 6, 0, 0), "draw 4", "stand ponte", "draw 2")
    assert [r["code"] for r in p.of_type(R_STAND)] == [0]
    # The ponte stood: the banker on 6 stands against a ponte who did not draw; the coup is over.
    assert len(dealt) == 4 and p.of_type(R_COUP_END)[0]["code"] == END_TABLEAU
    refused = play("shoe cards=3S,7S,TS,TS,KD", "no_more_bets", "draw 4", "stand ponte", "draw")
    assert "refused stand: the tableau leaves this hand no choice" in refused.text()
    assert [r["code"] for r in refused.cards()] == [1, 2, 1, 2, 1]


@covers("T-CF")
def test_every_cell_of_the_chemin_de_fer_banker_table():
    cells = 0
    for banker in range(8):
        b1, b2 = _two_cards(banker)
        for third in list(range(10)) + [None]:
            if third is None:
                values = (6, b1, 0, b2, 4)  # the ponte on 6 stands
            else:
                values = (2, b1, 0, b2, third, 1)  # the ponte on 2 draws `third`
            p, dealt, ends = _coup(values)
            expected = _banker(banker, third)
            banker_cards = [c for h, c in dealt if h == 2]
            cell = (banker, third, expected, dealt)
            if expected == "stand":
                assert len(banker_cards) == 2, cell
            else:  # a draw, or an optional cell without the croupier's "stand": the card is not locked out
                assert len(banker_cards) == 3, cell
            assert ends[0]["code"] == END_TABLEAU, cell
            if expected == "optional":  # and the croupier's stand locks the shoe at once
                count = 4 if third is None else 5
                stood, dealt, ends = _coup(values, "draw %d" % count, "stand banque", "draw")
                assert len(dealt) == count and ends[0]["code"] == END_TABLEAU, cell
                assert "refused draw: shoe locked" in stood.text()
            cells += 1
    assert cells == 88


@covers("T-CF", "S-LOCK")
def test_a_natural_locks_after_four_cards_and_a_standing_banker_after_the_fifth():
    natural = play("shoe cards=4S,TS,5S,8S,2S,3S", "no_more_bets", "draw 6")
    assert natural.board.shoe.out == 4 and natural.of_type(R_COUP_END)[0]["code"] == END_TABLEAU
    assert "coup 1 result: ponte 9, banque 8; winner: ponte" in natural.text()
    # Ponte 3 draws an 8; banker on 3 must stand against an 8: locked after the fifth card.
    fifth = play("shoe cards=3S,3S,KS,KS,8S,2S", "no_more_bets", "draw 6")
    assert fifth.board.shoe.out == 5 and fifth.of_type(R_COUP_END)[0]["code"] == END_TABLEAU
    assert "coup 1 result: ponte 1, banque 3; winner: banque" in fifth.text()


@covers("T-DT", "G-DTL")
def test_deux_tableaux_each_tableau_by_the_ponte_rule_then_the_banker_by_choice():
    for total in range(10):
        t1, t1b = _two_cards(total)
        # tableau 1 on `total`, tableau 2 on 6 (stands), banker on 0: the banker may always draw.
        shoe = "shoe cards=" + ",".join(CARD[v] for v in (t1, 6, 0, t1b, 0, 0, 1, 2)) + ",KD,KD"
        p = play("game deux_tableaux_limitee", shoe, "no_more_bets", "draw 9")
        hands = [r["code"] for r in p.cards()]
        assert hands[:6] == [1, 2, 3, 1, 2, 3], total  # tableau 1, tableau 2, banker, twice
        if _ponte(total) in ("draw", "optional"):
            assert hands[6:] == [1, 3], (total, hands)  # tableau 1 draws, then the banker
        else:
            assert hands[6:] == [3], (total, hands)
        assert p.of_type(R_COUP_END)[0]["code"] == END_TABLEAU


@covers("T-DT")
def test_deux_tableaux_naturals_and_the_bankers_stand():
    banker_natural = play("game deux_tableaux_limitee", "shoe cards=2S,3S,4S,TS,TS,5S,KD", "no_more_bets",
                          "draw 9")
    assert banker_natural.board.shoe.out == 6  # the banker's 9 settles both tableaux
    both = play("game deux_tableaux_limitee", "shoe cards=8S,9S,2S,TS,TS,TS,KD", "no_more_bets", "draw 9")
    assert both.board.shoe.out == 6
    stands = play("game deux_tableaux_limitee", "shoe cards=6S,7S,2S,TS,TS,TS,KD", "no_more_bets", "draw 6",
                  "stand banque", "draw")
    assert stands.board.shoe.out == 6 and [r["code"] for r in stands.of_type(R_STAND)] == [2]
    result = stands.of_type(R_RESULT)[0]
    assert result["code"] & 0xFFF == 6 | 7 << 4 | 2 << 8  # totals: tableau 1 six, tableau 2 seven, banker two
    assert "coup 1 result: tableau1 6, tableau2 7, banque 2; tableau1: ponte, tableau2: ponte" in stands.text()


@covers("T-CF", "G-CF")
def test_without_a_reader_the_maxima_alone_apply():
    p = play("reader off", "shoe cards=4S,TS,5S,8S,2S,3S,KD", "no_more_bets", "draw 7")
    assert p.board.shoe.out == 6  # the natural is not seen; the coup's maximum locks
    assert p.of_type(R_COUP_END)[0]["code"] != END_TABLEAU and not p.of_type(R_RESULT)
