"""The one-card rule in the RP2040's PIO (issue 36): two state machines of PIO0 that run from their own instruction
memory, whatever the core does (a flash erase with interrupts off, a garbage collection, USB).

- The gate's machine owns the gate's pin. The firmware arms it for one card (a word in its TX FIFO); it waits for
  the mouth to be clear, opens, and shuts the gate itself on the beam's break, two cycles after the pin's
  synchroniser, then waits for the next arm. Nothing opens the gate but an arm: at reset the pin is an input, held
  locked by its pull-down (the board's README), and a stopped machine was shut first (close()).
- The count's machine counts the beam's breaks (cards), in its X register, down from 0xFFFFFFFF. After each pass of
  the loop the firmware compares that count with the breaks the beam's interrupt handler saw: a card the hardware
  counted and the interrupt did not (two forced through the locked mouth while a sector erase held interrupts off
  coalesce into one edge for the interrupt) is queued as a card, which the controller journals as forced (S-FORCED).

The programs themselves: pio_programs.py. Frozen for the rp2 port.
"""

import machine
import rp2

from boards.rpi_pico import pins
from boards.rpi_pico.pio_programs import beam_count, one_card
from firmware.cards import UNKNOWN
from firmware.compat import const
from firmware.events import EV_CARD

_SET_LOCKED = const(0xE000)  # set(pins, 0): the gate's pin locked
_PULL_NOBLOCK = const(0x8080)  # pull(noblock): a word of the TX FIFO dropped (none: X copied, harmless)
_MOV_ISR_NOT_X = const(0xA0C9)  # mov(isr, invert(x)): the count
_PUSH_NOBLOCK = const(0x8000)  # push(noblock)
_TX_DEPTH = const(4)
_IO_INTR = const(0x400140F0)  # IO_BANK0's INTR0: the GPIOs' raw interrupts, 4 bits a pin, 2 pins a byte
_EDGE_LOW = const(4)  # a pin's EDGE_LOW bit (EDGE_HIGH is 8)


class PioGate:
    """The gate as boards/mcu/gate.py's Gate, its pin the PIO's: open() arms one card, close() shuts it now."""

    def __init__(self, machine_):
        self._sm = machine_

    def open(self):
        self._sm.put(1)

    def close(self):
        """Allocation-free (the beam's hard interrupt handler calls it): the pin locked first, any arm dropped, the
        machine back at its first instruction, waiting for the next arm."""
        sm = self._sm
        sm.exec(_SET_LOCKED)
        for _ in range(_TX_DEPTH):
            sm.exec(_PULL_NOBLOCK)
        sm.restart()


class PioInterlock:
    """The two machines, started; gate is the PioGate; watch() then check() once a pass of the loop."""

    def __init__(self):
        gate_sm = rp2.StateMachine(0, one_card, set_base=machine.Pin(pins.GATE), in_base=machine.Pin(pins.BEAM))
        self.gate = PioGate(gate_sm)
        gate_sm.active(1)
        count = rp2.StateMachine(1, beam_count, in_base=machine.Pin(pins.BEAM))
        count.exec("mov(x, invert(null))")  # the count at zero
        count.active(1)
        self._count = count
        self._beam = None
        self._events = None
        self._offset = 0  # the hardware's count less the interrupt's when watch() began
        # The byte of the beam's 4 bits, read alone: a 32-bit read of the register is an int of more than 30 bits
        # whenever GPIO 23's latched bits are set, which a 32-bit VM allocates, a pass at a time for days.
        self._intr = _IO_INTR + pins.BEAM // 2
        self._edge = (_EDGE_LOW if pins.BEAM_BROKEN == 0 else 2 * _EDGE_LOW) << (4 * (pins.BEAM % 2))

    def watch(self, beam, events):
        """The beam's handler (its seen count) and the queue the cards it missed go to."""
        self._beam = beam
        self._events = events
        self._offset = self.counted() - beam.seen

    def counted(self):
        """The breaks the hardware counted since the machine started."""
        count = self._count
        while count.rx_fifo():
            count.get()
        count.exec(_MOV_ISR_NOT_X)
        count.exec(_PUSH_NOBLOCK)
        return count.get()

    def check(self):
        """Once a pass: the breaks the hardware counted that the beam's interrupt did not see (nor has pending) are
        queued as cards, interrupts off meanwhile (the queue has one producer at a time)."""
        beam = self._beam
        events = self._events
        if beam is None or events is None:
            return
        state = machine.disable_irq()
        try:
            counted = self.counted()
            pending = 1 if machine.mem8[self._intr] & self._edge else 0
            missed = counted - self._offset - beam.seen - pending
            if missed > 0:
                for _ in range(missed):
                    events.put(EV_CARD, UNKNOWN)
                beam.seen += missed
        finally:
            machine.enable_irq(state)
