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

from boards.sim import element_parts as parts
from boards.sim import p256

DEVELOPMENT_SEED = sha256(b"sabot development element").digest()  # public, as the development key is
REVISION = parts.REVISION_608B  # Info's answer for an ATECC608B
FORMAT = 2  # the state file: seed (32), MAGIC, FORMAT, configuration (128), keys made (16, a generation a slot), drawn
MAGIC = b"ATECCSIM"
_LEGACY = "<32sIII"  # format 1 (44 bytes): seed, counter 0, counter 1, drawn; a Trust&GO
_ENODEV, _EIO = 19, 5
_OK, _PARSE, _ECC_FAULT, _EXECUTION, _AWAKE, _WATCHDOG, _CRC_ERROR = 0x00, 0x03, 0x05, 0x0F, 0x11, 0xEE, 0xFF
_RESET, _SLEEP, _IDLE, _COMMAND = 0x00, 0x01, 0x02, 0x03  # word addresses
_INFO, _RANDOM, _GENKEY, _NONCE, _SIGN, _COUNTER, _GENDIG = 0x30, 0x1B, 0x40, 0x16, 0x41, 0x24, 0x15  # opcodes
_READ, _WRITE, _LOCK, _UPDATE_EXTRA = 0x02, 0x12, 0x17, 0x20
_ASLEEP, _IDLING, _AWAKE_STATE = 0, 1, 2
_BUFFER = 155  # the input buffer: bytes past it are not acknowledged
_WAKE_US = 1500  # tWHI: the wake pulse's end to the first answer
_WATCHDOG_US = (1300000, 13000000)  # ChipMode bit 2 clear / set (tWATCHDOG 0.7-1.7 s, and its long setting)
# Execution times (ms), M0 / M1 / M2, from cryptoauthlib's calib_execution.c tables for the ATECC608
_TIMES = {_INFO: (5, 5, 5), _RANDOM: (23, 23, 23), _GENKEY: (115, 215, 653), _NONCE: (20, 20, 20),
          _SIGN: (115, 220, 665), _COUNTER: (25, 25, 25), _GENDIG: (25, 35, 35), _READ: (5, 5, 5), _WRITE: (45, 45, 45),
          _LOCK: (35, 35, 35), _UPDATE_EXTRA: (10, 10, 10)}
_CLOCKS = {0x00: 0, 0x28: 1, 0x68: 2}  # ChipMode bits 3-7 (the clock divider) -> column
# TempKey's flags, as Sign in internal mode puts them in its message (cryptoauthlib's atcah_sign_internal_msg): bits
# 0-3 the key id, 4 SourceFlag (1: a fixed input, 0: a random nonce), 5 GenDigData, 6 GenKeyData, 7 NoMacFlag
_SOURCE_INPUT = 0x10
_ZONE_COUNTER = 0x04  # GenDig's zone 4: a monotonic counter folded into TempKey (the 608's, GENDIG_ZONE_COUNTER)


def crc16(data):
    """The ATECC's CRC-16 (cryptoauthlib's atCRC: polynomial 0x8005, bits fed least significant first, register
    from 0), computed as a register shifted right with the polynomial reversed (0xA001), the result reversed back."""
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


def framed(payload):
    """count, payload, CRC little-endian: how the chip sends an answer."""
    body = bytes((len(payload) + 3,)) + payload
    crc = crc16(body)
    return body + bytes((crc & 0xFF, crc >> 8))


