"""Time on a hardware board: uptime across the ticks wrap and the wall clock from the RTC (boards/mcu/clock.py), and
the DS3231's registers (boards/mcu/ds3231.py), on a fake clock, RTC and I2C bus."""

import datetime

import pytest

from boards.mcu.clock import Uptime, WallClock, days_since_2020, rtc_base
from boards.mcu.ds3231 import DS3231
from tests.conftest import ROOT, micropython
from tests.host.fake_machine import FakeI2C, FakeRtc

pytestmark = pytest.mark.usefixtures("ticks")


@pytest.mark.req("J-EVERY")
def test_uptime_survives_the_ticks_wrap(ticks):
    uptime = Uptime()
    seen = []
    for _ in range(10):
        ticks.sleep_ms(1001)
        uptime.update()
        seen.append((uptime.seconds, uptime.ms))
    assert seen == [(n * 1001 // 1000, n * 1001 % 1000) for n in range(1, 11)]


@pytest.mark.req("J-EVERY")
def test_days_since_2020_agree_with_the_calendar():
    start = datetime.date(2020, 1, 1)
    for day in (start + datetime.timedelta(days=n) for n in range(0, 80 * 366, 17)):
        assert days_since_2020(day.year, day.month, day.day) == (day - start).days


def _wall_ms(wall):
    wall.stamp()
    return wall.seconds * 1000 + wall.ms


@pytest.mark.req("J-EVERY")
def test_the_wall_clock_starts_at_the_rtcs_next_second_and_runs_on_uptime(ticks):
    rtc = FakeRtc(ticks, 218188800, offset_ms=250)  # 2026-11-30T08:00:00.250Z
    wall = WallClock(rtc, Uptime())
    assert abs(_wall_ms(wall) - rtc.true_ms()) <= 1
    ticks.sleep_ms(59000)
    assert abs(_wall_ms(wall) - rtc.true_ms()) <= 1


@pytest.mark.req("J-EVERY")
@pytest.mark.parametrize("rate", [1 + 50e-6, 1 - 50e-6])  # the board's crystal 50 ppm slow, then fast
def test_the_wall_clock_stays_within_the_rtcs_second_and_never_steps_back(ticks, rate):
    rtc = FakeRtc(ticks, 218188800, offset_ms=600, rate=rate)
    wall = WallClock(rtc, Uptime())
    seen = []
    for _ in range(3 * 24 * 60):  # three days, a record a minute
        ticks.sleep_ms(60000)
        seen.append(_wall_ms(wall))
        assert abs(seen[-1] - rtc.true_ms()) < 1010
    assert seen == sorted(seen)
    assert abs(seen[-1] - rtc.true_ms()) < 1010  # uncorrected, 50 ppm would be 13 s off by now


@pytest.mark.req("J-EVERY", "J-DURABLE")
def test_an_rtc_read_failing_later_does_not_stop_the_wall_clock(ticks):
    rtc = FakeRtc(ticks, 218188800, offset_ms=0)
    wall = WallClock(rtc, Uptime())
    rtc.failing = True
    ticks.sleep_ms(120000)
    assert abs(_wall_ms(wall) - rtc.true_ms()) <= 2


@pytest.mark.req("J-EVERY")
def test_an_rtc_that_does_not_tick_is_refused(ticks):
    class Stuck:
        def seconds(self):
            ticks.now += 1
            return 5

    with pytest.raises(OSError):
        rtc_base(Stuck(), Uptime())


@pytest.mark.req("J-EVERY")
def test_ds3231_set_then_read_and_its_stop_flag():
    i2c = FakeI2C()
    i2c.regs[0x0F] = 0x88  # oscillator stopped (and a busy bit, kept)
    rtc = DS3231(i2c)
    assert rtc.stopped()
    rtc.set(2026, 11, 30, 8, 59, 7)
    assert bytes(i2c.regs[:7]) == bytes([0x07, 0x59, 0x08, 0x01, 0x30, 0x11, 0x26])  # a Monday
    assert i2c.regs[0x0F] == 0x08 and not rtc.stopped()
    expected = datetime.datetime(2026, 11, 30, 8, 59, 7) - datetime.datetime(2020, 1, 1)
    assert rtc.seconds() == expected.total_seconds()
    with pytest.raises(ValueError):
        rtc.set(2019, 12, 31, 0, 0, 0)


@pytest.mark.req("J-EVERY")
def test_ds3231_set_clears_a_found_eosc_so_the_oscillator_runs_on_the_battery():
    """A module configured with EOSC (control 0Eh bit 7) keeps time while powered and stops on its battery: the shoe
    would find OSF at its next power-up and refuse to start. set() clears it, and leaves the control's other bits."""
    i2c = FakeI2C()
    i2c.regs[0x0E] = 0x80 | 0x1C  # EOSC, with INTCN and the square wave's rate bits as the chip powers up
    i2c.regs[0x0F] = 0x80
    DS3231(i2c).set(2026, 11, 30, 8, 59, 7)
    assert i2c.regs[0x0E] == 0x1C and i2c.regs[0x0F] == 0x00


@pytest.mark.req("J-EVERY")
@pytest.mark.parametrize("hours,hour", [(0x40 | 0x20 | 0x01, 13), (0x40 | 0x12, 0), (0x40 | 0x20 | 0x12, 12),
                                        (0x40 | 0x11, 11), (0x40 | 0x20 | 0x11, 23)],
                         ids=["1-PM", "12-AM", "12-PM", "11-AM", "11-PM"])
def test_a_ds3231_in_12_hour_mode_reads_the_24_hour_time_and_set_makes_it_24_hour(hours, hour):
    """Hours register bit 6: 12-hour mode, bit 5 PM, hours 1-12 (12 AM midnight): read as it is, not 8 h or 12 h
    off; set() writes the hours register whole, in 24-hour mode."""
    i2c = FakeI2C()
    i2c.regs[:7] = bytes([0x07, 0x59, hours, 0x01, 0x30, 0x11, 0x26])
    rtc = DS3231(i2c)
    expected = datetime.datetime(2026, 11, 30, hour, 59, 7) - datetime.datetime(2020, 1, 1)
    assert rtc.seconds() == expected.total_seconds()
    rtc.set(2026, 11, 30, 13, 0, 0)
    assert i2c.regs[2] == 0x13  # 24-hour mode: bit 6 clear
    assert rtc.seconds() == (datetime.datetime(2026, 11, 30, 13) - datetime.datetime(2020, 1, 1)).total_seconds()


@pytest.mark.req("J-EVERY")
def test_a_ds3231_time_the_journal_cannot_stamp_as_a_small_int_is_refused_as_a_read_fault():
    """From 2054 seconds since 2020 pass 2**30 (a long int on 32-bit), before 2020 they are negative: at boot the shoe
    stays locked, in service the wall clock goes on from its uptime as after an I2C hiccup."""
    i2c = FakeI2C()
    rtc = DS3231(i2c)
    rtc.set(2054, 1, 9, 13, 37, 3)
    assert rtc.seconds() == 2**30 - 1  # the last second a 32-bit board stamps
    rtc.set(2054, 1, 9, 13, 37, 4)
    with pytest.raises(OSError, match="outside 2020 to early 2054"):
        rtc.seconds()
    i2c.regs[6] = 0x19  # 2019: what a DS3231 holds, but before the journal's epoch
    with pytest.raises(OSError, match="outside 2020"):
        rtc.seconds()


VM_CLOCKS = """
import sys
import micropython

MASK = (1 << 30) - 1  # 2**30 itself is a long int on 32-bit


class Time:
    \"\"\"time.ticks_ms and ticks_diff on a clock the test moves, every value a small int.\"\"\"

    def __init__(self):
        self.ticks = MASK - 4999  # near the wrap
        self.s = 0  # true time since the start, seconds and ms
        self.ms = 0

    def advance(self, ms):
        self.ticks = (self.ticks + ms) & MASK
        self.ms += ms
        self.s += self.ms // 1000
        self.ms %= 1000

    def ticks_ms(self):
        return self.ticks

    def ticks_diff(self, a, b):
        d = (a - b) & MASK
        return d - MASK - 1 if d > MASK // 2 else d


fake = Time()
sys.modules["time"] = fake  # before the clock module imports it
from boards.mcu.clock import Uptime, WallClock


class Rtc:
    def seconds(self):
        fake.advance(1)
        return 218188800 + fake.s


uptime = Uptime()
wall = WallClock(Rtc(), uptime)
for _ in range(START // 432000):  # five days a step up to the start: uptime must be read within six days
    fake.advance(432000000)
    wall.stamp()
worst = 0
for _ in range(2000):  # 3.9 hours a pass, across the wrap
    fake.advance(7001)
    micropython.heap_lock()
    try:
        wall.stamp()
        off = (wall.seconds - 218188800 - fake.s) * 1000 + wall.ms - fake.ms
    finally:
        micropython.heap_unlock()
    worst = max(worst, abs(off))
print(worst < 1000, uptime.seconds, wall.seconds - 218188800)
"""


@pytest.mark.req("J-EVERY")
@pytest.mark.parametrize("start_s", [0, 365 * 86400, 3650 * 86400], ids=["wrap", "year", "ten-years"])
def test_the_clocks_allocate_nothing_on_the_32_bit_vm_across_the_wrap_and_after_years(tmp_path, start_s):
    """Uptime and WallClock under micropython.heap_lock on the 32-bit VM, where a value over 2**30 would be a heap
    object: each stamp across the ticks' wrap, a year and ten years into a power-up, time.ticks_ms() faked."""
    script = tmp_path / "clocks.py"
    script.write_text(VM_CLOCKS.replace("START", str(start_s)))
    run = micropython([str(script)], str(ROOT), cwd=tmp_path, vm="micropython32")
    assert run.returncode == 0, run.stdout + run.stderr
    ok, up, wall = run.stdout.split()
    assert ok == "True" and int(up) >= 2000 * 7001 // 1000 and int(wall) >= start_s, run.stdout
