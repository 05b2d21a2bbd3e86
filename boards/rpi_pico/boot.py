# /boot.py of a Raspberry Pi Pico shoe. Before anything else can run or fail, the gate's pin drives its solenoid
# de-energised: locked (S-FAILSAFE). Literals on purpose, no import of ours first: they are pins.GATE and
# pins.GATE_LOCKED, which tests/host/test_board_pins.py checks.
from machine import Pin

Pin(16, Pin.OUT, value=0)
