"""What a hardware board drives besides the gate: the LED's patterns (boards/mcu/indicator.py), the buzzer's
sequences (boards/mcu/buzzer.py), and the watchdog (boards/mcu/watchdog.py)."""

import pytest

from boards.mcu.buzzer import SEQUENCES, Buzzer
from boards.mcu.indicator import PATTERNS, Indicator
from boards.mcu.watchdog import Watchdog
from firmware.events import BUZZ_ALARM, BUZZ_REFUSED, IND_ALARM, IND_CLOSED, IND_DEALING, IND_LOCKED
from tests.host.fake_machine import FakePin

pytestmark = pytest.mark.usefixtures("ticks")


@pytest.mark.req("S-FORCED")
def test_each_indicator_state_has_its_pattern():
    assert len(PATTERNS) == 1 + max(IND_LOCKED, IND_DEALING, IND_ALARM, IND_CLOSED)
    pin = FakePin(1)
    indicator = Indicator(pin)

    def lit(state):
        indicator.show(state)
        seen = []
        for now in range(0, 2000, 50):
            indicator.update(now)
            seen.append(pin.level)
        return sum(seen)

    assert (lit(IND_LOCKED), lit(IND_DEALING), lit(IND_ALARM), lit(IND_CLOSED)) == (40, 20, 20, 2)


@pytest.mark.req("S-FORCED")
def test_the_buzzer_plays_its_sequence_then_falls_silent():
    pin = FakePin(1)
    buzzer = Buzzer(pin)
    buzzer.sound(BUZZ_ALARM)
    heard = []
    for now in range(10000, 12000, 10):
        buzzer.update(now)
        heard.append(pin.level)
    assert sum(heard) * 10 == sum(SEQUENCES[BUZZ_ALARM][::2])
    assert heard[-1] == 0
    buzzer.sound(BUZZ_REFUSED)
    buzzer.update(20000)
    assert pin.level == 1


@pytest.mark.req("S-FAILSAFE")
def test_the_watchdog_starts_at_its_first_feed_then_is_fed():
    made = []

    class Wdt:
        def __init__(self, timeout):
            made.append(self)
            self.timeout = timeout
            self.fed = 0

        def feed(self):
            self.fed += 1

    watchdog = Watchdog(Wdt, 5000)
    assert made == []
    for _ in range(3):
        watchdog.feed()
    assert [(wdt.timeout, wdt.fed) for wdt in made] == [(5000, 2)]
