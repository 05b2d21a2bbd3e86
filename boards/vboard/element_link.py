"""The virtual board's I2C to its secure element: the model (boards/sim/element.py) runs in `sabot vboard`'s CPython
process, outside the MicroPython VM a technician's mpremote reaches, so that nothing the VM can read holds the
element's private key (docs/keys.md, "L'élément sécurisé"). Each transaction the driver makes crosses a socket the
VM inherits at each start (its number in $SABOT_ELEMENT): the VM's side is LinkedBus, the host's serve().

A request: operation (b"w" or b"r"), address, length, then the bytes written; the answer: 0, then the bytes read,
or the errno of the OSError the chip's bus raised (19: nobody acknowledged)."""

import os

from boards.mcu.atecc import ATECC

ADDRESS = 0x35  # the virtual board's element: a Trust&GO ATECC608B-TNGTLS (to come from the board's data)

ENV = "SABOT_ELEMENT"
_WRITE, _READ = 0x77, 0x72
_EIO = 5


class LinkedBus:
    """machine.I2C's writeto() and readfrom_into(), the calls the element's driver makes, carried to the model."""

    def __init__(self, fd):
        self._link = open(fd, "r+b")  # the unix port takes a descriptor, as CPython does

    def writeto(self, address, buf):
        self._link.write(bytes((_WRITE, address, len(buf))) + bytes(buf))
        self._answered(0)

    def readfrom_into(self, address, buf):
        self._link.write(bytes((_READ, address, len(buf))))
        buf[:] = self._answered(len(buf))

    def _answered(self, size):
        status = self._link.read(1)
        if status != b"\x00":
            raise OSError(status[0] if status else _EIO)  # nothing: sabot vboard has gone
        return self._link.read(size)


def element():
    """The virtual board's element, through its driver as a Pico's; OSError when the VM runs without sabot vboard."""
    fd = os.getenv(ENV)
    if fd is None:
        raise OSError(_EIO, "no secure element: the virtual board runs under sabot vboard")
    # No wait for the chip's execution times: sabot vboard's model has no clock (every command done by the time the
    # read crosses the socket), so that a restart's boot (its checkpoint: five commands, 350 ms at the chip's times)
    # stays as quick as a technician's mpremote expects of the virtual board, which enters its raw REPL right after a
    # soft reset. The chip's times, busy NACKs and watchdog are the core tests' and the emulated Pico's.
    return ATECC(LinkedBus(int(fd)), _no_wait, address=ADDRESS)


def _no_wait(ms):
    pass


def serve(link, chip):
    """The host's side, on a socket: each request answered by the chip until the VM closes its end (it stopped)."""
    with link:
        head = exactly(link, 3)
        while len(head) == 3:
            operation, address, size = head
            try:
                if operation == _WRITE:
                    chip.writeto(address, exactly(link, size))
                    answer = b"\x00"
                else:
                    buf = bytearray(size)
                    chip.readfrom_into(address, buf)
                    answer = b"\x00" + buf
            except OSError as e:
                answer = bytes((e.args[0] if e.args and type(e.args[0]) is int else _EIO,))
            link.sendall(answer)
            head = exactly(link, 3)


def exactly(link, size):
    """size bytes from the socket link, fewer when it closed first."""
    data = b""
    while len(data) < size:
        more = link.recv(size - len(data))
        if not more:
            break
        data += more
    return data
