"""The shoe's rules as a croupier and a supervisor meet them, played on the sim board.

Runs under pytest on CPython and under tests/mp_runner.py on the MicroPython VM.
"""

from firmware import cards, games, layout
from firmware.controller import BETS, CLOSED, JAM_MS
from firmware.events import EV_DRAW, EV_NO_MORE_BETS
from firmware.records import (
    ALARM_FORCED,
    BURNED,
    DEALT,
    DOUBLE_FEED,
    F_FOREIGN_CARD,
    F_SHORT_COUP,
    F_STOP_POSITION,
    FAULT_DOUBLE_FEED,
    FAULT_JAM,
    FORCED,
    NORMAL,
    R_CLOSED,
    R_COUP_END,
    R_FINDING,
    R_LOAD,
    R_SEANCE,
    STOP_CARD,
)
from tests.core.play import play
from tests.core.req import covers

TWELVE = "shoe cards=AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS"


def dealt(played):
    return [r for r in played.cards() if r["disposition"] == DEALT]


@covers("S-LOCK")
def test_nothing_leaves_a_locked_shoe_by_drawing():
    p = play(TWELVE, "draw 5", "no_more_bets", "draw 2", "coup_end", "draw 3")
    assert p.board.shoe.out == 2
    assert len(p.cards()) == 2
    assert p.text().count("refused draw: shoe locked") == 8
    assert p.board.gate.releases == 2


@covers("S-ONE", "S-LOCK")
def test_each_release_lets_exactly_one_card_out():
    p = play("shoe seed=7", "no_more_bets", "draw 4", "coup_end")
    assert p.board.gate.releases == 4
    assert p.board.shoe.out == 4
    assert [r["position"] for r in p.cards()] == [1, 2, 3, 4]
    assert not p.board.gate.is_open


@covers("S-LOCK", "G-CF", "G-DTL", "G-DTO")
def test_the_coup_maximum_locks_the_shoe_without_coup_end():
    for name, most in (("chemin_de_fer", 6), ("deux_tableaux_limitee", 9), ("deux_tableaux_ouverte", 9)):
        p = play("game " + name, "reader off", "shoe seed=3", "no_more_bets", "draw 12")  # no tableau: maxima
        assert len(dealt(p)) == most, name
        assert p.of_type(R_COUP_END)[0]["coup"] == 1
        assert p.ctl.phase == BETS and p.ctl.locked()
        assert p.text().count("refused draw: shoe locked") == 12 - most


@covers("G-CF", "G-DTL")
def test_a_coup_under_the_game_minimum_is_a_finding():
    for name, least in (("chemin_de_fer", 4), ("deux_tableaux_limitee", 6)):
        short = play("game " + name, "shoe seed=1", "no_more_bets", "draw %d" % (least - 1), "coup_end")
        assert short.findings() == [F_SHORT_COUP], name
        full = play("game " + name, "shoe seed=1", "no_more_bets", "draw %d" % least, "coup_end")
        assert full.findings() == [], name


@covers("G-CF", "G-DTL", "G-DTO", "S-STOPPOS")
def test_a_full_shoe_holds_the_games_decks_and_the_stop_card_where_the_rule_puts_it():
    for game, decks, behind in ((0, 6, 7), (1, 3, 10), (2, 6, 10)):
        p = play("game " + games.GAMES[game][games.NAME], "shoe seed=11")
        stack = list(p.board.shoe.stack)
        assert len(stack) == decks * 52 + 1
        assert len(stack) - 1 - stack.index(cards.STOP) == behind
        for card in range(52):
            assert stack.count(card) == decks


@covers("S-STOP", "S-STOPPOS")
def test_after_the_stop_cards_coup_no_more_bets_is_refused_until_a_new_shoe():
    p = play(TWELVE + " stop_after=5", "no_more_bets", "draw 4", "coup_end",
             "no_more_bets", "draw 5", "coup_end", "no_more_bets", "draw 2")
    stop = [r for r in p.cards() if r["card"] == cards.STOP][0]
    assert stop["disposition"] == STOP_CARD and stop["coup"] == 2 and stop["position"] == 6
    # The coup in progress finished: its four cards after the one before the stop card.
    assert [r["coup"] for r in dealt(p)] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert len(p.of_type(R_CLOSED)) == 1 and p.ctl.phase == CLOSED
    assert "refused no more bets: shoe closed after the stop card" in p.text()
    assert p.board.shoe.out == 9
    again = play(TWELVE + " stop_after=0", "no_more_bets", "draw 5", "coup_end", "no_more_bets",
                 "shoe seed=4", "no_more_bets", "draw 4", "coup_end")
    assert [r["taille"] for r in dealt(again)] == [1, 1, 1, 1, 2, 2, 2, 2]


