"""A hardware shoe put in service: the devices built from a board's pin map, the shell, the interrupts, the loop.

Both boards run this; each gives its pin map (boards/<board>/pins.py) and how it attaches a pin interrupt (hard on
the RP2040, scheduled on the ESP32). machine is imported inside the functions: the module loads on CPython and on
the unix port, and the type checker reads it against each board's stubs.
"""

import time

from boards.mcu.atecc import ATECC
from boards.mcu.beam import BeamSensor
from boards.mcu.button import Button
from boards.mcu.buzzer import Buzzer
from boards.mcu.clock import Uptime, WallClock
from boards.mcu.ds3231 import DS3231
from boards.mcu.gate import Gate
from boards.mcu.indicator import Indicator
from boards.mcu.reader import BAUD, CardReader
from boards.mcu.watchdog import Watchdog
from firmware.compat import const
from firmware.events import EV_BURN, EV_CLEAR, EV_COUP_END, EV_DRAW, EV_LOAD, EV_NO_MORE_BETS, EV_SEANCE
from firmware.games import by_name
from firmware.records import BOOT_POWER, BOOT_RESTART, BOOT_WATCHDOG, TABLE_MAX, TABLE_MIN, pack_seance
from firmware.runtime import EventQueue, Runtime
from firmware.startup import make_shell, whole

_WATCHDOG_MS = const(5000)  # far above the longest pass of the loop (a journal segment started), under 8388 ms
_IDLE_MS = const(1)
_I2C_HZ = const(100000)  # the DS3231 and the secure element share the bus: the element's wake pulse needs 100 kHz


class _Chores:
    """What the main loop does between events: read the card reader, drive the LED and the buzzer, sleep a little."""

    def __init__(self, reader, indicator, buzzer, interlock=None):
        self._reader = reader
        self._indicator = indicator
        self._buzzer = buzzer
        self._interlock = interlock  # the board's hardware count of the beam's breaks, or None

    def idle(self):
        if self._interlock is not None:
            self._interlock.check()
        if self._reader is not None:
            self._reader.poll()
        now = time.ticks_ms()
        self._indicator.update(now)
        self._buzzer.update(now)
        time.sleep_ms(_IDLE_MS)


def _table(config):
    """The table the séance button assigns the shoe to (S-IDENT): a board's config must give it."""
    return whole('config "table"', config.get("table"), TABLE_MIN, TABLE_MAX)


def _bus(pins):
    from machine import I2C, Pin

    return I2C(pins.RTC_I2C, scl=Pin(pins.RTC_SCL), sda=Pin(pins.RTC_SDA), freq=_I2C_HZ)


def _rtc(pins):
    return DS3231(_bus(pins))


def _boot_cause(requested=None):
    """Why the board booted, for its boot record: a power-up, the watchdog's reset, or another reset with the power
    on (the reset button, machine.reset(), a restart a command asked for: requested() says so, once). A
    MicroPython soft reset runs no main.py in mpremote's raw REPL."""
    import machine

    cause = machine.reset_cause()
    if cause == machine.PWRON_RESET:
        return BOOT_POWER
    if requested is not None and requested():
        return BOOT_RESTART
    return BOOT_WATCHDOG if cause == machine.WDT_RESET else BOOT_RESTART


