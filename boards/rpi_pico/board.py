"""The Raspberry Pi Pico shoe: the shared drivers (boards/mcu) on this board's pins. RP2040 pin interrupts are hard:
the beam's handler shuts the gate within 30 microseconds of the edge, and allocates nothing."""

from boards.mcu import service
from boards.rpi_pico import journal_flash, pins
from firmware.compat import const

FLASH_BASE = const(0x10000000)  # the flash as the RP2040 maps it (XIP)
PROGRAM_BYTES = const(640 * 1024)  # the program region: the chip's 2 MB less rp2.Flash()'s 1408 KB of storage
_RESTART_MS = const(200)  # the watchdog's timeout once the loop is left: the last answer's bytes go out first
_SCRATCH = const(0x4005800C)  # the watchdog's SCRATCH0: kept through its reset (the SDK's reboot uses 4 to 7)
_ASKED = const(0x53414254)  # "SABT" there: the reset was a restart a command asked for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin


def _attach(pin: "Pin", handler, trigger: int):
    pin.irq(handler=handler, trigger=trigger, hard=True)


def _beam_handler(on_break):
    """The gate shut by a native store first (gate_irq.py); on_break alone where there is no viper (CPython, with
    or without the drivers' tests' fake micropython module)."""
    try:
        from boards.rpi_pico.gate_irq import shut_first
    except (ImportError, AttributeError):
        return on_break
    return shut_first(on_break)


def _interlock():
    """The gate and the beam's count in PIO (pio_gate.py, frozen for the chip); None where there is no PIO (CPython,
    with the drivers' tests' fake rp2 module): the gate is then the pin's (boards/mcu/gate.py). The emulated Pico's
    tests show the PIO's (tests/host/test_pico_pio.py)."""
    try:
        from boards.rpi_pico.pio_gate import PioInterlock
    except (ImportError, AttributeError):
        return None
    return PioInterlock()


def start(config):
    service.start(config, pins, _attach, journal_flash.partition, _beam_handler, interlock=_interlock)


def production():
    """The production image's loop (its frozen main.py): the shoe's protocol alone on USB (docs/protocol.md), never
    returning but for a restart. The firmware challenge covers the flash's program region, the frozen code in it."""
    import sys

    from firmware import identity
    from firmware.startup import load_config

    identity.REGION = (FLASH_BASE, PROGRAM_BYTES)
    service.start(load_config(), pins, _attach, journal_flash.partition, _beam_handler, board=sys.modules[__name__],
                  requested=_requested, interlock=_interlock)
    from machine import mem32

    mem32[_SCRATCH] = _ASKED  # the loop returned: a command asked for the restart (its boot record says so)


def _requested():
    from machine import mem32

    asked = mem32[_SCRATCH] == _ASKED
    mem32[_SCRATCH] = 0
    return asked


def restart():
    """The production image's way out of its loop, whatever ended it: the gate locked, Ctrl-C off, and the chip reset
    by its watchdog (started here if the loop never started it), never the REPL that follows main.py."""
    import time

    import micropython
    from machine import WDT, Pin

    micropython.kbd_intr(-1)
    Pin(pins.GATE, Pin.OUT, value=pins.GATE_LOCKED)
    WDT(timeout=_RESTART_MS)
    while True:
        try:
            time.sleep_ms(1000)
        except BaseException:  # noqa: BLE001, S110 - nothing may end this wait but the reset
            pass


def set_clock(year, month, day, hour, minute, second):
    """Commissioning: set the DS3231 to UTC, e.g. set_clock(2026, 11, 30, 8, 0, 0) (README.md)."""
    service.set_clock(pins, year, month, day, hour, minute, second)
