"""What the tools say of a shoe they cannot reach: one error type for every link (mpremote, the protocol)."""


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