def start(config, pins, attach, ring_partition=None, beam_handler=None, board=None, requested=None, interlock=None):
    """Run the shoe until a technician stops it; the gate is locked on every way out (S-FAILSAFE). ring_partition
    gives the raw partition of the journal's write-ahead ring, or None (boards/<board>/journal_flash.py);
    beam_handler(on_break), the handler a board attaches to the beam in place of the shared one (the RP2040's shuts
    the gate in native code first). board: the production configuration, the board module whose set_clock the
    protocol's clock command calls: the loop serves the shoe's protocol on USB (usb_protocol) and returns only for
    the board to restart; the maintenance jumper then keeps the shoe stopped, silent, for good. requested(): whether
    the last reset was a restart a command asked for (the board's record of it, read once). interlock(): the
    board's gate in hardware, where its chip has one (the RP2040's PIO: boards/rpi_pico/pio_gate.py): its gate, and
    its count of the beam's breaks checked once a pass against the interrupt's."""
    import micropython
    from machine import UART, WDT, Pin

    hardware = interlock() if interlock is not None else None
    gate = hardware.gate if hardware is not None else Gate(Pin(pins.GATE, Pin.OUT, value=pins.GATE_LOCKED),
                                                           pins.GATE_LOCKED)
    # No KeyboardInterrupt until the loop serves: a technician's Ctrl-C (mpremote's, right after a restart) would
    # leave the boot half done, its journal half recovered and no controller for remote.py. MicroPython gives
    # Ctrl-C back at main.py's end (maintenance jumper, a fault below); a byte meanwhile, it waits in the input.
    micropython.kbd_intr(-1)
    try:
        if Pin(pins.MAINTENANCE, Pin.IN, Pin.PULL_UP).value() == pins.PRESSED:
            print("maintenance jumper fitted: the controller is not started, the gate stays locked")
            while board is not None:  # production: no REPL to return to, and nothing to restart for
                time.sleep_ms(1000)
            return
        game = by_name(config.get("game"))
        table = _table(config)
        if not config.get("reader") and not config.get("stop_detector"):
            raise ValueError("config: a shoe with neither \"reader\" nor \"stop_detector\" cannot see its stop card")
        bus = _bus(pins)
        rtc = DS3231(bus)
        if rtc.stopped():
            raise RuntimeError("the RTC lost its time: set it (set_clock, the board's README) before service")
        uptime = Uptime()
        wall = WallClock(rtc, uptime)
        indicator = Indicator(Pin(pins.LED, Pin.OUT, value=0))
        buzzer = Buzzer(Pin(pins.BUZZER, Pin.OUT, value=0))
        ring = ring_partition() if ring_partition else None
        # The secure element beside the DS3231 (boards/mcu/atecc.py), at the board's address (pins.py, board.json's
        # "element"; a generic part is moved there when provisioned): the journal's checkpoints and its counter. A
        # chip that does not answer is found at power-up: the shoe cannot check its journal's end, and faults.
        shell = make_shell(config, gate, indicator, buzzer, wall, ring, ATECC(bus, address=pins.ELEMENT_ADDRESS))
        shell.boot_cause = _boot_cause(requested)
        shell.panel_seance = pack_seance(table, game, 0)  # employee 0: the panel's button (S-IDENT)
        # Each decision runs with the heap locked: the controller allocates nothing (tests/host/test_micropython),
        # so no garbage collection can start between a sensed card and the gate's command; the VM keeps large
        # call frames on the C stack meanwhile. Should a decision ever allocate, it raises: the gate locks.
        shell.guard = (micropython.heap_lock, micropython.heap_unlock)
        events = EventQueue()
        reader = None
        if config.get("reader"):
            uart = UART(pins.READER_UART, baudrate=BAUD, tx=Pin(pins.READER_TX), rx=Pin(pins.READER_RX), timeout=0)
            reader = CardReader(uart)
        stop = Pin(pins.STOP_DETECT, Pin.IN) if config.get("stop_detector") else None
        beam = BeamSensor(gate, events, reader, stop, pins.STOP_ACTIVE)
        buttons = (
            (pins.NO_MORE_BETS, Button(events, EV_NO_MORE_BETS, 0, pins.PRESSED)),
            (pins.COUP_END, Button(events, EV_COUP_END, 0, pins.PRESSED)),
            (pins.BURN, Button(events, EV_BURN, 0, pins.PRESSED)),
            (pins.DRAW, Button(events, EV_DRAW, 0, pins.PRESSED)),
            (pins.LOAD, Button(events, EV_LOAD, game, pins.PRESSED)),
            (pins.SEANCE, Button(events, EV_SEANCE, 0, pins.PRESSED)),
            (pins.CLEAR, Button(events, EV_CLEAR, 0, pins.PRESSED)),
        )
        if hardware is not None:
            hardware.watch(beam, events)
        chores = _Chores(reader, indicator, buzzer, hardware)
        watchdog = Watchdog(WDT, _WATCHDOG_MS)
        micropython.alloc_emergency_exception_buf(100)  # a traceback from an interrupt handler, should one fail
        # Interrupts last: everything their handlers touch exists by now, so a hard handler allocates nothing.
        broken = Pin.IRQ_FALLING if pins.BEAM_BROKEN == 0 else Pin.IRQ_RISING
        attach(Pin(pins.BEAM, Pin.IN), beam_handler(beam.on_break) if beam_handler else beam.on_break, broken)
        for number, button in buttons:
            attach(Pin(number, Pin.IN, Pin.PULL_UP), button.on_edge, Pin.IRQ_FALLING | Pin.IRQ_RISING)
        runtime = Runtime(shell, events, time.ticks_ms, watchdog.feed, chores.idle)
        runtime.run(lambda: _interruptible(micropython) if board is None else usb_protocol(runtime, board))
    finally:
        gate.close()


def usb_protocol(runtime, board):
    """The production configuration's cable, which Runtime's loop hears after each pass until a command asks the
    shoe to restart (the virtual board's too): the shoe's protocol on USB's stdin and stdout, its keys (the
    casino's, or the factory's enrolment code) from the filesystem, its secure element beside the DS3231."""
    import os
    import select
    import sys

    from firmware.protocol import READ_MAX, Protocol
    from firmware.startup import held_keys

    casino, enrolment = held_keys()
    protocol = Protocol(runtime.shell, time.ticks_ms, sys.stdout.buffer.write, os.urandom, casino, board,
                        runtime.shell.checkpoints.element, enrolment)  # the element its checkpoints are signed by
    waiting = select.poll()
    waiting.register(sys.stdin, select.POLLIN)
    read = sys.stdin.buffer.read
    got = bytearray(READ_MAX)

    def received():
        n = 0
        while n < READ_MAX and waiting.poll(0):
            got[n] = read(1)[0]
            n += 1
        return got[:n]

    protocol.listen(received)
    return protocol


def _interruptible(micropython):
    """Ctrl-C heard again, the controller now reachable by remote.py; one sent during the boot, a byte waiting in the
    input, interrupts the loop now, as it would have: what follows it (mpremote's Ctrl-A) is left to the REPL."""
    import select
    import sys

    micropython.kbd_intr(3)
    waiting = select.poll()
    waiting.register(sys.stdin, select.POLLIN)
    while waiting.poll(0):
        if sys.stdin.buffer.read(1) == b"\x03":
            raise KeyboardInterrupt


def set_clock(pins, year, month, day, hour, minute, second):
    """Commissioning: set the board's DS3231 to a UTC time."""
    _rtc(pins).set(year, month, day, hour, minute, second)
