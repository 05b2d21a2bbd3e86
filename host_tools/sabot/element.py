"""The secure element's signatures checked on the host (docs/keys.md, "L'élément sécurisé"): a shoe's public key as
its element gives it (X || Y, 64 bytes, read off at commissioning and enrolled by the casino) and its ECDSA P-256
signatures (R || S, 64 bytes) of SHA-256 digests. Checking needs no secret: whoever verifies cannot forge."""

import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ID_LABEL = b"sabot element id "


def public_key(xy):
    """The public key of 64 bytes X || Y; ValueError when they are not a point of P-256."""
    if len(xy) != 64:
        raise ValueError("an element's public key is 64 bytes (X || Y), not %d" % len(xy))
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b"\x04" + bytes(xy))


def xy(key):
    """A public key's X || Y, 64 bytes, as the element gives it."""
    return key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)[1:]


def key_id(key):
    """The id a format 4 segment header names its shoe's element by: the first 8 bytes of SHA-256 of the label and
    X || Y."""
    return hashlib.sha256(ID_LABEL + xy(key)).digest()[:8]


def verifies(key, digest, signature):
    """Whether signature (R || S) is key's over the 32-byte digest, as the element signs it."""
    if len(signature) != 64 or len(digest) != 32:
        return False
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        key.verify(der, bytes(digest), ec.ECDSA(Prehashed(hashes.SHA256())))
    except InvalidSignature:
        return False
    return True
