"""The ESP32 shoe: the shared drivers (boards/mcu) on this board's pins. ESP32 pin interrupts are always soft (run
by the scheduler, after a GC pause if one is under way): the hardware interlock in README.md drops the solenoid
within microseconds of the beam breaking, whatever the software's delay."""

from boards.esp32 import journal_flash, pins
from boards.mcu import service

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin


def _attach(pin: "Pin", handler, trigger: int):
    pin.irq(handler=handler, trigger=trigger)  # the esp32 port refuses hard=: its pin interrupts are scheduled


def start(config):
    service.start(config, pins, _attach, journal_flash.partition)


def set_clock(year, month, day, hour, minute, second):
    """Commissioning: set the DS3231 to UTC, e.g. set_clock(2026, 11, 30, 8, 0, 0) (README.md)."""
    service.set_clock(pins, year, month, day, hour, minute, second)
