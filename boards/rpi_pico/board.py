"""The Raspberry Pi Pico shoe: the shared drivers (boards/mcu) on this board's pins. RP2040 pin interrupts are hard:
the beam's handler shuts the gate within tens of microseconds of the edge, and allocates nothing."""

from boards.mcu import service
from boards.rpi_pico import journal_flash, pins

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin


def _attach(pin: "Pin", handler, trigger: int):
    pin.irq(handler=handler, trigger=trigger, hard=True)


def start(config):
    service.start(config, pins, _attach, journal_flash.partition)


def set_clock(year, month, day, hour, minute, second):
    """Commissioning: set the DS3231 to UTC, e.g. set_clock(2026, 11, 30, 8, 0, 0) (README.md)."""
    service.set_clock(pins, year, month, day, hour, minute, second)
