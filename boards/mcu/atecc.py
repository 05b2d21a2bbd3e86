"""The secure element on I2C: an ATECC608B at 0x60 beside the DS3231, provisioned as Microchip's Trust&GO parts are
(slot 0's P-256 private key generated inside the chip and locked: no command reads or replaces it). The shoe asks
it for its public key, ECDSA signatures of digests, its monotonic counters and random numbers; never on a card's
path (a signature takes up to 115 ms).

The chip's wire protocol (its datasheet, and Microchip's cryptoauthlib): a wake pulse (SDA held low 60 us: the
address byte of a write to 0x00 at 100 kHz), then packets written to word address 0x03: count, opcode, param1,
param2 (16-bit little-endian), data, CRC-16 of all but the word address; the answer, read after the command's
maximum execution time, is count, data (or one status byte), CRC. A failed command raises ElementError, an OSError
as a missing I2C device does: at boot the shoe then stays locked."""

import time
from binascii import hexlify

from firmware.compat import const

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import I2C

ADDRESS = const(0x60)
WAKE_ADDRESS = const(0x00)  # nobody answers: the write only holds SDA low long enough to wake the chip
SLEEP = const(0x01)  # word addresses
IDLE = const(0x02)
COMMAND = const(0x03)
INFO = const(0x30)  # opcodes
RANDOM = const(0x1B)
GENKEY = const(0x40)
NONCE = const(0x16)
SIGN = const(0x41)
COUNTER = const(0x24)
NONCE_PASS_THROUGH = const(0x03)  # Nonce's mode: the 32 bytes given go to TempKey as they are
SIGN_EXTERNAL = const(0x80)  # Sign's mode: the message is TempKey, loaded by Nonce
COUNTER_INCREMENT = const(0x01)  # Counter's mode (0x00 reads)
COUNTER_MAX = const(2097151)  # the chip's limit: an increment past it is refused
KEY_SLOT = const(0)
WAKE_ANSWER = b"\x04\x11\x33\x43"  # status 0x11, "awake, no command yet", and its CRC
_WAKE_MS = const(2)  # the chip's tWHI, 1.5 ms at most
_EXECUTION_MS = {INFO: 5, RANDOM: 23, GENKEY: 115, NONCE: 20, SIGN: 115, COUNTER: 25}  # the datasheet's maxima
STATUS = {0x01: "verify miscompare", 0x03: "parse error (a command or parameter it refuses)", 0x05: "ECC fault",
          0x07: "self-test error", 0x08: "health test error", 0x0F: "execution error",
          0xEE: "watchdog about to expire", 0xFF: "CRC or communication error"}


class ElementError(OSError):
    """The element refused a command or answered garbled bytes: status is its status code (None for a bad answer)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


def crc16(data):
    """The chip's CRC-16 (polynomial 0x8005, each byte fed least significant bit first, register starting at 0)."""
    crc = 0
    for byte in data:
        for bit in range(8):
            if (byte >> bit & 1) != crc >> 15:
                crc = (crc << 1 ^ 0x8005) & 0xFFFF
            else:
                crc = crc << 1 & 0xFFFF
    return crc


def packet(opcode, param1, param2, data=b""):
    """A command as written to word address 0x03 (the address included)."""
    body = bytes((COMMAND, 7 + len(data), opcode, param1, param2 & 0xFF, param2 >> 8)) + data
    crc = crc16(body[1:])
    return body + bytes((crc & 0xFF, crc >> 8))


def answer(payload):
    """An answer as the chip sends it: count, payload (data or one status byte), CRC."""
    body = bytes((len(payload) + 3,)) + payload
    crc = crc16(body)
    return body + bytes((crc & 0xFF, crc >> 8))


class ATECC:
    def __init__(self, i2c: "I2C", sleep_ms=None):
        """i2c: the bus at 100 kHz (faster, the wake pulse is too short); sleep_ms: the wait (time.sleep_ms)."""
        self._i2c = i2c
        self._sleep_ms = sleep_ms or time.sleep_ms

    def revision(self):
        """Info's revision: 4 bytes, 00 00 60 03 for an ATECC608B."""
        return self._run(((INFO, 0, 0, b"", 4),))

    def random(self):
        """32 random bytes from the chip's generator."""
        return self._run(((RANDOM, 0, 0, b"", 32),))

    def public_key(self):
        """Slot 0's public key, X || Y (64 bytes): what the casino enrols."""
        return self._run(((GENKEY, 0, KEY_SLOT, b"", 64),))

    def sign(self, digest):
        """ECDSA P-256 over a 32-byte digest with slot 0's key: R || S (64 bytes). Nonce puts the digest in TempKey,
        Sign signs it, in one wake: TempKey is lost when the chip sleeps."""
        if len(digest) != 32:
            raise ValueError("the element signs a 32-byte digest, not %d bytes" % len(digest))
        return self._run(((NONCE, NONCE_PASS_THROUGH, 0, digest, 1), (SIGN, SIGN_EXTERNAL, KEY_SLOT, b"", 64)))

    def counter(self, which):
        """Monotonic counter 0 or 1, as it stands."""
        return int.from_bytes(self._run(((COUNTER, 0, which, b"", 4),)), "little")

    def increment(self, which):
        """Monotonic counter 0 or 1 counted up by one, its new value; an ElementError at COUNTER_MAX."""
        return int.from_bytes(self._run(((COUNTER, COUNTER_INCREMENT, which, b"", 4),)), "little")

    def wake(self):
        try:
            self._i2c.writeto(WAKE_ADDRESS, b"\x00")
        except OSError:
            pass  # no device at 0x00 acknowledges: the pulse is all that matters
        self._sleep_ms(_WAKE_MS)
        got = bytearray(4)
        self._i2c.readfrom_into(ADDRESS, got)
        if bytes(got) != WAKE_ANSWER:
            raise ElementError("the element did not wake: it answered %s" % hexlify(bytes(got)).decode())

    def idle(self):
        """Idle: TempKey kept, the watchdog stopped, a wake pulse needed again."""
        self._i2c.writeto(ADDRESS, bytes((IDLE,)))

    def sleep(self):
        """Sleep: TempKey cleared, the lowest power."""
        self._i2c.writeto(ADDRESS, bytes((SLEEP,)))

    def _run(self, commands):
        """Each (opcode, param1, param2, data, answer size) in one wake, the chip idle after; the last answer."""
        self.wake()
        try:
            for opcode, param1, param2, data, size in commands:
                got = self._command(opcode, param1, param2, data, size)
        finally:
            self.idle()
        return got

    def _command(self, opcode, param1, param2, data, size):
        self._i2c.writeto(ADDRESS, packet(opcode, param1, param2, data))
        self._sleep_ms(_EXECUTION_MS[opcode])
        got = bytearray(size + 3)
        self._i2c.readfrom_into(ADDRESS, got)
        count = got[0]
        if count == 4 and (size != 1 or got[1]):  # a status where data was due, or a status other than success
            if bytes(got[:4]) == answer(got[1:2]):
                raise ElementError("the element refused command 0x%02x: %s (0x%02x)" % (
                    opcode, STATUS.get(got[1], "status"), got[1]), got[1])
        elif count == size + 3 and bytes(got) == answer(got[1:count - 2]):
            return bytes(got[1:count - 2])
        raise ElementError("the element's answer to command 0x%02x is garbled: %s" % (
            opcode, hexlify(bytes(got)).decode()))
