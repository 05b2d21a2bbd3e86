"""A shoe powered for days, a year, ten years: the firmware reads time.ticks_ms(), which wraps every 2**30 ms on a
32-bit board, and its timers must work across the wrap (S-ONE). Runs on CPython and under tests/mp_runner.py on
both MicroPython VMs; tests/host/test_micropython.py runs the bundled long_uptime scenario under the heap lock."""

from firmware.controller import JAM_MS
from firmware.layout import EPOCH_2020
from firmware.records import ALARM_FORCED, FAULT_DOUBLE_FEED, FAULT_JAM
from firmware.ticks import TICKS_PERIOD, ticks_add, ticks_diff
from tests.core.play import Played, play
from tests.core.req import covers

YEAR_S = 365 * 86400


def _scenario():
    path = __file__.rsplit("/", 3)[0] + "/boards/sim/scenarios/long_uptime.txt"
    with open(path) as f:
        return f.read()


@covers("S-ONE", "J-EVERY", "S-FORCED")
def test_ten_years_of_uptime_every_card_journalled_and_every_jam_detected():
    played = Played(_scenario())
    cards = played.cards()
    assert len(cards) == played.board.shoe.out == 32
    assert played.alarms() == [FAULT_JAM, FAULT_DOUBLE_FEED, FAULT_JAM, FAULT_JAM, FAULT_DOUBLE_FEED, ALARM_FORCED]
    first, last = cards[0]["seconds"], cards[-1]["seconds"]
    assert 10 * YEAR_S <= last - first < 10 * YEAR_S + 13 * 86400
    assert EPOCH_2020 + last > EPOCH_2020  # seconds since 2020 stay a small int until 2054


def _jam_at(release_at, waited):
    """A jam released at release_at ms of uptime, the timeline then run waited ms further (the runner's own 500 ms
    gaps before each command and at the end counted)."""
    return play("shoe seed=3", "wait %d" % (release_at - 1500), "no_more_bets", "jam", "draw",
                "wait %d" % (waited - 500)).alarms()


@covers("S-ONE")
def test_a_jam_is_detected_when_its_timer_runs_across_the_ticks_wrap():
    for before_wrap in (1, JAM_MS // 2, JAM_MS - 1):
        assert _jam_at(TICKS_PERIOD - before_wrap, JAM_MS - 1) == [], before_wrap
        assert _jam_at(TICKS_PERIOD - before_wrap, JAM_MS) == [FAULT_JAM], before_wrap


@covers("S-ONE")
def test_a_card_a_ticks_period_after_the_last_is_no_double_feed():
    """12.4 days after a card, the ticks read as they did then: the double-feed window was closed by its timer."""
    played = play("shoe seed=3", "no_more_bets", "draw", "wait %d" % (TICKS_PERIOD - 520), "draw", "double", "draw")
    assert played.alarms() == [FAULT_DOUBLE_FEED]
    assert [c["condition"] for c in played.cards()] == [0, 0, 0, 2]


@covers("S-ONE")
def test_ticks_arithmetic_across_the_wrap():
    assert ticks_diff(5, TICKS_PERIOD - 5) == 10 and ticks_diff(TICKS_PERIOD - 5, 5) == -10
    assert ticks_add(TICKS_PERIOD - 1, 2) == 1
    assert ticks_diff(TICKS_PERIOD // 2 - 1, 0) == TICKS_PERIOD // 2 - 1


@covers("S-ONE")
def test_a_wait_of_any_length_is_taken():
    played = play("seance", "shoe seed=3", "wait 30000000000", "no_more_bets", "draw 6")  # 347 days, split by runner
    cards = played.cards()
    assert len(cards) == played.board.shoe.out >= 4 and played.alarms() == []
    assert cards[0]["seconds"] - 218188800 == 30000000 + 2  # the wall clock moved by the whole wait
