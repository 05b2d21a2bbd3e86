"""What the factory bench asks the ATECC608B (boards/mcu/provision.py), as cryptoauthlib's calib_read.c, calib_write.c,
calib_lock.c and calib_genkey.c do it: its configuration zone read, written and locked, its keys generated, its data
zone locked, its address moved. Functions of the driver (boards/mcu/atecc.py): a shoe never calls them.
"""

from boards.mcu.atecc import GENKEY, LOCK, READ, WRITE, ZONE_CONFIG_32, crc16
from boards.mcu.atecc_run import ATTEMPTS, Again
from firmware.compat import const

LOCK_CONFIG = const(0x00)  # Lock's modes: the configuration zone, against its CRC
LOCK_DATA = const(0x81)  # the data zone, no CRC (cryptoauthlib's calib_lock_data_zone)
UPDATE_EXTRA = const(0x20)
GENKEY_PRIVATE = const(0x04)
_NOT_WRITTEN_WORD = const(5)  # block 2's word 5, bytes 84-87: UserExtra, UserExtraAdd and the lock bytes


def locked(element):
    """(configuration zone locked, data zone locked): LockConfig and LockValue, bytes 87 and 86 (0x55:
    unlocked)."""
    word = element._run(((READ, 0, 2 << 3 | _NOT_WRITTEN_WORD, b"", 4),))
    return word[3] != 0x55, word[2] != 0x55


def write_config(element, config):
    """Bytes 16-127 of config written to the configuration zone, as cryptoauthlib's calib_write_config_zone:
    blocks 1 and 3 whole, blocks 0 and 2 a word at a time, skipping what the chip never lets Write change (the
    serial number and revision, 0-15; UserExtra, UserExtraAdd and the lock bytes, 84-87). Refused (0x0F) once
    the zone is locked."""
    if len(config) != 128:
        raise ValueError("a configuration zone is 128 bytes, not %d" % len(config))
    for block in range(4):
        if block in (1, 3):
            element._run(((WRITE, ZONE_CONFIG_32, block << 3, bytes(config[block * 32:block * 32 + 32]), 1),))
            continue
        for word in range(4 if block == 0 else 0, 8):
            if block == 2 and word == _NOT_WRITTEN_WORD:
                continue
            at = block * 32 + word * 4
            element._run(((WRITE, 0, block << 3 | word, bytes(config[at:at + 4]), 1),))


def lock_config(element, config):
    """The configuration zone locked, provided the chip's CRC of it is config's (the 128 bytes read back)."""
    _lock(element, LOCK_CONFIG, crc16(config), 0)


def lock_data(element):
    """The data zone (slots and OTP) locked: the keys generated are there for good."""
    _lock(element, LOCK_DATA, 0, 1)


def move_to(element, address):
    """UpdateExtra's one write of UserExtraAdd (byte 85), once the configuration zone is locked: with ChipMode's
    bit 0 set, the chip answers at address from its next power-up on (a Trust&GO's 0x35 is set so at the factory).
    This driver keeps its own address: the chip answers where it did until it loses power."""
    element._run(((UPDATE_EXTRA, 1, address << 1, b"", 1),))


def generate_key(element, slot):
    """A new P-256 private key made inside the chip in slot (its KeyConfig a private key's; the configuration
    zone locked; once the data zone is locked, only where SlotConfig allows it); its public key (64 bytes)."""
    return element._run(((GENKEY, GENKEY_PRIVATE, slot, b"", 64),))


def _lock(element, mode, summary, which):
    failure = Again("no attempt made")  # the last attempt's failure replaces it
    for _ in range(ATTEMPTS):
        try:
            element._run(((LOCK, mode, summary, b"", 1),), attempts=1)
            return
        except Again as e:
            failure = e
        if locked(element)[which]:
            return  # it locked: its answer alone was lost
    raise failure
