"""Milliseconds as a 32-bit board counts them: time.ticks_ms() wraps every 2**30 ms (12.4 days), so that every
value and every difference stays a small int (|n| < 2**30) on the RP2040 and the ESP32 and nothing is allocated.
The same arithmetic on CPython and both VMs, as MicroPython's ticks_diff and ticks_add do it."""

from firmware.compat import const

TICKS_PERIOD = 1 << 30  # a long int on 32-bit: for the host and the tests, never in the firmware's arithmetic
TICKS_MAX = const((1 << 30) - 1)
_HALF = const(1 << 29)


def ticks_diff(later, earlier):
    """later - earlier in ms, right while they are less than half a period (6.2 days) apart."""
    d = (later - earlier) & TICKS_MAX
    return d - TICKS_MAX - 1 if d >= _HALF else d  # 2**30 itself is no small int on 32-bit: never computed


def ticks_add(ticks, ms):
    """ticks + ms (0 <= ms < 2**30) wrapped, by steps that each stay a small int on 32-bit."""
    wrapped = ticks - (TICKS_MAX - ms) - 1
    return wrapped if wrapped >= 0 else wrapped + TICKS_MAX + 1
