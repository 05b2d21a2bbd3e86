# Frozen modules of the Raspberry Pi Pico images: `make image BOARD=rpi_pico` builds both from the pinned
# MicroPython source (docs/pico-emulator.md), i.e. in MicroPython's tree
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/sabot/boards/rpi_pico/manifest.py
# the production image (no REPL: production/), or, with SABOT_IMAGE=development in the environment, the development
# image (mpremote's REPL, code on the filesystem imported first): the same modules, their _boot.py and main.py differ.
# Paths are relative to this file; tests/host/test_manifests.py checks that they exist and cover every module.
# ruff: noqa: F821 (module, package and freeze are the build tool's, given when it runs this file)
freeze("$(PORT_DIR)/modules", "rp2.py")  # the port's rp2 module; not its _boot.py, which formats a shoe's flash

package("firmware", base_path="../..")
module("boards/__init__.py", base_path="../..")
package("boards/mcu", base_path="../..")
package("boards/rpi_pico", files=("__init__.py", "board.py", "filesystem.py", "gate_irq.py", "journal_flash.py",
                                   "pins.py", "pio_gate.py", "pio_programs.py"), base_path="../..")

# The board's own _boot.py (the filesystem beside the journal's ring), then a frozen boot.py and main.py that run in
# place of any on the filesystem: the gate locked first, then the shoe; production's main.py never returns.
module("boot.py")
if __import__("os").environ.get("SABOT_IMAGE") == "development":
    module("_boot.py")
    module("main.py", base_path="..")
else:
    module("_boot.py", base_path="production")
    module("main.py", base_path="production")
