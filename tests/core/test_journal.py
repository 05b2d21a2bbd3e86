"""The journal when flash fills or fails, and across power cuts: no card is dealt unlogged (J-DURABLE)."""

from firmware.events import EV_CLEAR, EV_DRAW, EV_NO_MORE_BETS
from firmware.records import (
    ALARM_FORCED,
    FAULT_JOURNAL,
    FAULT_JOURNAL_FULL,
    R_BOOT,
    R_CARD,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RECOVERY,
    R_RELEASE,
    R_SEANCE,
)
from tests.core.play import play
from tests.core.req import covers

TWELVE = "shoe cards=AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS"


@covers("J-DURABLE", "S-FAILSAFE")
def test_a_write_error_during_a_coup_locks_the_shoe_and_nothing_more_is_dealt():
    p = play(TWELVE, "no_more_bets", "draw 2")
    board = p.board
    board.press(EV_DRAW)  # the intent is durable, the gate opens
    assert board.gate.is_open
    p.storage.failing = True
    board.shoe.pull()  # the card leaves; its record cannot be written
    assert not board.gate.is_open and p.ctl.locked() and p.ctl.raised(FAULT_JOURNAL)
    for event in (EV_DRAW, EV_CLEAR, EV_NO_MORE_BETS, EV_DRAW):
        board.press(event)
        board.shoe.pull()
    assert board.shoe.out == 3 and not board.gate.is_open
    assert p.ctl.locked()  # the supervisor's clear cannot be journalled either: still locked
    written = [r["type"] for r in p.records()]
    assert written.count(R_CARD) == 2 and written[-1] == R_RELEASE


@covers("J-DURABLE")
def test_after_a_write_error_a_power_cycle_reports_the_uncertain_release():
    p = play(TWELVE, "no_more_bets", "draw 2")
    p.board.press(EV_DRAW)
    p.storage.failing = True
    p.board.shoe.pull()
    p.board.power_cut()
    p.storage.failing = False
    p.board.power_on()
    last = p.records()[-2:]
    assert [r["type"] for r in last] == [R_BOOT, R_RECOVERY]
    assert last[1]["condition"] == 1  # a deal release: whether its card left is unknown
    assert not p.ctl.alarms  # the journal works again; the shoe waits for the croupier
    assert "whether a card left is UNKNOWN" in p.text()


@covers("J-DURABLE", "J-EVENTS")
def test_flash_never_fills_silently_the_shoe_locks_while_there_is_room_to_say_why():
    p = play("shoe seed=3", *["no_more_bets\ndraw 6"] * 60, capacity=16000)
    kinds = [r["type"] for r in p.records()]
    alarms = p.alarms()
    assert alarms == [FAULT_JOURNAL_FULL]
    assert p.ctl.locked() and "journal flash nearly full" in p.text()
    assert p.board.shoe.out == kinds.count(R_CARD) > 50  # every card that left has its record
    assert "refused draw: alarm raised" in p.text()
    assert p.storage.free() > 0


@covers("J-EVENTS", "S-IDENT")
def test_the_journal_holds_boot_seance_shoe_coups_alarms_and_clears():
    p = play("seance table=9", "shoe seed=1", "no_more_bets", "draw 4", "coup_end", "force", "clear_alarm")
    kinds = [r["type"] for r in p.records()]
    for kind in (R_BOOT, R_SEANCE, R_LOAD, R_NO_MORE_BETS, R_RELEASE, R_CARD):
        assert kind in kinds
    assert p.alarms() == [ALARM_FORCED]
    assert "supervisor cleared: forced extraction" in p.text()


@covers("J-DURABLE")
def test_each_release_intent_is_journalled_before_the_gate_opens():
    p = play(TWELVE, "no_more_bets")
    seen = []
    opened = p.board.gate.open

    def open_gate():
        seen.append(p.records()[-1]["type"])
        opened()

    p.board.gate.open = open_gate
    for _ in range(4):
        p.board.advance(500)
        p.board.press(EV_DRAW)
        p.board.shoe.pull()
    assert seen == [R_RELEASE] * 4
