"""The beam sensor's interrupt handler (boards/mcu/beam.py) called N times in a loop, for callgrind to count what
it does per call beyond an empty handler. The pins' value() is a bound builtin (set.add, int), as cheap as a C pin.
The calls run under micropython.heap_lock(), as in a hard interrupt: an allocation fails, and the VM puts the frames
of big functions on the C stack instead of trying the heap first.

    micropython -m isr MODE N          (compiled: bench/vmrun.py)

  empty    an empty handler, called as on_break is: the loop's and the call's own cost
  first    a handler that is on_break's first statement alone (self._gate.close()): entry to gate shut
  bare     BeamSensor.on_break with neither card reader nor stop-card detector: gate closed, card queued
  fitted   with a card reader holding a fresh identity (the loop queues one before each call, in every mode)
  time     microseconds per call of each of the above, best of 5 (prints one JSON line)
"""

import json
import sys
import time

import micropython

from boards.mcu.beam import BeamSensor
from boards.mcu.gate import Gate
from boards.mcu.reader import CardReader
from firmware.runtime import EventQueue


class Pin:
    """value(level) writes, value() reads 0: builtins, so the pin costs what a C pin's call costs."""

    def __init__(self):
        self.value = set().add


class StopPin:
    def __init__(self):
        self.value = int  # value() is 0: no stop card


class FirstStatement(BeamSensor):
    """on_break cut after its first statement (bench/gate.py checks that it is this one)."""

    def on_break(self, _pin):
        self._gate.close()


class Empty:
    def on_break(self, _pin):
        pass


def setup(mode, n):
    """(handler to call with the pin, reader the loop feeds): every mode builds them all, so that setups cost alike."""
    ring = EventQueue(n + 1)  # never full: every put takes the normal path
    reader = CardReader(None)
    gate = Gate(Pin())
    empty = Empty()
    handlers = {"empty": empty.on_break, "first": FirstStatement(gate, ring).on_break,
                "bare": BeamSensor(gate, ring).on_break,
                "fitted": BeamSensor(gate, ring, reader, StopPin(), 1).on_break}
    return handlers[mode], reader


def loop(handler, reader, n):
    """n calls; before each, a fresh identity is queued in the reader (also where no handler takes it)."""
    pin = Pin()
    cards = reader._cards
    read_at = reader._read_at
    micropython.heap_lock()
    for i in range(n):
        head = i % 5
        cards[head] = i % 52
        read_at[head] = time.ticks_ms()
        reader._head = 0 if head == 4 else head + 1
        handler(pin)
    micropython.heap_unlock()


def main(argv):
    mode, n = argv[0], int(argv[1])
    if mode != "time":
        handler, reader = setup(mode, n)
        loop(handler, reader, n)
        return 0
    out = {}
    for _ in range(5):
        for each in ("empty", "first", "bare", "fitted"):
            handler, reader = setup(each, n)
            started = time.ticks_us()
            loop(handler, reader, n)
            took = time.ticks_diff(time.ticks_us(), started) / n
            out[each] = min(out.get(each, took), took)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
