"""The commands an ATECC608B model executes (boards/sim/element.py's chip, from the data sheets and cryptoauthlib's
calib_* sources, never from our driver): each a function of the chip, its mode, param2 and data, returning the answer's
data or a status byte; HANDLERS by opcode. Their execution times, and the statuses and opcodes they use, with them."""

import struct
from hashlib import sha256

from boards.sim import element_parts as parts
from boards.sim import p256

OK, PARSE, ECC_FAULT, EXECUTION, AWAKE, WATCHDOG, CRC_ERROR = 0x00, 0x03, 0x05, 0x0F, 0x11, 0xEE, 0xFF
INFO, RANDOM, GENKEY, NONCE, SIGN, COUNTER, GENDIG = 0x30, 0x1B, 0x40, 0x16, 0x41, 0x24, 0x15  # opcodes
READ, WRITE, LOCK, UPDATE_EXTRA = 0x02, 0x12, 0x17, 0x20
# Execution times (ms), M0 / M1 / M2, from cryptoauthlib's calib_execution.c tables for the ATECC608
TIMES = {INFO: (5, 5, 5), RANDOM: (23, 23, 23), GENKEY: (115, 215, 653), NONCE: (20, 20, 20),
         SIGN: (115, 220, 665), COUNTER: (25, 25, 25), GENDIG: (25, 35, 35), READ: (5, 5, 5), WRITE: (45, 45, 45),
         LOCK: (35, 35, 35), UPDATE_EXTRA: (10, 10, 10)}
CLOCKS = {0x00: 0, 0x28: 1, 0x68: 2}  # ChipMode bits 3-7 (the clock divider) -> column
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


def status(code):
    return bytes((code,))


def _info(chip, mode, param2, data):
    if mode != 0 or param2 != 0 or data:
        return status(PARSE)  # KeyValid, State and the other modes are not modelled
    return bytes(chip._config[4:8])


def _random(chip, mode, param2, data):
    if mode not in (0, 1) or param2 != 0 or data:
        return status(PARSE)
    return chip._random_bytes()


def _nonce(chip, mode, param2, data):
    target = mode & 0xC0
    if mode & 0x03 == 0x03:  # pass-through: the bytes given, as they are, to TempKey or the digest buffer
        if param2 != 0 or len(data) != (64 if mode & 0x20 else 32) or target == 0xC0:
            return status(PARSE)
        if target == 0x40:
            chip._digest_buffer = bytes(data)
        else:
            chip._tempkey = (bytes(data), _SOURCE_INPUT)
        return status(OK)
    if mode in (0, 1) and len(data) == 20:  # random: TempKey = SHA-256(RandOut, NumIn, 16, mode, 00)
        out = chip._random_bytes()
        chip._tempkey = (sha256(out + data + bytes((NONCE, mode, 0))).digest(), 0)
        return out
    return status(PARSE)


