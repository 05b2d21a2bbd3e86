"""The ATECC parts the element model (boards/sim/element.py) can be made as: each a configuration zone as it leaves
Microchip's factory, and the slots whose private keys were generated there. Data only, registered once in PARTS.

Configuration zone map (128 bytes; the ATECC508A's public datasheet, the 608B's Trust&GO / TrustFLEX datasheets,
cryptoauthlib's calib_command.h): serial number 0-3 and 8-12, revision 4-7, AES_Enable 13, I2C_Enable 14, I2C
address 16 (the 7-bit address shifted left), CountMatch 18, ChipMode 19 (bit 0 the address from UserExtraAdd, bit 2
the 13 s watchdog, bits 3-7 the clock divider M0 0x00 / M1 0x28 / M2 0x68), SlotConfig 20-51 (two bytes a slot,
little-endian), Counter0 52-59 and Counter1 60-67 (their own encoding: counter_bytes below), UseLock 68 ...
UserExtra 84, UserExtraAdd 85, LockValue 86 (data zone) and LockConfig 87 (configuration zone): 0x55 unlocked, 0x00
locked; SlotLocked 88-89 (a bit a slot, 0 locked), ChipOptions 90-91, X509format 92-95, KeyConfig 96-127 (two
bytes a slot, little-endian).

SlotConfig of a private key slot: bit 0 external Sign, bit 1 internal Sign, bit 2 ECDH, bit 7 IsSecret, bits 12-15
WriteConfig (its bit 13: GenKey may make a new key once the data zone is locked). KeyConfig: bit 0 Private, bit 1
PubInfo (its public key may be computed), bits 2-4 KeyType (4: P-256), bit 5 Lockable, bit 6 ReqRandom."""

REVISION_608B = b"\x00\x00\x60\x03"  # Info's answer, and the configuration's bytes 4-7
REVISION_508A = b"\x00\x00\x50\x00"
UNLOCKED, LOCKED = 0x55, 0x00
COUNTER_ZERO = b"\xff\xff\xff\xff\x00\x00\x00\x00"  # counter_bytes(0)


def counter_bytes(value):
    """A monotonic counter's 8 configuration bytes as the chip keeps them (cryptoauthlib's
    calib_write_config_counter): two 16-bit linear fields that lose a bit a count, two binary fields that count
    groups of 32, the second half a group behind."""
    lin_a = 0xFFFF >> (value % 32)
    lin_b = 0xFFFF >> ((value - 16) % 32) if value >= 16 else 0xFFFF
    bin_a = value // 32
    bin_b = (value - 16) // 32 if value >= 16 else 0
    return bytes((lin_a >> 8, lin_a & 0xFF, lin_b >> 8, lin_b & 0xFF, bin_a >> 8, bin_a & 0xFF, bin_b >> 8,
                  bin_b & 0xFF))


def counter_value(raw):
    """counter_bytes' inverse."""
    lin_a, lin_b = raw[0] << 8 | raw[1], raw[2] << 8 | raw[3]
    bin_a, bin_b = raw[4] << 8 | raw[5], raw[6] << 8 | raw[7]
    if lin_a:
        return bin_a * 32 + 16 - bin(lin_a).count("1")
    return 16 + bin_b * 32 + 16 - bin(lin_b).count("1")


def _zone(head, slot_config, tail, key_config):
    zone = bytes(16) + head + slot_config + tail + key_config
    assert len(zone) == 128
    return zone


def _slots(pairs):
    """Sixteen 16-bit fields given as their two bytes each."""
    return bytes(b for pair in pairs for b in pair)


# ATECC608B-TNGTLS (Trust&GO), as its data sheet's configuration tables describe it (DS40002250: slot 0 the
# permanent primary key: external Sign and ECDH; slot 1 the permanent internal-sign key; slots 2-4 secondary keys
# GenKey may renew; 5-15 data, certificates and the IO protection key). Both zones locked at the factory.
_TNGTLS_SLOT_CONFIG = _slots((
    (0x85, 0x00),  # 0: secret, external Sign, ECDH; WriteConfig 0: no GenKey once locked (permanent)
    (0x82, 0x00),  # 1: secret, internal Sign only; permanent
    (0x85, 0x20), (0x85, 0x20), (0x85, 0x20),  # 2-4: secret, external Sign, ECDH; WriteConfig 2: GenKey allowed
    (0x8F, 0x46),  # 5: clear data, never written
    (0x8F, 0x0F),  # 6: IO protection key
    (0x9F, 0x8F),  # 7: secure boot digest
    (0x0F, 0x0F),  # 8: general data (compressed certificates)
    (0x8F, 0x0F),  # 9: AES key
    (0x0F, 0x0F), (0x0F, 0x0F), (0x0F, 0x0F), (0x0F, 0x0F), (0x0F, 0x0F), (0x0F, 0x0F)))  # 10-15: data
