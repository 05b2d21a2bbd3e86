"""A synthetic fleet's secure element (sabot fleet synth): what the firmware's checkpoints ask of a Trust&GO, answered
without the I2C bytes or the model's pure-Python P-256, so that a fleet's hundred thousand checkpoints take
seconds."""

import hashlib
import os

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, decode_dss_signature

from boards.sim import p256
from boards.sim.element import private_key
from sabot import attested


class Element:
    """A sabot's secure element as its driver answers the firmware (boards/mcu/atecc.py's attestation, counter,
    increment, attest, public_key, and their runs: incrementing, attesting, busy, finish), a Trust&GO's: its slot 1
    key made from a seed as the model's (boards/sim/element.py's private_key), without the I2C bytes; it signs the
    chip's own message (sabot.attested) with pyca/cryptography, a fleet's hundred thousand checkpoints in seconds (its
    signatures not deterministic: no check reads their bytes)."""

    CHIP = b"\x85\x00\x53\x00\x01"  # a Trust&GO's slot 0 configuration, as its internal messages carry it

    def __init__(self, seed):
        scalar = private_key(seed, 1)
        self._key = ec.derive_private_key(scalar, ec.SECP256R1())
        self.public = p256.public_key(scalar)
        self._counters = [0, 0]

    def attestation(self):
        return self.CHIP

    def public_key(self, slot=1):
        return self.public

    def counter(self, which):
        return self._counters[which]

    def increment(self, which, seen=None):
        self._counters[which] += 1
        return self._counters[which]

    def attest(self, num_in, slot=1, read=True):
        rand_out = os.urandom(32)
        tempkey = attested.tempkey_from_counter(attested.tempkey_from_nonce(rand_out, num_in), self._counters[0])
        digest = hashlib.sha256(attested.message(tempkey, self.CHIP)).digest()
        r, s = decode_dss_signature(self._key.sign(digest, ec.ECDSA(Prehashed(hashes.SHA256()))))
        counted = self._counters[0].to_bytes(4, "little") if read else b""
        return counted + rand_out + r.to_bytes(32, "big") + s.to_bytes(32, "big")

    def incrementing(self, which, seen=None):
        return _Answered(self.increment(which, seen))

    def attesting(self, num_in, slot=1, read=True):
        return _Answered(self.attest(num_in, slot, read))

    def busy(self):
        return False

    def finish(self, run=None):
        return None if run is None else run.poll(0)


class _Answered:
    """A run (boards/mcu/atecc.py's Run: done, poll) the synthetic element answered at once."""

    done = True

    def __init__(self, answer):
        self._answer = answer

    def poll(self, ms):
        return self._answer
