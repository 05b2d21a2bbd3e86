"""`sabot web`: the sim board and the firmware in a static page, on MicroPython's WebAssembly port (docs/web.md)."""
