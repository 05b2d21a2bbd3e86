"""The Raspberry Pi Pico (RP2040) shoe: pin map, boot-time gate lock, start (README.md has the hardware)."""

flash_fault = ""  # _boot.py's words when the flash was not recognised (nothing erased, the gate locked)
