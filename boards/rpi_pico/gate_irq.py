"""The beam's hard interrupt handler on the RP2040: the gate's pin driven locked by one store to the SIO's
GPIO_OUT_CLR register, in native code, first thing; then the shared handler (boards/mcu/beam.py), which shuts it
through the Gate again and queues the card. With the Python handler alone the gate fell up to 33.8 µs after the
beam's edge (issue 22); the budget is 30 (bench/budgets.json, pico.gate_close_us.max). Frozen for armv6m: it
imports on the chip only (boards/rpi_pico/board.py)."""

import micropython

_on_break = None  # the shared handler, set once by shut_first before the interrupt is attached


@micropython.viper
def _handler(pin):
    sio = ptr32(uint(0xD000) << 16)  # noqa: F821  # the SIO block, 0xD0000000 (viper's builtins)
    sio[6] = 1 << 16  # GPIO_OUT_CLR (0x18): pins.GATE (16) low, pins.GATE_LOCKED (tests/host/test_board_pins.py)
    _on_break(pin)  # type: ignore[misc]  # set by shut_first before any interrupt


def shut_first(on_break):
    """The handler to attach to the beam: the gate locked in native code, then on_break(pin)."""
    global _on_break
    _on_break = on_break
    return _handler
