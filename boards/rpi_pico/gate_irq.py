"""The beam's hard interrupt handler on the RP2040: the gate locked by native stores first, then the shared handler
(boards/mcu/beam.py), which shuts it through the Gate again and queues the card. The gate's pin is the PIO's
(pio_gate.py), whose state machine shuts it on the beam's edge by itself within a few cycles; this is the interrupt
path beside it, as fast as the core allows: `set pins, 0` written into the gate's state machine's SM0_INSTR
(executed at once), and the pin's bit in the SIO's GPIO_OUT_CLR (the pin's driver, should the PIO not own it). With
the Python handler alone the gate fell up to 33.8 µs after the beam's edge (issue 22). Frozen for armv6m: it
imports on the chip only (boards/rpi_pico/board.py)."""

import micropython

_on_break = None  # the shared handler, set once by shut_first before the interrupt is attached


@micropython.viper
def _handler(pin):
    pio = ptr32(uint(0x5020) << 16)  # noqa: F821  # PIO0, 0x50200000 (viper's builtins)
    pio[54] = 0xE000  # SM0_INSTR (0xD8): set(pins, 0), the gate's state machine (pio_gate.py's _SET_LOCKED)
    sio = ptr32(uint(0xD000) << 16)  # noqa: F821  # the SIO block, 0xD0000000
    sio[6] = 1 << 16  # GPIO_OUT_CLR (0x18): pins.GATE (16) low, pins.GATE_LOCKED (tests/host/test_board_pins.py)
    _on_break(pin)  # type: ignore[misc]  # set by shut_first before any interrupt


def shut_first(on_break):
    """The handler to attach to the beam: the gate locked in native code, then on_break(pin)."""
    global _on_break
    _on_break = on_break
    return _handler
