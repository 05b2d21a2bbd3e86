"""Time on a hardware board: uptime that never wraps, and the wall clock the journal stamps records with, in seconds
since 2020-01-01 UTC (firmware/journal.py's EPOCH_2020; not MicroPython's 2000 epoch) and milliseconds: every value
a small int on a 32-bit board, so that reading the time allocates nothing (docs/architecture.md, its bounds)."""

import time

from firmware.compat import const

_STEER_EVERY_S = const(60)


class Uptime:
    """Time since power-up as whole seconds and milliseconds: ticks_diff accumulated, as time.ticks_ms() wraps every
    2**30 ms (12.4 days). Both stay small ints on a 32-bit board for 34 years, so that update() allocates nothing;
    it must run more often than every 6 days (half a ticks period): each journal record calls it."""

    def __init__(self):
        self._last = time.ticks_ms()
        self.seconds = 0
        self.ms = 0

    def update(self):
        ticks = time.ticks_ms()
        ms = self.ms + time.ticks_diff(ticks, self._last)
        self._last = ticks
        if ms >= 1000:
            carry = ms // 1000
            self.seconds += carry
            ms -= carry * 1000
        self.ms = ms


class WallClock:
    """The RTC's time at power-up plus uptime, as seconds since 2020 (small ints until 2054) and milliseconds, steered
    back into the RTC's current second once a minute: the board's crystal (up to 30 ppm on a Pico, 2.6 s a day) would
    otherwise drift from the DS3231 (2 ppm) over a long power-up. Never steps back: after a correction backwards, it
    holds until the time catches up. stamp() sets seconds and ms, the journal's time of a record."""

    def __init__(self, rtc, uptime):
        self._rtc = rtc  # its seconds(): whole seconds since 2020
        self._uptime = uptime
        self._base_s, self._base_ms = rtc_base(rtc, uptime)  # the wall time at uptime 0
        self._checked = uptime.seconds
        self.seconds = 0
        self.ms = 0

    def stamp(self):
        uptime = self._uptime
        uptime.update()
        if uptime.seconds - self._checked >= _STEER_EVERY_S:
            self._checked = uptime.seconds
            self._steer()
        ms = self._base_ms + uptime.ms
        seconds = self._base_s + uptime.seconds + (ms >= 1000)
        ms = ms - 1000 if ms >= 1000 else ms
        if seconds > self.seconds or (seconds == self.seconds and ms > self.ms):
            self.seconds = seconds
            self.ms = ms

    def _steer(self):
        try:
            second = self._rtc.seconds()
        except OSError:
            return  # an I2C hiccup: the uptime alone stays right to a few ms a minute, and the journal must go on
        uptime = self._uptime
        ms = self._base_ms + uptime.ms
        seconds = self._base_s + uptime.seconds + ms // 1000
        ms %= 1000
        if seconds < second:
            self._shift((second - seconds) * 1000 - ms)
        elif seconds > second:
            self._shift((second - seconds) * 1000 + 999 - ms)

    def _shift(self, ms):
        total = self._base_ms + ms
        self._base_s += total // 1000
        self._base_ms = total % 1000


def days_since_2020(year, month, day):
    """Days from 2020-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil, shifted)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * ((month + 9) % 12) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468 - 18262  # 18262: days from 1970 to 2020


def rtc_base(rtc, uptime, wait_s=2):
    """The wall time at uptime 0, (seconds, ms), from an RTC that counts whole seconds (rtc.seconds(): since 2020).
    It waits for the RTC's next second to begin, so the base is right to about a millisecond rather than to a second."""
    first = rtc.seconds()
    uptime.update()
    start = uptime.seconds
    while True:
        seconds = rtc.seconds()
        uptime.update()
        if seconds != first:
            if uptime.ms:
                return seconds - uptime.seconds - 1, 1000 - uptime.ms
            return seconds - uptime.seconds, 0
        if uptime.seconds - start > wait_s:
            raise OSError("the RTC's seconds do not advance")
