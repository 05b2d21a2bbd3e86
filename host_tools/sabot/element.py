"""The secure element's signatures checked on the host (docs/keys.md, "L'élément sécurisé"): a shoe's public key as
its element gives it (X || Y, 64 bytes, read off at commissioning and enrolled by the casino) and its ECDSA P-256
signatures (R || S, 64 bytes) of SHA-256 digests. Checking needs no secret: whoever verifies cannot forge."""

import hashlib
import json
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from sabot.journalfile import Finding, Unusable

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


def read_public_key(path):
    """A public key file: the element's X || Y as hexadecimal text (what `sabot key enrol` records), or Unusable."""
    try:
        text = Path(path).read_text(encoding="ascii")
        return public_key(bytes.fromhex(text.strip()))
    except FileNotFoundError:
        raise Unusable("%s: no such public key file" % path) from None
    except (OSError, UnicodeError, ValueError) as e:
        raise Unusable("%s: not a public key (64 bytes X || Y, hexadecimal): %s" % (
            path, getattr(e, "strerror", None) or e)) from None


class NotEnrolled(Unusable):
    """A registry that does not hold the sabot asked: its public key is unknown."""


def registry_keys(path, sabot):
    """The public keys the casino's registry (sabot key enrol's shoes.json) holds for sabot number sabot: its
    element's, then those of the elements it replaced (the "replaced" list, `sabot number set --replace`), whose
    journals written before the replacement still verify. A replacement stands only in a registry a trusted signer
    vouches for, and a replaced element's journal only up to its replacement: Trust.findings says when not."""
    try:
        held = json.loads(Path(path).read_text(encoding="utf-8"))
        found = [public_key(bytes.fromhex(s["public_key"])) for s in held["shoes"] if s["sabot"] == sabot]
        found += [public_key(bytes.fromhex(s["public_key"])) for s in replaced(held, sabot)] if found else []
    except FileNotFoundError:
        raise Unusable("%s: no such registry" % path) from None
    except (OSError, UnicodeError, ValueError, KeyError, TypeError) as e:
        raise Unusable("%s: not a registry of shoes (sabot key enrol): %s" % (path, e)) from None
    if not found:
        raise NotEnrolled("%s: sabot %d is not enrolled there: its public key is unknown" % (path, sabot))
    return found


def replaced(held, sabot):
    """The entries of the registry's "replaced" list (a registry's object, as read) for sabot number sabot."""
    gone = held.get("replaced", [])
    return [s for s in gone if isinstance(s, dict) and s.get("sabot") == sabot] if isinstance(gone, list) else []


def two_keys(path, sabot):
    """[the K-REGISTRY finding] when the casino's registry holds sabot number sabot under more than one element (two
    shoes under one number, or a replacement `sabot number set --replace` did not record), else []: a journal then
    verifies under a key nobody vouches is that shoe's."""
    try:
        shoes = json.loads(Path(path).read_text(encoding="utf-8"))["shoes"]
        keys = sorted({s["public_key"] for s in shoes if s["sabot"] == sabot})
    except (OSError, UnicodeError, ValueError, KeyError, TypeError):
        return []  # registry_keys says what is wrong with it
    if len(keys) < 2:
        return []
    ids = ", ".join(key_id(public_key(bytes.fromhex(k))).hex() for k in keys)
    return [Finding("K-REGISTRY", 0, "the registry %s holds sabot %d under %d elements (key ids %s): two shoes under "
                    "one number, or a replacement not recorded (sabot number set --replace)" % (
                        path, sabot, len(keys), ids))]
