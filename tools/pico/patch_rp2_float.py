"""Make MicroPython's rp2 port (extracted under build/) use the compiler's float, not the RP2040 ROM's.

The port pins its float to `pico_float_micropython`: pico-sdk's ROM shims (float_*_rp2040) plus MicroPython's libm.
The emulated Pico boots on a bootrom of the project's own, which has no float routines (the B1 ROM's are licensed
for use on an RP2040 only): this drops the ROM shims and their link-time wraps, keeping MicroPython's libm, so
single-precision arithmetic is libgcc's. Double goes to `pico_double_compiler` through CMAKE_ARGS (Makefile)."""

import re
import sys
from pathlib import Path

ROM_SOURCES = re.compile(
    r"if\(PICO_RP2040\)\n    target_sources\(pico_float_micropython INTERFACE\n(?:        \S+rp2040\.[Sc]\n)+    \)\n"
    r"elseif")
LIBM_EXTRA = "    ${MICROPY_PORT_DIR}/libm_extra.c\n"  # its __aeabi_fadd mends the ROM's; libgcc's needs no mending
WRAP = re.compile(r"^(?:if\(PICO_RP2040\)\n)?\s*pico_wrap_function\(pico_float_micropython \w+\)\n(?:endif\(\)\n)?",
                  re.M)


def patch(text):
    out, n = ROM_SOURCES.subn("if(FALSE)\nelseif", text)
    if n != 1:
        raise SystemExit("patch_rp2_float: the port's RP2040 float sources were not found (another MicroPython?)")
    if LIBM_EXTRA not in out:
        raise SystemExit("patch_rp2_float: the port's libm_extra.c was not found")
    out = out.replace(LIBM_EXTRA, "")
    out, n = WRAP.subn("", out)
    if n < 20:
        raise SystemExit("patch_rp2_float: %d float wraps found, expected the port's 25" % n)
    return out


if __name__ == "__main__":
    path = Path(sys.argv[1])
    path.write_text(patch(path.read_text()))