@covers("S-STOP")
def test_a_stop_card_burned_between_coups_closes_the_shoe_at_once():
    p = play(TWELVE + " stop_after=4", "no_more_bets", "draw 4", "coup_end", "burn", "no_more_bets", "draw")
    assert p.cards()[-1]["disposition"] == STOP_CARD
    assert p.ctl.phase == CLOSED
    assert p.board.shoe.out == 5


@covers("S-STOPPOS")
def test_a_misplaced_stop_card_is_a_finding_and_a_well_placed_one_is_not():
    p = play(TWELVE + " stop_after=3", "no_more_bets", "draw 5", "coup_end")
    assert p.findings() == [F_STOP_POSITION]
    assert "stop card misplaced" in p.text()
    # A full shoe: 305 cards, then the stop card with 7 behind it.
    full = play("shoe seed=5", "burn 305", "burn")
    assert full.cards()[-1]["card"] == cards.STOP
    assert full.findings() == []


@covers("S-COUNT")
def test_an_identity_over_the_deck_count_is_a_foreign_card():
    seven_aces = "shoe cards=" + ",".join(["AS"] * 7 + ["KD"])
    p = play("game chemin_de_fer", seven_aces, "no_more_bets", "draw 6", "coup_end", "no_more_bets", "draw 2")
    foreign = p.of_type(R_FINDING)
    assert [(r["code"], r["card"], r["position"]) for r in foreign] == [(F_FOREIGN_CARD, cards.parse("AS"), 7)]
    three = play("game deux_tableaux_limitee", "shoe cards=AS,AS,AS,AS", "burn 4")
    assert [(r["card"], r["position"]) for r in three.of_type(R_FINDING)] == [(cards.parse("AS"), 4)]


@covers("S-FORCED")
def test_forced_cards_are_burned_and_the_alarm_holds_the_lock_until_the_supervisor_clears_it():
    p = play(TWELVE, "force 2", "no_more_bets", "draw 2", "coup_end", "burn", "clear_alarm",
             "no_more_bets", "draw 4", "coup_end")
    forced = p.cards()[:2]
    assert [(r["disposition"], r["condition"]) for r in forced] == [(BURNED, FORCED), (BURNED, FORCED)]
    assert p.alarms() == [ALARM_FORCED, ALARM_FORCED]
    assert p.text().count("refused no more bets: alarm raised") == 1
    assert p.text().count("refused burn: alarm raised") == 1
    assert [r["position"] for r in dealt(p)] == [3, 4, 5, 6]
    assert "supervisor cleared: forced extraction" in p.text()


@covers("S-FORCED")
def test_a_card_forced_mid_coup_pauses_the_coup_which_resumes_after_the_clear():
    p = play("reader off", TWELVE, "no_more_bets", "draw 2", "force", "draw", "clear_alarm", "draw", "no_more_bets",
             "draw 5")
    assert [(r["coup"], r["condition"]) for r in p.cards()] == [(1, NORMAL)] * 2 + [(1, FORCED)] + [(1, NORMAL)] * 4
    assert p.of_type(R_COUP_END)[0]["position"] == 7  # the forced card does not count towards the maximum


@covers("S-ONE")
def test_a_double_feed_is_a_fault_and_the_extra_card_is_burned():
    p = play(TWELVE, "no_more_bets", "draw", "double", "draw", "draw", "clear_alarm", "no_more_bets", "draw")
    conditions = [(r["disposition"], r["condition"]) for r in p.cards()]
    assert conditions == [(DEALT, NORMAL), (DEALT, NORMAL), (BURNED, DOUBLE_FEED), (DEALT, NORMAL)]
    assert p.alarms() == [FAULT_DOUBLE_FEED]
    assert p.board.shoe.out == 4 and p.board.gate.releases == 3


