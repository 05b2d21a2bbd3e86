"""The ESP32 shoe: pin map, boot-time gate lock, start (README.md has the hardware and its interlock)."""
