"""The panel's buttons (boards/mcu/button.py): debounced edges on a fake pin and clock, one event a press."""

import pytest

from boards.mcu.button import Button
from firmware.events import EV_NO_MORE_BETS
from firmware.runtime import EventQueue
from tests.host.fake_machine import PERIOD, FakePin
from tests.host.handler_source import assert_builds_nothing, function


def _edges(button, ticks, pin, steps):
    """(ms to wait, level) pairs: each a level change on the pin, and the edge's interrupt."""
    for wait, level in steps:
        ticks.sleep_ms(wait)
        pin.level = level
        button.on_edge(pin)


@pytest.mark.req("S-LOCK")
def test_a_bouncing_press_and_release_make_one_event(ticks):
    ring = EventQueue()
    button = Button(ring, EV_NO_MORE_BETS)
    pin = FakePin(1)
    bounce = [(100, 0), (1, 1), (1, 0), (2, 1), (1, 0)]  # press and chatter
    release = [(400, 1), (1, 0), (2, 1), (1, 0), (1, 1)]  # held, then released with chatter
    _edges(button, ticks, pin, bounce + release + bounce)
    assert [ring.take(), ring.take(), ring.take()] == [EV_NO_MORE_BETS, EV_NO_MORE_BETS, 0]


@pytest.mark.req("S-LOCK")
def test_a_spike_on_a_quiet_line_is_no_press(ticks):
    ring = EventQueue()
    button = Button(ring, EV_NO_MORE_BETS)
    _edges(button, ticks, FakePin(1), [(100, 1)])  # an edge, but the pin reads released by the handler's time
    assert ring.take() == 0


@pytest.mark.req("S-LOCK")
def test_a_press_after_days_of_quiet_counts(ticks):
    ring = EventQueue()
    button = Button(ring, EV_NO_MORE_BETS, 0)
    _edges(button, ticks, FakePin(1), [(PERIOD // 2 + 10, 0)])  # ticks_diff is negative past half a period
    assert ring.take() == EV_NO_MORE_BETS


@pytest.mark.req("S-LOCK")
def test_the_button_handler_builds_nothing():
    assert_builds_nothing(function("boards/mcu/button.py", "on_edge"))
