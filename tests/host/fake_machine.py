"""Fakes of what a hardware board's drivers (boards/mcu, boards/rpi_pico, boards/esp32) touch, for CPython: time's
ticks with MicroPython's wrap-around, pins, the reader's UART, the RTC and its I2C bus, and a whole `machine` module
(Bench) on which a board's start() builds, attaches and runs the shoe. The tests of each driver import them from
here; the `ticks` and `shop` fixtures are tests/host/conftest.py's."""

import datetime
import os
import sys
import time
import types

from boards.mcu.reader import CardReader
from boards.sim.element import DEVELOPMENT_SEED, SimElement
from firmware.runtime import EventQueue

PERIOD = 1 << 30  # MicroPython's ticks period on rp2 and esp32


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

    def install(self, monkeypatch):
        """MicroPython's functions on CPython's time module, for one test."""
        monkeypatch.setattr(time, "ticks_ms", self.ticks_ms, raising=False)
        monkeypatch.setattr(time, "ticks_diff", self.ticks_diff, raising=False)
        monkeypatch.setattr(time, "sleep_ms", self.sleep_ms, raising=False)


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


class LoggedRing(EventQueue):
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


def reader_with(*lines, at=None):
    """A card reader on a fake UART, fed these lines at `at` (or now)."""
    reader = CardReader(FakeUart())
    for line in lines:
        for byte in line:
            reader.feed(byte, time.ticks_ms() if at is None else at)
    return reader


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
        self.reset_cause = 1  # machine.reset_cause(): PWRON_RESET, as both ports number it
        self.interrupt_char = 3  # micropython.kbd_intr's: a Ctrl-C raises KeyboardInterrupt wherever start() is
        self.usb = None  # the USB serial's input, which main.py reads as sys.stdin (install)
        self.element = SimElement(DEVELOPMENT_SEED)  # the element (a Trust&GO at 0x35) by the DS3231; None: no chip
        self.machine = self._machine(hard_irqs)

    def type(self, data):
        """A technician's mpremote writing to the USB serial: its Ctrl-C interrupts the program, unless the program
        disabled it (micropython.kbd_intr(-1)); then it waits in the input as a byte."""
        if self.interrupt_char == 3 and b"\x03" in data:
            raise KeyboardInterrupt
        self.usb.write(data)

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

    def press(self, number, at, bounce=()):
        """Script actions: a press at `at` ms (with chatter edges just after it), released 100 ms later."""
        actions = [(at, lambda: self.set_level(number, 0))]
        for i, level in enumerate(bounce):
            actions.append((at + 1 + i, lambda level=level: self.set_level(number, level)))
        actions.append((at + 100, lambda: self.set_level(number, 1)))
        return actions

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

            def writeto(self, address, buf):  # the secure element's transactions (boards/mcu/atecc.py)
                if bench.element is None:
                    raise OSError(19)
                bench.element.writeto(address, buf)

            def readfrom_into(self, address, buf):
                if bench.element is None:
                    raise OSError(19)
                bench.element.readfrom_into(address, buf)

        class WDT:
            def __init__(self, timeout):
                bench.watchdogs.append(self)
                self.timeout = timeout
                self.fed = 0

            def feed(self):
                self.fed += 1

        machine = types.ModuleType("machine")
        machine.Pin, machine.UART, machine.I2C, machine.WDT = Pin, UART, I2C, WDT
        machine.PWRON_RESET, machine.HARD_RESET, machine.WDT_RESET = 1, 2, 3  # rp2's and esp32's numbers
        machine.reset_cause = lambda: bench.reset_cause
        return machine

    def install(self, monkeypatch):
        monkeypatch.setitem(sys.modules, "machine", self.machine)
        micropython_module = types.ModuleType("micropython")
        micropython_module.alloc_emergency_exception_buf = lambda size: None
        locks = []  # the decisions' heap lock, taken and given back around each one
        micropython_module.heap_lock = lambda: locks.append(1)
        micropython_module.heap_unlock = lambda: locks.pop()
        micropython_module.kbd_intr = lambda char: setattr(self, "interrupt_char", char)
        monkeypatch.setitem(sys.modules, "micropython", micropython_module)
        read, write = os.pipe()
        self.usb = open(write, "wb", buffering=0)
        usb = open(read, "rb", buffering=0)
        monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=usb, fileno=usb.fileno))
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
