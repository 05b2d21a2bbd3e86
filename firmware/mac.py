"""HMAC-SHA256 by hand (MicroPython has no hmac): the casino's key its commands are authenticated under
(firmware/protocol.py), the inspector's seed over the firmware (firmware/identity.py), the sim's version 1 receipts
under the development key (firmware/receipt.py). The journal itself is signed by the secure element, never by a key
held in a file (firmware/checkpoints.py)."""

from hashlib import sha256


class Key:
    """A secret of at least 16 bytes, named by its id: the first 8 bytes of SHA-256("sabot key id " + secret)."""

    def __init__(self, secret):
        if len(secret) < 16:
            raise ValueError("a key has at least 16 bytes")
        padded = (sha256(secret).digest() if len(secret) > 64 else secret) + bytes(64)
        self._inner = bytes(b ^ 0x36 for b in padded[:64])
        self._outer = bytes(b ^ 0x5C for b in padded[:64])
        self.id = sha256(b"sabot key id " + secret).digest()[:8]

    def tag(self, message, size=32):
        """HMAC-SHA256 of the message, its first size bytes."""
        inner = sha256(self._inner)
        inner.update(message)
        outer = sha256(self._outer)
        outer.update(inner.digest())
        digest = outer.digest()
        return digest if size >= 32 else digest[:size]
