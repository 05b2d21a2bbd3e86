"""Time on a hardware board: uptime in milliseconds that never wraps, and the wall clock the journal stamps records
with, in milliseconds since 2020-01-01 UTC (firmware/journal.py's EPOCH_2020; not MicroPython's 2000 epoch)."""

import time

from firmware.compat import const

_STEER_EVERY_MS = const(60000)


class Uptime:
    """time.ticks_ms() wraps every 2**30 ms (12.4 days); the sum of ticks_diff does not. now() must run more often
    than every 6 days (half a ticks period): the main loop calls it every pass."""

    def __init__(self):
        self._last = time.ticks_ms()
        self._ms = 0

    def now(self):
        ticks = time.ticks_ms()
        self._ms += time.ticks_diff(ticks, self._last)
        self._last = ticks
        return self._ms


class WallClock:
    """The RTC's time at power-up plus uptime, steered back into the RTC's current second once a minute: the board's
    crystal (up to 30 ppm on a Pico, 2.6 s a day) would otherwise drift from the DS3231 (2 ppm) over a long
    power-up. Never steps back: after a correction backwards, it holds until the time catches up."""

    def __init__(self, rtc, uptime):
        self._rtc = rtc  # its seconds(): whole seconds since 2020
        self._uptime = uptime
        self._base = rtc_base_ms(rtc, uptime)  # milliseconds since 2020 at uptime 0
        self._checked = uptime.now()
        self._last = 0

    def ms(self):
        now = self._uptime.now()
        if now - self._checked >= _STEER_EVERY_MS:
            self._checked = now
            self._steer(now)
        wall = self._base + now
        if wall < self._last:
            wall = self._last
        self._last = wall
        return wall

    def _steer(self, now):
        try:
            second = self._rtc.seconds() * 1000
        except OSError:
            return  # an I2C hiccup: the uptime alone stays right to a few ms a minute, and the journal must go on
        wall = self._base + now
        if wall < second:
            self._base += second - wall
        elif wall >= second + 1000:
            self._base -= wall - second - 999


def days_since_2020(year, month, day):
    """Days from 2020-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil, shifted)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * ((month + 9) % 12) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468 - 18262  # 18262: days from 1970 to 2020


def rtc_base_ms(rtc, uptime, wait_ms=1500):
    """The wall time at uptime 0 from an RTC that counts whole seconds (rtc.seconds(): since 2020). It waits for the
    RTC's next second to begin, so the base is right to about a millisecond rather than to a second."""
    first = rtc.seconds()
    start = uptime.now()
    while True:
        seconds = rtc.seconds()
        now = uptime.now()
        if seconds != first:
            return seconds * 1000 - now
        if now - start > wait_ms:
            raise OSError("the RTC's seconds do not advance")
