"""A model of an ATECC608B secure element on I2C, from Microchip's public documents (the ATECC508A data sheet for the
I2C side, the 608B Trust&GO / TrustFLEX data sheets, cryptoauthlib's calib_* sources), never from our driver: a
chip that sleeps until a wake pulse, NACKs its address while it wakes and while a command executes (the command's
time at its ChipMode clock), keeps an address counter across reads (0xFF past its answer), puts itself to sleep when
its watchdog expires, and keeps its configuration and data zones with their locks. Its private keys are made inside
it from a seed (boards/sim/p256.py: deterministic, RFC 6979 signatures) and no command gives them out. Sign signs a
digest loaded by Nonce (external mode, a key whose SlotConfig allows it) or the chip's own 55-byte message around
TempKey (internal mode), TempKey made by Nonce (random or pass-through) and GenDig on a monotonic counter (zone 4),
with its flags, as cryptoauthlib's host side rebuilds them (atcah_nonce, atcah_gen_dig, atcah_sign_internal_msg).

The bus, byte by byte, as an I2C target sees it: bus_start(address, read) -> ACK, bus_write(byte) -> ACK, bus_read()
-> byte, bus_stop(); writeto() / readfrom_into() are machine.I2C's calls built on them (OSError(19) when nobody
acknowledges the address, as MicroPython's SoftI2C raises; the rp2 hardware I2C raises EIO, 5).

Time is the clock given (a callable returning microseconds: a test's virtual clock, an emulator's simulated time,
the host's monotonic clock); without one the chip is ideal: every command done at once, no watchdog.

Faults for tests, one call each (inject): "ecc_fault" (status 0x05, nothing done: a resubmission succeeds),
"watchdog" (status 0xEE), "crc" (the answer's CRC garbled in the chip's buffer, the command done), "nack" (no
acknowledge for ms), "self_test" (the next power-up's wake takes ms longer), "awake" (left awake by an MCU reset, an
old answer half read in its buffer), "counter_jump" (a power cut during the next increment: the counter counts by,
the chip loses power before answering), "absent" (it never answers), "foreign" (another device answers at its
address). The state (seed, configuration zone, keys made, random numbers drawn) is its EEPROM: a file replaced whole
at each change (save), versioned (FORMAT)."""

import os
import struct
from hashlib import sha256

from boards.sim import element_commands as commands
from boards.sim import element_parts as parts
from boards.sim import p256
from boards.sim.element_commands import (
    AWAKE,
    CLOCKS,
    COUNTER,
    CRC_ERROR,
    ECC_FAULT,
    PARSE,
    TIMES,
    WATCHDOG,
    crc16,
    status,
)

DEVELOPMENT_SEED = sha256(b"sabot development element").digest()  # public, as the development key is
REVISION = parts.REVISION_608B  # Info's answer for an ATECC608B
FORMAT = 2  # the state file: seed (32), MAGIC, FORMAT, configuration (128), keys made (16, a generation a slot), drawn
MAGIC = b"ATECCSIM"
_LEGACY = "<32sIII"  # format 1 (44 bytes): seed, counter 0, counter 1, drawn; a Trust&GO
_ENODEV, _EIO = 19, 5
_RESET, _SLEEP, _IDLE, _COMMAND = 0x00, 0x01, 0x02, 0x03  # word addresses
_ASLEEP, _IDLING, _AWAKE_STATE = 0, 1, 2
_BUFFER = 155  # the input buffer: bytes past it are not acknowledged
_WAKE_US = 1500  # tWHI: the wake pulse's end to the first answer
_WATCHDOG_US = (1300000, 13000000)  # ChipMode bit 2 clear / set (tWATCHDOG 0.7-1.7 s, and its long setting)



def framed(payload):
    """count, payload, CRC little-endian: how the chip sends an answer."""
    body = bytes((len(payload) + 3,)) + payload
    crc = crc16(body)
    return body + bytes((crc & 0xFF, crc >> 8))


