"""The DS3231 real-time clock on I2C: battery-backed and temperature-compensated (about 2 ppm), so the journal's
times stay right across power cuts. It holds UTC, set at commissioning (the boards' README)."""

from boards.mcu.clock import days_since_2020
from firmware.compat import const

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import I2C

ADDRESS = const(0x68)
_TIME = const(0x00)  # seconds, minutes, hours, weekday, date, month, year: BCD
_12_HOUR = const(0x40)  # hours register: 12-hour mode (datasheet, "Timekeeping Registers"), hours 1-12 in bits 4-0
_PM = const(0x20)  # hours register in 12-hour mode: PM (in 24-hour mode, the 20-hours bit)
_CONTROL = const(0x0E)
_EOSC = const(0x80)  # control: set, the oscillator stops when the module runs on its battery (0 at the chip's power-up)
_STATUS = const(0x0F)
_OSF = const(0x80)  # oscillator stop flag: the clock stopped (battery flat or never set); its time is not to be trusted
_SECONDS_MAX = const((1 << 30) - 1)  # early 2054: later, seconds since 2020 would be a long int on a 32-bit board


def _bcd(value):
    return (value >> 4) * 10 + (value & 0x0F)


def _to_bcd(value):
    return (value // 10) << 4 | value % 10


class DS3231:
    def __init__(self, i2c: "I2C"):
        self._i2c = i2c
        self._regs = bytearray(7)
        self._status = bytearray(1)  # the status register, or the control register in set()

    def stopped(self):
        """Whether the clock's oscillator stopped since it was last set: its time is then wrong."""
        self._i2c.readfrom_mem_into(ADDRESS, _STATUS, self._status)
        return bool(self._status[0] & _OSF)

    def seconds(self):
        """Seconds since 2020-01-01 UTC, in 24-hour mode (as set() leaves it) or in 12-hour mode (a module set so
        before it came to the shoe); OSError for a time the journal cannot stamp as a small int on a 32-bit board
        (before 2020, from 2054)."""
        regs = self._regs
        self._i2c.readfrom_mem_into(ADDRESS, _TIME, regs)
        days = days_since_2020(2000 + _bcd(regs[6]), _bcd(regs[5] & 0x1F), _bcd(regs[4] & 0x3F))
        hours = regs[2]
        if hours & _12_HOUR:  # 12 AM is midnight (0 h), 12 PM noon (12 h)
            hours = _bcd(hours & 0x1F) % 12 + (12 if hours & _PM else 0)
        else:
            hours = _bcd(hours & 0x3F)
        seconds = ((days * 24 + hours) * 60 + _bcd(regs[1] & 0x7F)) * 60 + _bcd(regs[0] & 0x7F)
        if not 0 <= seconds <= _SECONDS_MAX:  # refused as an I2C fault is: at boot the shoe stays locked
            raise OSError("the RTC reads %d s from 2020, outside 2020 to early 2054: set it" % seconds)
        return seconds

    def set(self, year, month, day, hour, minute, second):
        """Set the clock to a UTC time in 24-hour mode (its hours register written whole: a 12-hour module becomes a
        24-hour one), let its oscillator run on the battery (EOSC cleared: a module configured with it set would
        stop keeping time at the first power-off, and the shoe refuse every start after), then clear the stop flag,
        as the datasheet has it: OSF stays set until written 0."""
        if not 2020 <= year <= 2099:
            raise ValueError("year %d: the DS3231 holds 2000-2099 and the journal starts in 2020" % year)
        weekday = (days_since_2020(year, month, day) + 2) % 7 + 1  # 1 = Monday; 2020-01-01 was a Wednesday
        fields = (second, minute, hour, weekday, day, month, year - 2000)
        self._i2c.writeto_mem(ADDRESS, _TIME, bytes(_to_bcd(field) for field in fields))
        self._i2c.readfrom_mem_into(ADDRESS, _CONTROL, self._status)
        if self._status[0] & _EOSC:
            self._status[0] &= ~_EOSC & 0xFF
            self._i2c.writeto_mem(ADDRESS, _CONTROL, self._status)
        self._i2c.readfrom_mem_into(ADDRESS, _STATUS, self._status)
        self._status[0] &= ~_OSF & 0xFF
        self._i2c.writeto_mem(ADDRESS, _STATUS, self._status)
