# _boot.py of the shoe's production Pico image (docs/pico-emulator.md, "The two images"). MicroPython's rp2 main.c
# runs it first, then boot.py and main.py, frozen ones before any on the filesystem (shared/runtime/pyexec.c,
# pyexec_file_if_exists), then the REPL once main.py returns; USB is brought up between boot.py and main.py. So the
# REPL is closed by the frozen main.py (production/main.py), which never returns; this file closes the rest: Ctrl-C
# off, code imported from the image alone (sys.path is the frozen modules' alone: a .py or .mpy on the filesystem
# is never imported), the gate locked, the filesystem mounted (boards/rpi_pico/filesystem.py).
import micropython

micropython.kbd_intr(-1)

import sys  # noqa: E402

sys.path[:] = [".frozen"]  # not '' nor '/lib': the filesystem holds data only

from machine import Pin  # noqa: E402

Pin(16, Pin.OUT, value=0)  # pins.GATE, pins.GATE_LOCKED

from boards.rpi_pico.filesystem import mount  # noqa: E402

mount()
del mount
