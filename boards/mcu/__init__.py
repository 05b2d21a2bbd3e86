"""Drivers both hardware boards share (Raspberry Pi Pico, ESP32). They take their pins, UART and I2C as arguments
and import no hardware module at load time, so CPython and the unix port test them with fakes."""
