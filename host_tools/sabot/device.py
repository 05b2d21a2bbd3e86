"""What the tools say of a shoe they cannot reach: one error type for every link (mpremote, the protocol); and what
`sabot vboard` says and does on either board (the unix port's or the emulated Pico)."""

import sys


class DeviceError(Exception):
    pass


def serial_ports():
    """The serial ports present, for the technician who gave a port with no device."""
    from serial.tools.list_ports import comports  # pyserial, mpremote's own dependency

    return sorted(p.device for p in comports())


def no_device(port):
    present = serial_ports()
    return DeviceError("no device at %s: plug the shoe in by USB and give its port (%s)" % (
        port, "serial ports present: " + ", ".join(present) if present else "no serial port is present"))


def vboard_error(message):
    print("sabot vboard: error: %s" % message, file=sys.stderr)
    return 2


def stop_on_terminate(signum, frame):
    """SIGTERM's handler: a terminated vboard stops as at Ctrl-C, taking its board's process with it."""
    raise KeyboardInterrupt
