"""The Raspberry Pi Pico shoe: the shared drivers (boards/mcu) on this board's pins. RP2040 pin interrupts are hard:
the beam's handler shuts the gate within 30 microseconds of the edge, and allocates nothing."""

from boards.mcu import service
from boards.rpi_pico import journal_flash, pins

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


def start(config):
    service.start(config, pins, _attach, journal_flash.partition, _beam_handler)


def set_clock(year, month, day, hour, minute, second):
    """Commissioning: set the DS3231 to UTC, e.g. set_clock(2026, 11, 30, 8, 0, 0) (README.md)."""
    service.set_clock(pins, year, month, day, hour, minute, second)
