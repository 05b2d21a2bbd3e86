"""The Raspberry Pi Pico (RP2040) shoe: pin map, boot-time gate lock, start (README.md has the hardware)."""
