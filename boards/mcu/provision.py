"""The factory bench's provisioning of a generic ATECC608B (address 0x60 as it ships: configuration zone unlocked, no
key), run on the shoe through its driver (boards/mcu/atecc.py): the configuration zone written for a P-256 private
key in slot 0 (external signatures of digests: a part's general key, which the shoe does not use) and one in slot 1
(internal signatures only: the key that signs the journal's checkpoints and receipts, each over the counter as the
chip reads it, docs/journal-format.md), both permanent, counters 0 and 1 at 0; the zone locked with its CRC; both
keys generated inside the chip; the data zone locked. Afterwards the part is what a Trust&GO (ATECC608B-TNGTLS) is
from Microchip's factory for the shoe's use of it. A part of another family, or whose configuration zone is already
locked (a Trust&GO, a part provisioned before), is refused before anything is written."""

from boards.mcu import atecc_zones as zones
from boards.mcu.atecc import ADDRESS, ElementError

# The configuration zone as provisioning leaves it (bytes 0-15, the serial number and revision, are the chip's and
# never written; 84-87 are written by UpdateExtra and Lock alone). Checked against Microchip's published ones: the
# ATECC608B-TNGTLS data sheet's tables and cryptoauthlib's test and PKCS#11 configurations (atecc608_config).
TEMPLATE = bytes(16) + bytes((
    0x60 << 1,  # 16 I2C address: 0x60, the generic part's (a Trust&GO answers at 0x35); the board's data names it
    0x00,  # 17 reserved
    0x00,  # 18 CountMatch: off (no key's use limited by counter 0)
    0x01,  # 19 ChipMode: M0 clock (fastest), 1.3 s watchdog, the address from UserExtraAdd once set (as Trust&GO)
    # 20-51 SlotConfig, two bytes a slot, little-endian
    0x81, 0x00,  # slot 0: secret, external Sign only (Trust&GO: 85 00, ECDH too; the shoe needs none); WriteConfig 0:
                 # no GenKey once the data zone is locked, the key is permanent
    0x82, 0x00,  # slot 1: secret, internal Sign only (as Trust&GO's 82 00): signs what GenDig / GenKey made inside
)) + bytes((0x0F, 0x8F)) * 14 + (  # slots 2-15: clear data, WriteConfig 8 (never written): nothing stored there
    b"\xff\xff\xff\xff\x00\x00\x00\x00"  # 52-59 Counter0 at 0 (the chip's counter encoding of 0)
    b"\xff\xff\xff\xff\x00\x00\x00\x00"  # 60-67 Counter1 at 0
) + bytes((
    0x00,  # 68 UseLock: off
    0x00,  # 69 VolatileKeyPermission: off
    0x00, 0x00,  # 70-71 SecureBoot: off (Trust&GO: 03 F7)
    0x00,  # 72 KdflvLoc
    0x00, 0x00,  # 73-74 KdflvStr (Trust&GO: 69 76, for the KDF it does not use here)
)) + bytes(9) + bytes((  # 75-83 reserved
    0x00, 0x00, 0x55, 0x55,  # 84-87 UserExtra, UserExtraAdd, LockValue, LockConfig: not written (as they ship)
    0xFF, 0xFF,  # 88-89 SlotLocked: no slot locked on its own
    0x00, 0x00,  # 90-91 ChipOptions: no power-on self-test, no IO protection key, no KDF output limits
    0x00, 0x00, 0x00, 0x00,  # 92-95 X509format: unused
    # 96-127 KeyConfig, two bytes a slot, little-endian
    0x13, 0x00,  # slot 0: private, PubInfo (its public key computed at will), P-256; not lockable (Trust&GO: 53 00,
                 # with ReqRandom)
    0x13, 0x00,  # slot 1: the same
)) + bytes((0x1C, 0x00)) * 14  # slots 2-15: KeyType 7, data; not lockable

KEY_SLOT, ATTESTATION_SLOT = 0, 1
_NOT_WRITTEN = (84, 85, 86, 87)
_FAMILY = b"\x00\x00\x60"  # Info's revision: 00 00 60 xx for an ATECC608 (A: 02, B: 03)


def provision(element, template=TEMPLATE, resume=False, address=ADDRESS):
    """Provisions the generic ATECC608B behind element (boards.mcu.atecc.ATECC, at the part's address); slot 1's
    public key (64 bytes, X || Y), the journal's, which the casino enrols. Last, UserExtraAdd (UpdateExtra, once)
    moves the part to address, a Trust&GO's 0x35 by default, from its next power-up on: the shoe's firmware knows one
    address, the
    board's (board.json). ElementError, nothing written, for a part of another
    family or whose configuration zone is locked already (a Trust&GO needs no provisioning); resume=True finishes a
    part whose configuration is this template, locked, but whose data zone a power cut left unlocked."""
    revision = element.revision()
    if revision[:3] != _FAMILY:
        raise ElementError("the part at 0x%02x is not an ATECC608 (its revision is %s): nothing written" % (
            element.address, _hex(revision)))
    config_locked, data_locked = zones.locked(element)
    if config_locked:
        config = element.read_config()
        resumable = not data_locked and _differences(config, template) == []
        if not (resume and resumable):
            raise ElementError("the part at 0x%02x is provisioned already: its configuration zone is locked%s; "
                               "nothing written" % (element.address, " (a Trust&GO part is ready as it is)"
                                                    if data_locked else
                                                    ", its data zone not (resume=True finishes it)"
                                                    if resumable else ", not as this template"))
    else:
        zones.write_config(element, template)
        config = element.read_config()
        wrong = _differences(config, template)
        if wrong:
            raise ElementError("the configuration zone did not take the template at bytes %s: left unlocked" % (
                ", ".join(str(i) for i in wrong)))
        zones.lock_config(element, config)  # the chip locks only if its own CRC of the zone is this one's
    zones.generate_key(element, KEY_SLOT)
    key = zones.generate_key(element, ATTESTATION_SLOT)
    zones.lock_data(element)
    if zones.locked(element) != (True, True) or element.public_key(ATTESTATION_SLOT) != key:
        raise ElementError("the part at 0x%02x did not end provisioned: check it before enrolling it" % element.address)
    if address != element.address:
        zones.move_to(element, address)
    return key


def _differences(config, template):
    return [i for i in range(16, 128) if i not in _NOT_WRITTEN and config[i] != template[i]]


def _hex(data):
    return " ".join("%02x" % b for b in data)
