"""The DS3231 real-time clock on I2C: battery-backed and temperature-compensated (about 2 ppm), so the journal's
times stay right across power cuts. It holds UTC, set at commissioning (the boards' README)."""

from boards.mcu.clock import days_since_2020
from firmware.compat import const

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import I2C

ADDRESS = const(0x68)
_TIME = const(0x00)  # seconds, minutes, hours, weekday, date, month, year: BCD
_STATUS = const(0x0F)
_OSF = const(0x80)  # oscillator stop flag: the clock stopped (battery flat or never set); its time is not to be trusted


def _bcd(value):
    return (value >> 4) * 10 + (value & 0x0F)


def _to_bcd(value):
    return (value // 10) << 4 | value % 10


class DS3231:
    def __init__(self, i2c: "I2C"):
        self._i2c = i2c
        self._regs = bytearray(7)
        self._status = bytearray(1)

    def stopped(self):
        """Whether the clock's oscillator stopped since it was last set: its time is then wrong."""
        self._i2c.readfrom_mem_into(ADDRESS, _STATUS, self._status)
        return bool(self._status[0] & _OSF)

    def seconds(self):
        """Seconds since 2020-01-01 UTC (24-hour mode, years 2000-2099, as set() leaves it)."""
        regs = self._regs
        self._i2c.readfrom_mem_into(ADDRESS, _TIME, regs)
        days = days_since_2020(2000 + _bcd(regs[6]), _bcd(regs[5] & 0x1F), _bcd(regs[4] & 0x3F))
        return ((days * 24 + _bcd(regs[2] & 0x3F)) * 60 + _bcd(regs[1] & 0x7F)) * 60 + _bcd(regs[0] & 0x7F)

    def set(self, year, month, day, hour, minute, second):
        """Set the clock to a UTC time and clear the stop flag."""
        if not 2020 <= year <= 2099:
            raise ValueError("year %d: the DS3231 holds 2000-2099 and the journal starts in 2020" % year)
        weekday = (days_since_2020(year, month, day) + 2) % 7 + 1  # 1 = Monday; 2020-01-01 was a Wednesday
        fields = (second, minute, hour, weekday, day, month, year - 2000)
        self._i2c.writeto_mem(ADDRESS, _TIME, bytes(_to_bcd(field) for field in fields))
        self._i2c.readfrom_mem_into(ADDRESS, _STATUS, self._status)
        self._status[0] &= ~_OSF & 0xFF
        self._i2c.writeto_mem(ADDRESS, _STATUS, self._status)
