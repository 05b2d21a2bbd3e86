"""The emulated Pico's secure element (docs/pico-emulator.md): boards/sim/element.py's model on the host, reached by
the emulator's I2C (tools/pico/pico.mjs, --element-fd) over a socket, byte by byte, in the chip's simulated time.
sabot.pico starts it with each emulator."""

import socket
import struct
import threading


def load_element(path, clock):
    """The board's secure element: boards/sim/element.py's model (a Trust&GO by default), its state in the file path
    (made, with a new key, at the first start), its time clock() in µs (the emulator's simulated time)."""
    from boards.sim.element import SimElement

    return SimElement.load(str(path), clock=clock)


class ElementLink:
    """The host's end of the emulator's I2C to the element (tools/pico/pico.mjs, --element-fd): each request, the
    bus event, its byte and the simulated time in µs (a float64), answered by the model at once with one byte (an
    acknowledge as 1 or 0, or the byte read). The model's clock is the time of the last event: it runs on the
    emulator's simulated time, not this computer's. A thread serves it until the emulator closes its end."""

    START, WRITE, READ, STOP, POWER_OFF = b"SWRPO"
    _REQUEST = struct.Struct("<BBd")

    def __init__(self, path, element=load_element):
        self.now_us = 0.0
        self.model = element(path, self.clock)
        self._socket, self.child = socket.socketpair()
        self.failure = None  # what stopped the link, if the model raised

    def clock(self):
        return self.now_us

    def start(self):
        self.child.close()  # the emulator's copy is its own now
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        from boards.vboard.element_link import exactly

        link, model = self._socket, self.model
        size = self._REQUEST.size
        with link:
            while True:
                request = exactly(link, size)
                if len(request) < size:
                    return
                op, value, self.now_us = self._REQUEST.unpack(request)
                try:
                    if op == self.START:
                        answer = 1 if model.bus_start(value >> 1, bool(value & 1)) else 0
                    elif op == self.WRITE:
                        answer = 1 if model.bus_write(value) else 0
                    elif op == self.READ:
                        answer = model.bus_read() & 0xFF
                    elif op == self.STOP:
                        model.bus_stop()
                        answer = 0
                    else:
                        model.power_off()
                        answer = 0
                except Exception as e:  # noqa: BLE001 - the emulator waits on the answer: it stops, named, instead
                    self.failure = e
                    return
                link.sendall(bytes((answer,)))
