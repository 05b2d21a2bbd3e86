# Frozen modules of a production ESP32 image. In MicroPython's source tree:
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/sabot/boards/esp32/manifest.py
# Paths are relative to this file; tests/host/test_manifests.py checks that they exist and cover every module.
# ruff: noqa: F821 (include, package and module are the build tool's, given when it runs this file)
include("$(PORT_DIR)/boards/manifest.py")  # the port's own (its _boot.py mounts the filesystem the journal is on)

package("firmware", base_path="../..")
module("boards/__init__.py", base_path="../..")
package("boards/mcu", base_path="../..")
package("boards/esp32", files=("__init__.py", "board.py", "journal_flash.py", "pins.py"), base_path="../..")

# A frozen boot.py and main.py run in place of any on the filesystem: the gate locked first, then the shoe.
module("boot.py")
module("main.py", base_path="..")