_TNGTLS_KEY_CONFIG = _slots((
    (0x53, 0x00), (0x53, 0x00),  # 0, 1: private, PubInfo, P-256, ReqRandom; not lockable
    (0x73, 0x00), (0x73, 0x00), (0x73, 0x00),  # 2-4: the same, lockable
    (0x38, 0x00), (0x7C, 0x00), (0x1C, 0x00), (0x3C, 0x00), (0x1A, 0x00),  # 5-9: data, keys (not ECC)
    (0x3A, 0x00), (0x1A, 0x00), (0x3A, 0x00), (0x3A, 0x00), (0x3C, 0x00), (0x3C, 0x00)))  # 10-15


def _tngtls(address):
    return _zone(bytes((address << 1, 0x00, 0x00, 0x01)),  # address; ChipMode 0x01: M0, 1.3 s watchdog
                 _TNGTLS_SLOT_CONFIG,
                 COUNTER_ZERO + COUNTER_ZERO + bytes((0x00, 0x00, 0x03, 0xF7, 0x00, 0x69, 0x76)) + bytes(9)
                 + bytes((0x00, 0x00, LOCKED, LOCKED, 0xFF, 0xFF, 0x0E, 0x60, 0, 0, 0, 0)),
                 _TNGTLS_KEY_CONFIG)


# A generic ATECC608B as it ships: nothing configured, both zones unlocked, no key (every KeyConfig "data", so
# GenKey has no slot to make a key in). A plausible factory default, not Microchip's exact one: provisioning
# (boards/mcu/provision.py) rewrites bytes 16-83 and 88-127 whatever they hold.
_BLANK = _zone(bytes((0x60 << 1, 0x00, 0x00, 0x00)),
               _slots([(0x0F, 0x0F)] * 16),
               COUNTER_ZERO + COUNTER_ZERO + bytes(16) + bytes((0x00, 0x00, UNLOCKED, UNLOCKED, 0xFF, 0xFF))
               + bytes(6),
               _slots([(0x1C, 0x00)] * 16))


class Part:
    """A kind of part: its name, its configuration zone at the factory (bytes 0-15 filled per chip), the slots
    whose keys the factory generated."""

    def __init__(self, name, config, keys=(), revision=REVISION_608B):
        self.name = name
        self.config = config
        self.keys = keys
        self.revision = revision


TRUST_AND_GO = "ATECC608B-TNGTLS"
TRUSTFLEX = "ATECC608B-TFLXTLS"
BLANK = "ATECC608B"
PROVISIONED = "ATECC608B-provisioned"
ATECC508A = "ATECC508A"
PARTS = {}


def register(part):
    PARTS[part.name] = part
    return part


register(Part(TRUST_AND_GO, _tngtls(0x35), keys=(0, 1, 2, 3, 4)))
# TrustFLEX: "nearly identical to the TNGTLS" (its data sheet), at 0x36; its slot options are the customer's.
register(Part(TRUSTFLEX, _tngtls(0x36), keys=(0, 1, 2, 3, 4)))
register(Part(BLANK, _BLANK))
# Another family answering at 0x60: a 508A locked as Microchip's provisioning service leaves one, its Info revision
# the 508A's. The model runs its commands as a 608's: only the revision tells them apart, as it tells the driver.
register(Part(ATECC508A, _tngtls(0x60), keys=(0,), revision=REVISION_508A))


def _provisioned():
    """The part boards/mcu/provision.py leaves (its template, both zones locked, slots 0 and 1 generated): made here
    from that template, so the two never differ."""
    from boards.mcu.provision import TEMPLATE

    zone = bytearray(TEMPLATE)
    zone[84:88] = bytes((0x00, 0x00, LOCKED, LOCKED))
    return Part(PROVISIONED, bytes(zone), keys=(0, 1))


register(_provisioned())
