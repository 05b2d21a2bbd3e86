"""The gate (boards/mcu/gate.py) and the beam sensor's interrupt handler (boards/mcu/beam.py) on CPython with fake
pins, and the interrupt handlers (the beam's and the buttons') under the MicroPython VM's heap lock."""

import ast

import pytest

from boards.mcu.beam import BeamSensor
from boards.mcu.gate import Gate
from firmware import cards
from firmware.events import EV_CARD, EV_NO_MORE_BETS
from firmware.runtime import EventQueue
from sabot.boards import hardware
from tests.conftest import ROOT, micropython
from tests.host.fake_machine import FakePin, Log, LoggedGate, LoggedRing, reader_with
from tests.host.handler_source import assert_builds_nothing, code, function

pytestmark = pytest.mark.usefixtures("ticks")
AS = cards.parse("AS")
KH = cards.parse("KH")


@pytest.mark.req("S-FAILSAFE")
def test_the_gate_is_locked_when_built_and_on_close():
    pin = FakePin(1)
    gate = Gate(pin, locked_level=0)
    assert pin.level == 0
    gate.open()
    assert pin.level == 1
    gate.close()
    assert pin.written == [0, 1, 0]


@pytest.mark.req("S-ONE", "S-FAILSAFE")
def test_the_beam_handler_closes_the_gate_before_it_queues_the_card():
    log = Log()
    beam = BeamSensor(LoggedGate(log), LoggedRing(log), reader_with(b"AS\n"))
    beam.on_break(FakePin(0))
    assert log.entries == ["close", (EV_CARD, AS)]


@pytest.mark.req("S-ONE", "S-FAILSAFE")
def test_the_beam_handler_shuts_the_gate_first_and_builds_nothing():
    """CPython cannot count allocations: the handler's source shows none (the VM test below locks the heap)."""
    handler = function("boards/mcu/beam.py", "on_break")
    assert ast.unparse(code(handler)[0]) == "self._gate.close()"
    assert_builds_nothing(handler)


@pytest.mark.req("S-STOP")
def test_without_a_reader_a_card_is_unknown_unless_the_stop_detector_sees_the_stop_card():
    ring = EventQueue()
    stop = FakePin(1)
    beam = BeamSensor(Gate(FakePin()), ring, None, stop, stop_active=0)
    beam.on_break(FakePin(0))
    stop.level = 0
    beam.on_break(FakePin(0))
    assert [(ring.take(), ring.arg), (ring.take(), ring.arg)] == [(EV_CARD, cards.UNKNOWN), (EV_CARD, cards.STOP)]


@pytest.mark.req("S-STOP", "S-COUNT")
def test_the_readers_identity_goes_with_the_card_and_the_stop_detector_wins_over_any_line(ticks):
    ring = EventQueue()
    reader = reader_with(b"KH\n", b"KH\n", b"??\n", at=ticks.ticks_ms())  # the second KH: a duplicated line
    stop = FakePin(1)
    beam = BeamSensor(Gate(FakePin()), ring, reader, stop, stop_active=0)
    beam.on_break(FakePin(0))
    stop.level = 0  # the stop card passes: the detector sees it, whatever line the reader has for it
    beam.on_break(FakePin(0))
    beam.on_break(FakePin(0))
    assert [(ring.take(), ring.arg) for _ in range(3)] == [(EV_CARD, KH), (EV_CARD, cards.STOP), (EV_CARD, cards.STOP)]
    assert ring.take() == 0


VM_HANDLERS = r"""
import micropython, time
from boards.mcu.beam import BeamSensor
from boards.mcu.button import Button
from boards.mcu.gate import Gate
from boards.mcu.reader import CardReader
from firmware.runtime import EventQueue
import %s  # every hardware board's board.py loads on the VM


class Pin:
    def __init__(self, level):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


ring = EventQueue()
reader = CardReader(None)
for byte in b"AS\n":
    reader.feed(byte, time.ticks_ms())
gate_pin = Pin(1)
stop = Pin(1)
beam = BeamSensor(Gate(gate_pin), ring, reader, stop, 0)
button = Button(ring, 4)
time.sleep_ms(40)
pressed = Pin(0)
on_break = beam.on_break  # made before the lock, as Pin.irq() makes them at setup
on_edge = button.on_edge
micropython.heap_lock()
try:
    on_break(gate_pin)
    on_edge(pressed)
    stop.level = 0  # the stop card at the detector
    on_break(gate_pin)
finally:
    micropython.heap_unlock()
print(gate_pin.level, ring.take(), ring.arg, ring.take(), ring.take(), ring.arg)
"""


@pytest.mark.req("S-ONE", "S-FAILSAFE")
def test_the_interrupt_handlers_run_with_the_heap_locked_on_the_micropython_vm(tmp_path):
    script = tmp_path / "handlers.py"
    script.write_text(VM_HANDLERS % ", ".join("boards.%s.board" % board for board in hardware()))
    run = micropython([str(script)], str(ROOT), cwd=tmp_path)
    assert run.stdout.split() == ["0", str(EV_CARD), str(AS), str(EV_NO_MORE_BETS), str(EV_CARD), str(cards.STOP)], \
        run.stdout + run.stderr