@covers("S-ONE")
def test_a_release_that_brings_no_card_is_a_jam_fault():
    p = play(TWELVE, "no_more_bets", "draw", "jam", "draw", "wait %d" % JAM_MS, "draw", "clear_alarm",
             "no_more_bets", "draw")
    assert p.alarms() == [FAULT_JAM]
    assert not p.board.gate.is_open
    assert "refused draw: alarm raised" in p.text()
    assert len(dealt(p)) == 2


@covers("S-BURN")
def test_burning_is_allowed_between_coups_only_and_each_burned_card_is_logged():
    p = play(TWELVE, "burn 2", "no_more_bets", "draw 2", "burn", "coup_end", "burn")
    assert [r["disposition"] for r in p.cards()] == [BURNED, BURNED, DEALT, DEALT, BURNED]
    assert [r["coup"] for r in p.cards()] == [0, 0, 1, 1, 1]
    assert "refused burn: a coup is under way" in p.text()
    assert p.board.shoe.out == 5


@covers("S-FAILSAFE")
def test_after_a_power_cut_the_gate_is_locked_and_the_shoe_waits_for_the_croupier():
    p = play("reader off", TWELVE, "no_more_bets", "draw 3", "power_cut", "draw", "power_on", "draw",
             "no_more_bets", "draw 3")
    assert not p.board.gate.is_open
    assert p.text().count("refused draw: shoe locked") == 1
    # The coup resumes where it stopped: 3 + 3 cards, then the maximum locks.
    assert [(r["coup"], r["position"]) for r in dealt(p)] == [(1, i) for i in range(1, 7)]
    assert p.board.shoe.out == 6


@covers("S-FAILSAFE")
def test_an_error_while_handling_an_event_leaves_the_gate_locked():
    p = play(TWELVE, "no_more_bets")
    p.board.press(EV_DRAW)
    assert p.board.gate.is_open

    class Broken:
        def sound(self, pattern):
            raise RuntimeError("buzzer wiring")

    p.board.shell.buzzer = Broken()
    try:
        p.board.press(EV_NO_MORE_BETS)  # refused, so the buzzer sounds, and fails
        raised = False
    except RuntimeError:
        raised = True
    assert raised and not p.board.gate.is_open


@covers("S-FAILSAFE", "S-FORCED")
def test_an_alarm_survives_a_power_cut():
    p = play(TWELVE, "force", "power_cut", "power_on", "no_more_bets", "draw")
    assert p.ctl.alarms == 1 << ALARM_FORCED - 1  # that alarm, and no other
    assert p.board.shoe.out == 1


@covers("G-DTO")
def test_banque_ouverte_allows_two_tailles_per_seance():
    p = play("game deux_tableaux_ouverte", "seance table=2", "shoe seed=1", "shoe seed=2", "shoe seed=3",
             "seance table=4", "shoe seed=4")
    assert [(r["seance"], r["taille"]) for r in p.of_type(R_LOAD)] == [(1, 1), (1, 2), (2, 3)]
    assert "refused load: two tailles already in this séance" in p.text()
    limited = play("game deux_tableaux_limitee", "shoe seed=1", "shoe seed=2", "shoe seed=3")
    assert len(limited.of_type(R_LOAD)) == 3


@covers("S-IDENT", "J-EVERY")
def test_a_seance_records_its_table_and_every_card_record_says_where_it_belongs():
    p = play("seance table=7", "shoe seed=9", "burn", "no_more_bets", "draw 4", "coup_end")
    assert [r["code"] for r in p.of_type(R_SEANCE)] == [7]
    records = p.cards()
    assert [r["seq"] for r in p.records()] == list(range(1, len(p.records()) + 1))
    for r in records:
        assert r["seance"] == 1 and r["taille"] == 1 and r["card"] < cards.STOP
    assert [r["position"] for r in records] == [1, 2, 3, 4, 5]
    assert [r["coup"] for r in records] == [0, 1, 1, 1, 1]
    times = [r["seconds"] * 1000 + r["ms"] for r in records]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert times[0] // 1000 + layout.EPOCH_2020 > 1764460800  # after 2025-11-30: a wall clock, not uptime
