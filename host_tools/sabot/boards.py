"""The boards, found by their folders: each boards/<board>/board.json declares, once, what the tools need to know of
it. "arch": mpy-cross's -march for its processor (null: bytecode alone, the sim's); "platform": the sys.platform
its MicroPython reports, by which `sabot deploy` knows a device; "drivers": the other folders of boards/ its image
holds besides its own (["mcu"], the shared drivers; the sim's build holds them, for the secure element's, and the
virtual board: ["mcu", "vboard"]); "element": the secure element it is built with, {"part": its Microchip part
number, "address": its 7-bit I2C address in hex} (boards/<board>/README.md's parts and wiring; the hardware boards'
pins.py repeat the address as ELEMENT_ADDRESS, tests/host/test_board_pins.py holds them together); "image", for a
board with no image of its own: the board whose image it runs in (the virtual board runs in the sim's: `sabot
vboard`). The Makefile, the type check, the bench, `sabot` and the tests read the list here; names() is the boards
built, each with its image.

Standard library only: the Makefile runs it with the system's python3 before the venv exists:

    python3 host_tools/sabot/boards.py names|hardware
    python3 host_tools/sabot/boards.py march|folders BOARD
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECLARATION = "board.json"


def declared():
    """{board: its declaration}, every folder of boards/ that has one, by name."""
    return {path.parent.name: json.loads(path.read_text())
            for path in sorted((ROOT / "boards").glob("*/" + DECLARATION))}


def names():
    """The boards built, each with its image (not the boards that run in another's)."""
    return sorted(name for name, board in declared().items() if "image" not in board)


def hardware():
    """The boards built for a processor: type-checked against its MicroPython stubs, frozen by their manifest."""
    return [name for name in names() if declared()[name]["arch"]]


def platforms():
    """{sys.platform: board}: what a device's MicroPython says it is."""
    return {declared()[name]["platform"]: name for name in names()}


def folders(name):
    """The board folders its image holds: the shared drivers it names, then its own."""
    return ["boards/" + driver for driver in declared()[name]["drivers"]] + ["boards/" + name]


def element(name):
    """(part number, I2C address) of the secure element the board is built with."""
    declared_element = declared()[name]["element"]
    return declared_element["part"], int(declared_element["address"], 16)


def march(name):
    """mpy-cross's option for the board's processor; empty for bytecode alone."""
    arch = declared()[name]["arch"]
    return "-march=" + arch if arch else ""


def main(argv):
    if argv in (["names"], ["hardware"]):
        print(" ".join(names() if argv[0] == "names" else hardware()))
        return 0
    if len(argv) == 2 and argv[0] in ("march", "folders") and argv[1] in names():
        print(march(argv[1]) if argv[0] == "march" else " ".join(folders(argv[1])))
        return 0
    print("boards.py: no board %s: one of %s (a folder of boards/ with its %s)" % (
        " ".join(argv[1:]) or "given", ", ".join(names()), DECLARATION), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
