# _boot.py of the shoe's development Pico image, frozen in place of the rp2 port's own (which formats the whole
# storage region whenever its mount fails): the gate locked, then littlefs beside the journal's ring
# (boards/rpi_pico/filesystem.py). Then MicroPython runs the frozen boot.py and main.py, and the REPL after main.py.
from machine import Pin

Pin(16, Pin.OUT, value=0)  # pins.GATE, pins.GATE_LOCKED: locked before anything else (boot.py does it again)

from boards.rpi_pico.filesystem import mount  # noqa: E402 (after the gate)

mount()
del mount