def _status(code):
    return bytes((code,))


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
        self._out, self._at = framed(_status(_AWAKE)), 0

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
            self._out = framed(_status(_CRC_ERROR))
            return
        opcode, mode = packet[1], packet[2]
        ms = _TIMES.get(opcode, (1, 1, 1))[_CLOCKS.get(self._config[19] & 0xF8, 0)]
        if self.on_command is not None:
            self.on_command(now, opcode, ms)
        self._busy_until = now + self._us(ms)
        late = self._clock is not None and self._busy_until > self._deadline()
        if self._fault("watchdog", opcode, mode=mode) or late:
            self._busy_until = now
            self._out = framed(_status(_WATCHDOG))  # not run: it would outlast the watchdog
            return
        if self._fault("ecc_fault", opcode, mode=mode):
            self._out = framed(_status(_ECC_FAULT))
            return
        jump = self._fault("counter_jump", opcode) if opcode == _COUNTER and packet[2] == 1 else None
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
        handler = _HANDLERS.get(body[1])
        if handler is None:
            return _status(_PARSE)
        return handler(self, body[2], body[3] | body[4] << 8, body[5:-2])

    def _info(self, mode, param2, data):
        if mode != 0 or param2 != 0 or data:
            return _status(_PARSE)  # KeyValid, State and the other modes are not modelled
        return bytes(self._config[4:8])

    def _random_bytes(self):
        if not self.locked()[0]:
            return b"\xff\xff\x00\x00" * 8  # the fixed pattern of a chip whose configuration is unlocked
        self._drawn += 1
        self._seeded = True
        self.save()
        return sha256(b"sabot element random\0" + self._seed + struct.pack("<I", self._drawn)).digest()

    def _random(self, mode, param2, data):
        if mode not in (0, 1) or param2 != 0 or data:
            return _status(_PARSE)
        return self._random_bytes()

    def _nonce(self, mode, param2, data):
        target = mode & 0xC0
        if mode & 0x03 == 0x03:  # pass-through: the bytes given, as they are, to TempKey or the digest buffer
            if param2 != 0 or len(data) != (64 if mode & 0x20 else 32) or target == 0xC0:
                return _status(_PARSE)
            if target == 0x40:
                self._digest_buffer = bytes(data)
            else:
                self._tempkey = (bytes(data), _SOURCE_INPUT)
            return _status(_OK)
        if mode in (0, 1) and len(data) == 20:  # random: TempKey = SHA-256(RandOut, NumIn, 16, mode, 00)
            out = self._random_bytes()
            self._tempkey = (sha256(out + data + bytes((_NONCE, mode, 0))).digest(), 0)
            return out
        return _status(_PARSE)

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

    def _genkey(self, mode, slot, data):
        if mode not in (0x00, 0x04) or slot > 15 or data:
            return _status(_PARSE)  # the digest and MAC modes are not modelled
        config_locked, data_locked = self.locked()
        if not config_locked or not self._private(slot):
            return _status(_EXECUTION)
        if mode == 0x04:
            slot_locked = not self._config[88 + slot // 8] >> slot % 8 & 1
            if data_locked and (not self._slot_config(slot) >> 13 & 1 or slot_locked):
                return _status(_EXECUTION)  # a permanent key: no GenKey once the data zone is locked
            self._generations[slot] = min(self._generations[slot] + 1, 255)
            self.save()
        elif not self._generations[slot] or not self._key_config(slot) & 2:
            return _status(_EXECUTION)  # no key made yet, or PubInfo clear
        return p256.public_key(self._slot_key(slot))

    def _sign(self, mode, slot, data):
        if mode & 0x1E or slot > 15 or data:
            return _status(_PARSE)
        config_locked, data_locked = self.locked()
        if not (config_locked and data_locked and self._private(slot) and self._generations[slot]):
            return _status(_EXECUTION)
        if not mode & 0x80:
            return self._sign_internal(mode, slot)
        if not self._slot_config(slot) & 1:
            return _status(_EXECUTION)  # external signatures not allowed with this key
        if mode & 0x20:
            message, self._digest_buffer = self._digest_buffer, None
        else:
            message = self._tempkey[0] if self._tempkey is not None else None
            self._tempkey = None
        if message is None or len(message) != 32:
            return _status(_EXECUTION)  # nothing loaded to sign
        return p256.sign(self._slot_key(slot), message)

    def _sign_internal(self, mode, slot):
        """Sign in internal mode: the chip's own message (atcah_sign_internal_msg's 55 bytes: TempKey, the command,
        the configuration of the slot TempKey's key id names, TempKey's flags, the serial number's fixed bytes, or all
        of it with mode bit 6, that slot's lock bit), its SHA-256 signed. The key must allow internal signatures
        (SlotConfig bit 1) and, when its KeyConfig asks for a random nonce (ReqRandom), TempKey must come from one."""
        if mode & 0x21:
            return _status(_PARSE)  # for Verify's invalidation, from the digest buffer: not modelled
        if not self._slot_config(slot) & 2:
            return _status(_EXECUTION)  # internal signatures not allowed with this key
        tempkey, self._tempkey = self._tempkey, None
        if tempkey is None or self._key_config(slot) & 0x40 and tempkey[1] & _SOURCE_INPUT:
            return _status(_EXECUTION)
        value, flags = tempkey
        of = flags & 0x0F
        serial = self._config[0:4] + self._config[8:13]
        message = bytearray(55)
        message[0:32] = value
        message[32:36] = bytes((_SIGN, mode, slot & 0xFF, slot >> 8))
        message[36:40] = self._config[20 + 2 * of:22 + 2 * of] + self._config[96 + 2 * of:98 + 2 * of]
        message[40] = flags
        message[43] = serial[8]
        message[48:50] = serial[0:2]
        if mode & 0x40:
            message[44:48] = serial[4:8]
            message[50:52] = serial[2:4]
        slot_locked = not (self._config[88] | self._config[89] << 8) >> of & 1
        message[52] = 0x00 if slot_locked else 0x01
        return p256.sign(self._slot_key(slot), sha256(bytes(message)).digest())

    def _gendig(self, zone, which, data):
        """GenDig into TempKey (atcah_gen_dig): zone 4 alone is modelled, a monotonic counter's value folded in,
        SHA-256(32 zeros, opcode, zone, key id (2), SN[8], SN[0:1], 0, the counter (4, little-endian), 20 zeros,
        TempKey). The flags after: key id 0, GenDigData 0, the nonce's SourceFlag kept."""
        if zone != _ZONE_COUNTER or which not in (0, 1) or data:
            return _status(_PARSE)  # the other zones: not modelled
        if self._tempkey is None:
            return _status(_EXECUTION)  # TempKey not valid: no nonce since the wake
        value, flags = self._tempkey
        serial = self._config[0:4] + self._config[8:13]
        message = (bytes(32) + bytes((_GENDIG, zone, which, 0, serial[8], serial[0], serial[1], 0))
                   + struct.pack("<I", self._counters[which]) + bytes(20) + value)
        self._tempkey = (sha256(message).digest(), flags & _SOURCE_INPUT)
        return _status(_OK)

    def _store_counters(self):
        self._config[52:60] = parts.counter_bytes(self._counters[0])
        self._config[60:68] = parts.counter_bytes(self._counters[1])

    def _counter(self, mode, which, data):
        if mode not in (0, 1) or which not in (0, 1) or data:
            return _status(_PARSE)
        if mode == 1:
            if self._counters[which] >= 2097151:
                return _status(_EXECUTION)
            self._counters[which] += 1
            self._store_counters()
            self.save()
        return struct.pack("<I", self._counters[which])

    def _read(self, zone, address, data):
        size = 32 if zone & 0x80 else 4
        if zone & 0x7F or data:
            return _status(_EXECUTION if zone & 0x03 in (1, 2) else _PARSE)  # OTP, data: not modelled
        start = (address >> 3 & 0x03) * 32 + (address & 0x07) * 4
        if start + size > 128 or size == 32 and address & 0x07:
            return _status(_PARSE)
        return bytes(self._config[start:start + size])

    def _write(self, zone, address, data):
        size = 32 if zone & 0x80 else 4
        if zone & 0x7F:
            return _status(_EXECUTION)  # OTP, data zone, encrypted writes: not modelled
        if len(data) != size:
            return _status(_PARSE)
        start = (address >> 3 & 0x03) * 32 + (address & 0x07) * 4
        if self.locked()[0] or start < 16 or start + size > 128 or start < 88 and start + size > 84 or \
                size == 32 and address & 0x07:
            return _status(_EXECUTION)  # locked; the serial number and revision; UserExtra and the lock bytes
        self._config[start:start + size] = data
        self._counters = [parts.counter_value(self._config[52:60]), parts.counter_value(self._config[60:68])]
        self.save()
        return _status(_OK)

    def _lock(self, mode, summary, data):
        zone = mode & 0x03
        if mode & 0x40 or zone == 3 or data:
            return _status(_PARSE)
        config_locked, data_locked = self.locked()
        if zone == 0:
            if config_locked or not mode & 0x80 and crc16(self._config) != summary:
                return _status(_EXECUTION)
            self._config[87] = parts.LOCKED
        elif zone == 1:
            if not config_locked or data_locked or not mode & 0x80:  # the data zone's CRC: not modelled
                return _status(_EXECUTION)
            self._config[86] = parts.LOCKED
        else:
            slot = mode >> 2 & 0x0F
            if not data_locked or not self._key_config(slot) & 0x20 or not mode & 0x80:
                return _status(_EXECUTION)
            self._config[88 + slot // 8] &= ~(1 << slot % 8) & 0xFF
        self.save()
        return _status(_OK)

    def _update_extra(self, mode, value, data):
        if mode not in (0, 1) or data or value > 255:
            return _status(_PARSE)
        if not self.locked()[0] or self._config[84 + mode]:
            return _status(_EXECUTION)  # once, after the configuration is locked
        self._config[84 + mode] = value
        self.save()
        return _status(_OK)


_HANDLERS = {_INFO: ATECC608._info, _RANDOM: ATECC608._random, _NONCE: ATECC608._nonce, _GENKEY: ATECC608._genkey,
             _SIGN: ATECC608._sign, _GENDIG: ATECC608._gendig, _COUNTER: ATECC608._counter, _READ: ATECC608._read,
             _WRITE: ATECC608._write, _LOCK: ATECC608._lock, _UPDATE_EXTRA: ATECC608._update_extra}
SimElement = ATECC608  # the name the boards and tests have always used