def _genkey(chip, mode, slot, data):
    if mode not in (0x00, 0x04) or slot > 15 or data:
        return status(PARSE)  # the digest and MAC modes are not modelled
    config_locked, data_locked = chip.locked()
    if not config_locked or not chip._private(slot):
        return status(EXECUTION)
    if mode == 0x04:
        slot_locked = not chip._config[88 + slot // 8] >> slot % 8 & 1
        if data_locked and (not chip._slot_config(slot) >> 13 & 1 or slot_locked):
            return status(EXECUTION)  # a permanent key: no GenKey once the data zone is locked
        chip._generations[slot] = min(chip._generations[slot] + 1, 255)
        chip.save()
    elif not chip._generations[slot] or not chip._key_config(slot) & 2:
        return status(EXECUTION)  # no key made yet, or PubInfo clear
    return p256.public_key(chip._slot_key(slot))


def _sign(chip, mode, slot, data):
    if mode & 0x1E or slot > 15 or data:
        return status(PARSE)
    config_locked, data_locked = chip.locked()
    if not (config_locked and data_locked and chip._private(slot) and chip._generations[slot]):
        return status(EXECUTION)
    if not mode & 0x80:
        return _sign_internal(chip, mode, slot)
    if not chip._slot_config(slot) & 1:
        return status(EXECUTION)  # external signatures not allowed with this key
    if mode & 0x20:
        message, chip._digest_buffer = chip._digest_buffer, None
    else:
        message = chip._tempkey[0] if chip._tempkey is not None else None
        chip._tempkey = None
    if message is None or len(message) != 32:
        return status(EXECUTION)  # nothing loaded to sign
    return p256.sign(chip._slot_key(slot), message)


def _sign_internal(chip, mode, slot):
    """Sign in internal mode: the chip's own message (atcah_sign_internal_msg's 55 bytes: TempKey, the command,
    the configuration of the slot TempKey's key id names, TempKey's flags, the serial number's fixed bytes, or all
    of it with mode bit 6, that slot's lock bit), its SHA-256 signed. The key must allow internal signatures
    (SlotConfig bit 1) and, when its KeyConfig asks for a random nonce (ReqRandom), TempKey must come from one."""
    if mode & 0x21:
        return status(PARSE)  # for Verify's invalidation, from the digest buffer: not modelled
    if not chip._slot_config(slot) & 2:
        return status(EXECUTION)  # internal signatures not allowed with this key
    tempkey, chip._tempkey = chip._tempkey, None
    if tempkey is None or chip._key_config(slot) & 0x40 and tempkey[1] & _SOURCE_INPUT:
        return status(EXECUTION)
    value, flags = tempkey
    of = flags & 0x0F
    serial = chip._config[0:4] + chip._config[8:13]
    message = bytearray(55)
    message[0:32] = value
    message[32:36] = bytes((SIGN, mode, slot & 0xFF, slot >> 8))
    message[36:40] = chip._config[20 + 2 * of:22 + 2 * of] + chip._config[96 + 2 * of:98 + 2 * of]
    message[40] = flags
    message[43] = serial[8]
    message[48:50] = serial[0:2]
    if mode & 0x40:
        message[44:48] = serial[4:8]
        message[50:52] = serial[2:4]
    slot_locked = not (chip._config[88] | chip._config[89] << 8) >> of & 1
    message[52] = 0x00 if slot_locked else 0x01
    return p256.sign(chip._slot_key(slot), sha256(bytes(message)).digest())


def _gendig(chip, zone, which, data):
    """GenDig into TempKey (atcah_gen_dig): zone 4 alone is modelled, a monotonic counter's value folded in,
    SHA-256(32 zeros, opcode, zone, key id (2), SN[8], SN[0:1], 0, the counter (4, little-endian), 20 zeros,
    TempKey). The flags after: key id 0, GenDigData 0, the nonce's SourceFlag kept."""
    if zone != _ZONE_COUNTER or which not in (0, 1) or data:
        return status(PARSE)  # the other zones: not modelled
    if chip._tempkey is None:
        return status(EXECUTION)  # TempKey not valid: no nonce since the wake
    value, flags = chip._tempkey
    serial = chip._config[0:4] + chip._config[8:13]
    message = (bytes(32) + bytes((GENDIG, zone, which, 0, serial[8], serial[0], serial[1], 0))
               + struct.pack("<I", chip._counters[which]) + bytes(20) + value)
    chip._tempkey = (sha256(message).digest(), flags & _SOURCE_INPUT)
    return status(OK)


def _counter(chip, mode, which, data):
    if mode not in (0, 1) or which not in (0, 1) or data:
        return status(PARSE)
    if mode == 1:
        if chip._counters[which] >= 2097151:
            return status(EXECUTION)
        chip._counters[which] += 1
        chip._store_counters()
        chip.save()
    return struct.pack("<I", chip._counters[which])


def _read(chip, zone, address, data):
    size = 32 if zone & 0x80 else 4
    if zone & 0x7F or data:
        return status(EXECUTION if zone & 0x03 in (1, 2) else PARSE)  # OTP, data: not modelled
    start = (address >> 3 & 0x03) * 32 + (address & 0x07) * 4
    if start + size > 128 or size == 32 and address & 0x07:
        return status(PARSE)
    return bytes(chip._config[start:start + size])


def _write(chip, zone, address, data):
    size = 32 if zone & 0x80 else 4
    if zone & 0x7F:
        return status(EXECUTION)  # OTP, data zone, encrypted writes: not modelled
    if len(data) != size:
        return status(PARSE)
    start = (address >> 3 & 0x03) * 32 + (address & 0x07) * 4
    if chip.locked()[0] or start < 16 or start + size > 128 or start < 88 and start + size > 84 or \
            size == 32 and address & 0x07:
        return status(EXECUTION)  # locked; the serial number and revision; UserExtra and the lock bytes
    chip._config[start:start + size] = data
    chip._counters = [parts.counter_value(chip._config[52:60]), parts.counter_value(chip._config[60:68])]
    chip.save()
    return status(OK)


def _lock(chip, mode, summary, data):
    zone = mode & 0x03
    if mode & 0x40 or zone == 3 or data:
        return status(PARSE)
    config_locked, data_locked = chip.locked()
    if zone == 0:
        if config_locked or not mode & 0x80 and crc16(chip._config) != summary:
            return status(EXECUTION)
        chip._config[87] = parts.LOCKED
    elif zone == 1:
        if not config_locked or data_locked or not mode & 0x80:  # the data zone's CRC: not modelled
            return status(EXECUTION)
        chip._config[86] = parts.LOCKED
    else:
        slot = mode >> 2 & 0x0F
        if not data_locked or not chip._key_config(slot) & 0x20 or not mode & 0x80:
            return status(EXECUTION)
        chip._config[88 + slot // 8] &= ~(1 << slot % 8) & 0xFF
    chip.save()
    return status(OK)


def _update_extra(chip, mode, value, data):
    if mode not in (0, 1) or data or value > 255:
        return status(PARSE)
    if not chip.locked()[0] or chip._config[84 + mode]:
        return status(EXECUTION)  # once, after the configuration is locked
    chip._config[84 + mode] = value
    chip.save()
    return status(OK)


HANDLERS = {INFO: _info, RANDOM: _random, NONCE: _nonce, GENKEY: _genkey, SIGN: _sign, GENDIG: _gendig,
            COUNTER: _counter, READ: _read, WRITE: _write, LOCK: _lock, UPDATE_EXTRA: _update_extra}
