"""What the secure element signs when it vouches for its own counter (issue 37; docs/keys.md, "Le compteur attesté"),
rebuilt on the host from the datasheet's layouts as Microchip's cryptoauthlib gives them (lib/host/atca_host.c:
atcah_nonce, atcah_gen_dig, atcah_sign_internal_msg), never from the shoe's code.

The shoe asks its ATECC608B for three commands in one wake: Nonce with a random number (NumIn: the first 20 bytes of
the digest of what it vouches for), GenDig on counter 0 (the chip folds the counter's value as it reads it into
TempKey), then Sign in internal mode with the key of slot 1, which signs nothing else (no external Sign). The chip
signs the SHA-256 of a 55-byte message it builds itself around TempKey. The signature therefore holds only for the
counter value the chip had: nobody, code on the shoe included, can have it sign an older value."""

import hashlib
import struct

NONCE, GENDIG, SIGN = 0x16, 0x15, 0x41  # opcodes
NONCE_SEED_UPDATE = 0x00  # Nonce's mode: a random nonce, the generator's seed updated
ZONE_COUNTER = 0x04  # GenDig's zone: a monotonic counter
SIGN_INTERNAL = 0x00  # Sign's mode: internal, the serial number's fixed bytes alone
ATTEST_SLOT = 1  # the key that signs
SERIAL_FIXED = b"\xee\x01\x23"  # SN[8], SN[0], SN[1]: fixed in every ATECC's serial number
NUM_IN = 20
RAND_OUT = 32
CHIP = 5  # the configuration bytes the message carries: SlotConfig[0], KeyConfig[0] (2 each), slot 0 unlocked (1)


def tempkey_from_nonce(rand_out, num_in):
    """TempKey after Nonce in random mode: SHA-256(RandOut, NumIn, opcode, mode, 00)."""
    return hashlib.sha256(bytes(rand_out) + bytes(num_in) + bytes((NONCE, NONCE_SEED_UPDATE, 0))).digest()


def tempkey_from_counter(tempkey, counter, which=0):
    """TempKey after GenDig on counter which: SHA-256(32 zeros, opcode, zone, key id (2), SN[8], SN[0:1], 0, the
    counter (4, little-endian), 20 zeros, TempKey before)."""
    return hashlib.sha256(bytes(32) + bytes((GENDIG, ZONE_COUNTER, which, 0)) + SERIAL_FIXED + b"\x00"
                          + struct.pack("<I", counter) + bytes(20) + bytes(tempkey)).digest()


def message(tempkey, chip):
    """Sign's internal message, 55 bytes: TempKey, opcode, mode, key id (2), SlotConfig and KeyConfig of TempKey's
    key id (0 after GenDig on a counter), TempKey's flags (0: a random nonce's, no GenDig data), 2 zeros, SN[8], 4
    zeros (the serial number not included), SN[0:1], 2 zeros, slot 0 unlocked (1) or not (0), 0, 0."""
    chip = bytes(chip)
    return (bytes(tempkey) + bytes((SIGN, SIGN_INTERNAL, ATTEST_SLOT, 0)) + chip[:4] + bytes(3) + SERIAL_FIXED[:1]
            + bytes(4) + SERIAL_FIXED[1:] + bytes(2) + chip[4:5] + bytes(2))


def digest(vouched, counter, rand_out, chip):
    """The digest the element's ECDSA signature is over, for vouched (the 32-byte digest of what the shoe asked it to
    vouch for), the counter value it claims, the chip's RandOut and its configuration bytes."""
    tempkey = tempkey_from_counter(tempkey_from_nonce(rand_out, bytes(vouched)[:NUM_IN]), counter)
    return hashlib.sha256(message(tempkey, chip)).digest()
