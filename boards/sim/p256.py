"""ECDSA on P-256 with RFC 6979's deterministic nonce, for the secure element's model (boards/sim/element.py): the
same digest and key sign to the same bytes on CPython, the MicroPython unix port and its 32-bit WebAssembly port,
so the sims' journals stay byte-identical. Big ints and 3-argument pow only, which all three have. k*G by a fixed-base
comb of TEETH teeth: 2**TEETH - 1 points made at first use (about 10 KB of heap on the unix port), then 256/TEETH
doublings and as many additions a signature: 3 to 8 ms on the unix port, 60 ms for the table. Not constant-time: it
models a chip, it guards nothing."""

from hashlib import sha256

from firmware.mac import Key

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_GX = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
_GY = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5

TEETH = 5
_SPACING = (256 + TEETH - 1) // TEETH  # the comb's columns
_comb = []  # _comb[j - 1]: the sum of 2**(i * _SPACING) * G over the bits i of j, affine


def _double(X, Y, Z):
    """2(X, Y, Z) in Jacobian coordinates, a = -3 (dbl-2001-b); Z = 0 is the point at infinity."""
    if not Z or not Y:
        return 0, 1, 0
    delta = Z * Z % P
    gamma = Y * Y % P
    beta = X * gamma % P
    alpha = 3 * (X - delta) * (X + delta) % P
    X3 = (alpha * alpha - 8 * beta) % P
    Z3 = ((Y + Z) * (Y + Z) - gamma - delta) % P
    return X3, (alpha * (4 * beta - X3) - 8 * gamma * gamma) % P, Z3


def _add(X, Y, Z, x, y):
    """(X, Y, Z) + (x, y), the second point affine (madd-2004-hmv's steps)."""
    if not Z:
        return x, y, 1
    ZZ = Z * Z % P
    H = (x * ZZ - X) % P
    r = (y * ZZ * Z - Y) % P
    if not H:
        return _double(X, Y, Z) if not r else (0, 1, 0)
    HH = H * H % P
    HHH = H * HH % P
    V = X * HH % P
    X3 = (r * r - HHH - 2 * V) % P
    return X3, (r * (V - X3) - Y * HHH) % P, Z * H % P


def _affine(X, Y, Z):
    inverse = pow(Z, P - 2, P)
    square = inverse * inverse % P
    return X * square % P, Y * square * inverse % P


def _table():
    """The comb's points, made once: the teeth 2**(i * _SPACING) * G, then every sum of them."""
    teeth = []
    point = (_GX, _GY, 1)
    for i in range(TEETH):
        teeth.append(_affine(*point))
        if i < TEETH - 1:
            for _ in range(_SPACING):
                point = _double(*point)
    for j in range(1, 1 << TEETH):
        point = (0, 1, 0)
        for i in range(TEETH):
            if j >> i & 1:
                point = _add(*point, *teeth[i])
        _comb.append(_affine(*point))


def base_times(k):
    """k*G, affine (x, y), for 0 < k < N."""
    if not _comb:
        _table()
    point = (0, 1, 0)
    for column in range(_SPACING - 1, -1, -1):
        point = _double(*point)
        j = 0
        for i in range(TEETH - 1, -1, -1):
            j = j << 1 | (k >> (i * _SPACING + column)) & 1
        if j:
            point = _add(*point, *_comb[j - 1])
    return _affine(*point)


def public_key(d):
    """The public key of the scalar d as the chip gives it: X || Y, 32 bytes each, big-endian."""
    x, y = base_times(d)
    return x.to_bytes(32, "big") + y.to_bytes(32, "big")


def _nonces(d, digest):
    """RFC 6979's k for (d, digest), then the next candidates, for P-256 and HMAC-SHA256 (section 3.2)."""
    h = (int.from_bytes(digest, "big") % N).to_bytes(32, "big")
    x = d.to_bytes(32, "big")
    v = b"\x01" * 32
    k = Key(bytes(32)).tag(v + b"\x00" + x + h, 32)
    v = Key(k).tag(v, 32)
    k = Key(k).tag(v + b"\x01" + x + h, 32)
    v = Key(k).tag(v, 32)
    while True:
        v = Key(k).tag(v, 32)
        candidate = int.from_bytes(v, "big")
        if 0 < candidate < N:
            yield candidate
        k = Key(k).tag(v + b"\x00", 32)
        v = Key(k).tag(v, 32)


def sign(d, digest):
    """The ECDSA signature of a 32-byte digest under the scalar d: R || S, 32 bytes each, big-endian (S as computed,
    not normalised to the lower half, as the chip gives it)."""
    z = int.from_bytes(digest, "big")
    for k in _nonces(d, digest):
        r = base_times(k)[0] % N
        s = pow(k, N - 2, N) * (z + r * d) % N
        if r and s:
            return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def scalar(seed):
    """A private scalar from a seed, in 1..N-1: the model's key, made inside it."""
    return int.from_bytes(sha256(b"sabot element key\0" + seed).digest(), "big") % (N - 1) + 1
