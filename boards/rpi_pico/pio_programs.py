"""The RP2040 PIO programs of the gate and the beam's count (pio_gate.py runs them; issue 36), assembled by the rp2
port's asm_pio when the module loads. Pins and levels are literals (an asm_pio body sees its own names only): the
set base is pins.GATE (1 open, 0 locked: pins.GATE_LOCKED), the in base pins.BEAM (0 broken: pins.BEAM_BROKEN);
tests/host/test_board_pins.py checks them against pins.py. Frozen for the rp2 port; the type checker skips the
bodies (their names are the assembler's)."""
# mypy: ignore-errors
# ruff: noqa: F821

import rp2


@rp2.asm_pio(set_init=rp2.PIO.OUT_LOW)
def one_card():
    pull(block)  # an arm: one card
    wait(1, pin, 0)  # the mouth clear (the beam, pins.BEAM, high)
    set(pins, 1)  # open
    wait(0, pin, 0)  # a card breaks the beam (pins.BEAM_BROKEN)
    set(pins, 0)  # shut, by the PIO itself (pins.GATE_LOCKED)


@rp2.asm_pio()
def beam_count():
    label("clear")
    wait(1, pin, 0)
    wait(0, pin, 0)  # a break
    jmp(x_dec, "clear")  # counted (X zero or not: the next instruction is the first anyway)
