"""A model of the secure element (boards/mcu/atecc.py's ATECC608B) that answers the same bytes on the same I2C
transactions: the driver cannot tell it from the chip. Its private key is made inside it from a seed and no command
gives it out, nor replaces it; its counters only count up, to the chip's maximum; its random numbers come from the
seed too. It shares the driver's names (addresses, opcodes, modes) and frames and checks the bytes its own way, as a
chip does: a CRC or framing slip on either side shows. The sims give it a fixed seed (DEVELOPMENT_SEED), so that
every runtime signs the same journal the same way; the virtual board a random one, its state in a file outside the
board's filesystem (docs/keys.md). Not modelled: execution times (it answers at once), the chip's watchdog, its
configuration and data zones."""

import os
import struct
from hashlib import sha256

from boards.mcu import atecc
from boards.sim import p256

DEVELOPMENT_SEED = sha256(b"sabot development element").digest()  # public, as the development key is
REVISION = b"\x00\x00\x60\x03"  # Info's answer for an ATECC608B
_STATE = "<32sIII"  # the seed, counter 0, counter 1, random numbers drawn
_ENODEV = 19  # what machine.I2C raises when no device acknowledges its address
_OK, _PARSE_ERROR, _EXECUTION_ERROR, _CRC_ERROR, _AWAKE = 0x00, 0x03, 0x0F, 0xFF, 0x11


def _crc(data):
    """The ATECC's CRC-16 as a register shifted right, each bit of the polynomial 0x8005 reversed (0xA001), the
    result reversed back: the same sum as cryptoauthlib's, computed the other way round."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = crc >> 1 ^ 0xA001 if crc & 1 else crc >> 1
    reversed_crc = 0
    for _ in range(16):
        reversed_crc = reversed_crc << 1 | crc & 1
        crc >>= 1
    return reversed_crc


def _framed(payload):
    """count, payload, CRC little-endian: how the chip sends an answer."""
    body = struct.pack("<B", len(payload) + 3) + payload
    return body + struct.pack("<H", _crc(body))


class SimElement:
    def __init__(self, seed, path=None, counters=(0, 0), drawn=0):
        """The chip made from seed; its state written to path (when given) at every change, as its EEPROM keeps it."""
        self._seed = seed
        self._key = p256.scalar(seed)
        self._path = path
        self._counters = list(counters)
        self._drawn = drawn
        self._awake = False
        self._tempkey = None
        self._out = b""

    @classmethod
    def load(cls, path):
        """The element whose state is at path; a new one (a random seed) saved there when there is none."""
        try:
            with open(path, "rb") as f:
                seed, counter0, counter1, drawn = struct.unpack(_STATE, f.read())
        except OSError:
            element = cls(os.urandom(32), path)
            element._save()
            return element
        return cls(seed, path, (counter0, counter1), drawn)

    def writeto(self, address, buf):
        """A write on the bus: the wake pulse at 0x00, or a word address and its bytes at 0x60."""
        if address == atecc.WAKE_ADDRESS:
            if not self._awake:
                self._awake = True
                self._out = _framed(bytes((_AWAKE,)))
            raise OSError(_ENODEV)  # nobody acknowledges 0x00
        self._present(address)
        word = buf[0]
        if word == atecc.COMMAND:
            self._out = _framed(self._execute(bytes(buf[1:])))
        elif word in (atecc.SLEEP, atecc.IDLE):
            self._awake = False
            if word == atecc.SLEEP:
                self._tempkey = None

    def readfrom_into(self, address, buf):
        """A read on the bus: the last answer, then 0xFF as the chip's empty output buffer reads."""
        self._present(address)
        for i in range(len(buf)):
            buf[i] = self._out[i] if i < len(self._out) else 0xFF

    def _present(self, address):
        if address != atecc.ADDRESS or not self._awake:
            raise OSError(_ENODEV)  # another address, or the chip asleep: no acknowledge

    def _execute(self, body):
        """The answer's payload for a command's bytes (count to CRC)."""
        if len(body) < 7 or body[0] != len(body) or _crc(body[:-2]) != body[-2] | body[-1] << 8:
            return bytes((_CRC_ERROR,))
        opcode, param1, param2, data = body[1], body[2], body[3] | body[4] << 8, body[5:-2]
        if opcode == atecc.INFO and param1 == 0 and not data:
            return REVISION
        if opcode == atecc.RANDOM and param1 == 0 and not data:
            self._drawn += 1
            self._save()
            return sha256(b"sabot element random\0" + self._seed + struct.pack("<I", self._drawn)).digest()
        if opcode == atecc.GENKEY and param1 == 0 and param2 == atecc.KEY_SLOT and not data:
            return p256.public_key(self._key)
        if opcode == atecc.GENKEY and param2 == atecc.KEY_SLOT:
            return bytes((_EXECUTION_ERROR,))  # a new private key: slot 0 is locked
        if opcode == atecc.NONCE and param1 == atecc.NONCE_PASS_THROUGH and param2 == 0 and len(data) == 32:
            self._tempkey = data
            return bytes((_OK,))
        if opcode == atecc.SIGN and param1 == atecc.SIGN_EXTERNAL and param2 == atecc.KEY_SLOT and not data:
            if self._tempkey is None:
                return bytes((_EXECUTION_ERROR,))  # nothing loaded to sign
            digest, self._tempkey = self._tempkey, None
            return p256.sign(self._key, digest)
        if opcode == atecc.COUNTER and param1 in (0, atecc.COUNTER_INCREMENT) and param2 in (0, 1) and not data:
            if param1 == atecc.COUNTER_INCREMENT:
                if self._counters[param2] >= atecc.COUNTER_MAX:
                    return bytes((_EXECUTION_ERROR,))
                self._counters[param2] += 1
                self._save()
            return struct.pack("<I", self._counters[param2])
        return bytes((_PARSE_ERROR,))

    def _save(self):
        """The state replaced whole by a rename: the old or the new after a power cut, never a counter gone back."""
        if self._path is None:
            return
        temporary = self._path + ".tmp"
        with open(temporary, "wb") as f:
            f.write(struct.pack(_STATE, self._seed, self._counters[0], self._counters[1], self._drawn))
        os.rename(temporary, self._path)