def private_key(seed, slot, generation=1):
    """The private key (a scalar) a chip made from seed holds in slot at its generation-th GenKey: the tests' look
    inside the chip, as no command gives it."""
    if (slot, generation) == (0, 1):
        return p256.scalar(seed)  # slot 0's first key: the seed's, as the model has always made it
    return p256.scalar(sha256(b"sabot element key\0" + seed + bytes((slot, generation))).digest())


def journal_key(seed):
    """The public key (X || Y) that vouches for the journal of a shoe whose Trust&GO or provisioned part was made from
    seed: its internal-sign key's, slot 1 (firmware/checkpoints.py's ATTEST_SLOT)."""
    return p256.public_key(private_key(seed, 1))


class Fault:
    def __init__(self, kind, opcode, mode, times, by):
        self.kind, self.opcode, self.mode, self.times, self.by = kind, opcode, mode, times, by


class ATECC608:
    def __init__(self, seed, path=None, counters=None, drawn=0, part=parts.TRUST_AND_GO, clock=None, chip_mode=None,
                 config=None, generations=None):
        """The chip made from seed as part (element_parts.PARTS) leaves the factory: its state saved to path (when
        given) at every EEPROM change; counters and chip_mode (ChipMode, byte 19, e.g. 0x68 for the M2 clock)
        override the part's; config and generations are a saved chip's."""
        kind = parts.PARTS[part]
        self._seed = seed
        self._path = path
        self._clock = clock
        self._drawn = drawn
        if config is None:
            zone = bytearray(kind.config)
            serial = sha256(b"sabot element serial\0" + seed).digest()
            zone[0:4] = b"\x01\x23" + serial[:2]  # SN[0:1] 01 23 and SN[8] 0xEE: every ATECC's fixed bytes
            zone[4:8] = kind.revision
            zone[8:13] = serial[2:6] + b"\xee"  # SN[4:8]: byte 12 is SN[8]
            zone[13:16] = b"\x01\x01\x00"  # AES enabled, I2C (not the single-wire interface)
            if chip_mode is not None:
                zone[19] = chip_mode
            generations = bytearray(16)
            for slot in kind.keys:
                generations[slot] = 1
        else:
            zone = bytearray(config)
        self._config = zone
        self._generations = bytearray(generations)
        self._counters = [parts.counter_value(zone[52:60]), parts.counter_value(zone[60:68])]
        if counters is not None:
            self._counters = list(counters)
            self._store_counters()
        self._faults = []
        self.on_command = None  # a bench's observer: called (time µs, opcode, its time in ms) at each command taken
        self._nack_until = 0
        self._power_up_us = 0
        self.power_off()

    @classmethod
    def load(cls, path, clock=None, part=parts.TRUST_AND_GO):
        """The element whose state is at path; a new one of part (a random seed) saved there when there is none."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            element = cls(os.urandom(32), path, part=part, clock=clock)
            element.save()
            return element
        if len(data) == struct.calcsize(_LEGACY):
            seed, counter0, counter1, drawn = struct.unpack(_LEGACY, data)
            return cls(seed, path, (counter0, counter1), drawn, clock=clock)
        if data[32:40] != MAGIC or data[40] != FORMAT or len(data) != 41 + 128 + 16 + 4:
            raise ValueError("%s is not an element's state (format %d)" % (path, FORMAT))
        drawn = struct.unpack("<I", data[185:189])[0]
        return cls(data[:32], path, drawn=drawn, clock=clock, config=data[41:169], generations=data[169:185])

    def save(self):
        """The state replaced whole by a rename: the old or the new after a power cut, never a counter gone back."""
        if self._path is None:
            return
        temporary = self._path + ".tmp"
        with open(temporary, "wb") as f:
            f.write(self._seed + MAGIC + bytes((FORMAT,)) + bytes(self._config) + bytes(self._generations)
                    + struct.pack("<I", self._drawn))
        os.rename(temporary, self._path)

    _save = save

    # What the tests and the boards see of the part

    @property
    def address(self):
        """Its 7-bit I2C address, as it took it at power-up: byte 16, or UserExtraAdd (85) when ChipMode bit 0 says so
        and it is set."""
        return self._address

    def config(self):
        return bytes(self._config)

    @property
    def _key(self):
        """Slot 0's private key (the tests' look inside the chip: no command gives it)."""
        return self._slot_key(0)

    def locked(self):
        return self._config[87] != parts.UNLOCKED, self._config[86] != parts.UNLOCKED

    def power_off(self):
        """A power cycle: asleep, TempKey, the message digest buffer and the output buffer gone; EEPROM kept. The
        next wake is a power-up's (its self-test, when injected)."""
        self._state = _ASLEEP
        self._address = self._config[(85 if self._config[19] & 1 and self._config[85] else 16)] >> 1
        self._tempkey = self._digest_buffer = None
        self._out = b""
        self._at = 0
        self._ready_at = self._busy_until = self._wake_at = 0
        self._powered_up = False
        self._seeded = False
        self._transaction = None

    def inject(self, kind, opcode=None, mode=None, times=1, ms=0, by=2):
        """A fault (the module's docstring lists the kinds): on the next times commands of opcode and mode (param1;
        any when None); ms for "nack" and "self_test"; by for "counter_jump"."""
        if kind == "nack":
            self._nack_until = self._now() + ms * 1000
        elif kind == "self_test":
            self._power_up_us = ms * 1000
        elif kind == "awake":
            self._state, self._ready_at, self._wake_at = _AWAKE_STATE, self._now(), self._now()
            self._powered_up = True
            self._out, self._at = framed(sha256(self._seed).digest() * 2), 13  # a signature, half read
        else:
            self._faults.append(Fault(kind, opcode, mode, times, by))

    # machine.I2C's calls

    def writeto(self, address, buf):
        if not self.bus_start(address, False):
            self.bus_stop()
            raise OSError(_ENODEV)
        for byte in buf:
            if not self.bus_write(byte):
                self.bus_stop()
                raise OSError(_EIO)
        self.bus_stop()

    def readfrom_into(self, address, buf):
        if not self.bus_start(address, True):
            self.bus_stop()
            raise OSError(_ENODEV)
        for i in range(len(buf)):
            buf[i] = self.bus_read()
        self.bus_stop()

    # The bus, byte by byte

    def bus_start(self, address, read):
        """A start (or repeated start) and the address byte: whether the chip acknowledges it."""
        if self._transaction is not None:
            self.bus_stop()  # a repeated start ends the transaction before it as a stop would
        now = self._now()
        if address == 0 and not read:  # SDA held low through the address byte: the wake pulse (nobody answers)
            self._wake(now)
            return False
        if self._fault("absent", None, False):
            return False
        if self._fault("foreign", None, False):
            self._transaction = "foreign"
            return address == self.address
        self._watchdog(now)
        if address != self.address or self._state != _AWAKE_STATE or now < self._ready_at or now < self._busy_until \
                or now < self._nack_until:
            return False
        self._transaction = bytearray() if not read else "read"
        return True

    def bus_write(self, byte):
        if type(self._transaction) is not bytearray:
            return self._transaction == "foreign"
        if len(self._transaction) > _BUFFER:
            return False
        self._transaction.append(byte)
        return True

    def bus_read(self):
        if self._transaction == "foreign":
            return 0x5A
        if self._transaction != "read":
            return 0xFF
        at = self._at
        self._at += 1
        return self._out[at] if at < len(self._out) else 0xFF

    def bus_stop(self):
        written, self._transaction = self._transaction, None
        if type(written) is not bytearray or not written:
            return
        word = written[0]
        if word == _RESET:
            self._at = 0  # the next read starts at the answer's first byte again
        elif word == _SLEEP:
            self._state = _ASLEEP
            self._tempkey = self._digest_buffer = None
        elif word == _IDLE:
            self._state = _IDLING  # TempKey kept, the watchdog stopped
        elif word == _COMMAND and len(written) > 1:
            self._command(bytes(written[1:]))

    # The chip

    def _now(self):
        return self._clock() if self._clock is not None else 0

    def _us(self, ms):
        return ms * 1000 if self._clock is not None else 0

    def _wake(self, now):
        self._watchdog(now)
        if self._state == _AWAKE_STATE:
            return  # awake already: the pulse is a start and an address nobody answers
        self._ready_at = now + (_WAKE_US if self._clock is not None else 0)
        if not self._powered_up:
            self._powered_up = True
            self._ready_at += self._power_up_us if self._clock is not None else 0
            self._power_up_us = 0
        self._state, self._wake_at = _AWAKE_STATE, self._ready_at
        self._out, self._at = framed(status(AWAKE)), 0

    def _watchdog(self, now):
        if self._clock is not None and self._state == _AWAKE_STATE and now >= self._deadline():
            self._state = _ASLEEP  # asleep by itself: TempKey lost
            self._tempkey = self._digest_buffer = None

    def _deadline(self):
        return self._wake_at + _WATCHDOG_US[1 if self._config[19] & 4 else 0]

    def _fault(self, kind, opcode, spend=True, mode=None):
        for fault in self._faults:
            if fault.kind == kind and fault.opcode in (None, opcode) and fault.mode in (None, mode):
                if spend:
                    fault.times -= 1
                    if fault.times <= 0:
                        self._faults.remove(fault)
                return fault
        return None

    def _command(self, packet):
        """A packet (count to CRC) received: its answer in the output buffer once its time has passed."""
        now = self._now()
        self._at = 0
        if len(packet) < 7 or packet[0] != len(packet) or crc16(packet[:-2]) != packet[-2] | packet[-1] << 8:
            self._out = framed(status(CRC_ERROR))
            return
        opcode, mode = packet[1], packet[2]
        ms = TIMES.get(opcode, (1, 1, 1))[CLOCKS.get(self._config[19] & 0xF8, 0)]
        if self.on_command is not None:
            self.on_command(now, opcode, ms)
        self._busy_until = now + self._us(ms)
        late = self._clock is not None and self._busy_until > self._deadline()
        if self._fault("watchdog", opcode, mode=mode) or late:
            self._busy_until = now
            self._out = framed(status(WATCHDOG))  # not run: it would outlast the watchdog
            return
        if self._fault("ecc_fault", opcode, mode=mode):
            self._out = framed(status(ECC_FAULT))
            return
        jump = self._fault("counter_jump", opcode) if opcode == COUNTER and packet[2] == 1 else None
        if jump is not None and packet[3] in (0, 1) and self._counters[packet[3]] + jump.by <= 2097151:
            self._counters[packet[3]] += jump.by  # the EEPROM written more than once before the power went
            self._store_counters()
            self.save()
            self.power_off()
            return
        answer = self._execute(packet)
        out = framed(answer)
        if self._fault("crc", opcode, mode=mode):
            out = out[:-1] + bytes((out[-1] ^ 0x5A,))
        self._out = out

    def _execute(self, body):
        """A command's answer, for its packet (count to CRC, checked): its data, or a status byte."""
        handler = commands.HANDLERS.get(body[1])
        if handler is None:
            return status(PARSE)
        return handler(self, body[2], body[3] | body[4] << 8, body[5:-2])

    def _random_bytes(self):
        if not self.locked()[0]:
            return b"\xff\xff\x00\x00" * 8  # the fixed pattern of a chip whose configuration is unlocked
        self._drawn += 1
        self._seeded = True
        self.save()
        return sha256(b"sabot element random\0" + self._seed + struct.pack("<I", self._drawn)).digest()

    def _slot_config(self, slot):
        return self._config[20 + 2 * slot] | self._config[21 + 2 * slot] << 8

    def _key_config(self, slot):
        return self._config[96 + 2 * slot] | self._config[97 + 2 * slot] << 8

    def _private(self, slot):
        """Whether slot holds, by its configuration, a P-256 private key."""
        key_config = self._key_config(slot)
        return key_config & 1 and key_config >> 2 & 7 == 4

    def _slot_key(self, slot):
        return private_key(self._seed, slot, self._generations[slot])

    def _store_counters(self):
        self._config[52:60] = parts.counter_bytes(self._counters[0])
        self._config[60:68] = parts.counter_bytes(self._counters[1])


SimElement = ATECC608  # the name the boards and tests have always used
