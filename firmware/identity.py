"""Which firmware runs on the shoe (H-FIRMWARE): its files checked at boot against the release manifest, and the
inspector's challenge, an HMAC of every file under a fresh seed, so no stored answer can pass.

manifest.json, made by `make dist` (docs/firmware-identity.md): {"version", "board", "digest", "files":
[[path, sha256 hex], ...]}, the files in the order the challenge hashes them. Every other file that can run is a
mismatch too: a .py or .mpy anywhere on the filesystem but the journal's and the key's folders (MicroPython
imports a planted controller.py before the approved controller.mpy beside it, and runs any boot.py, main.py).
A production board loads its code from its image alone (the virtual board's: a read-only folder, set as IMAGE at
start; a Pico's: frozen): the manifest, the files and the walk for unlisted ones are then the image's, and nothing
planted on the filesystem, which holds only data, can run.
"""

import json
import os
from binascii import hexlify, unhexlify
from hashlib import sha256

from firmware.mac import Key

MANIFEST = "manifest.json"
_CHUNK = 512
_DATA = ("journal", "keys")  # the shoe's own folders, which hold no code: not walked (a journal has many files)
_DIRECTORY = 0x4000
IMAGE = ""  # the folder the code is imported from: "" the filesystem (development), else the production image
REGION = None  # type: tuple[int, int] | None  # a production Pico's (flash address, bytes): its program region, the frozen code in it
FLASH = "flash"  # the challenge's name for the region


def _at(name):
    return IMAGE + "/" + name if IMAGE else name


def _digest_file(path, h):
    buf = bytearray(_CHUNK)
    view = memoryview(buf)
    with open(_at(path), "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                return
            h.update(view[:n])


def load_manifest(path=MANIFEST):
    with open(_at(path)) as f:
        return json.load(f)


def unlisted(manifest, folder=""):
    """The files that can run (.py, .mpy) under folder that the manifest does not list, in walking order."""
    listed = [name for name, _ in manifest["files"]]
    found = []
    for entry in os.listdir(_at(folder) if folder else IMAGE or "."):
        name = folder + "/" + entry if folder else entry
        if os.stat(_at(name))[0] & _DIRECTORY:
            if name not in _DATA:
                found += unlisted(manifest, name)
        elif (entry.endswith(".py") or entry.endswith(".mpy")) and name not in listed:
            found.append(name)
    return found


def check(manifest):
    """The manifest's files that are missing or differ on this device, then the files that can run and it does
    not list; [] when the firmware is the release."""
    wrong = unlisted(manifest)
    for name, expected in manifest["files"]:
        h = sha256()
        try:
            _digest_file(name, h)
        except OSError:
            wrong.append(name)
            continue
        if hexlify(h.digest()).decode() != expected:
            wrong.append(name)
    return wrong


def release_identity(manifest):
    """32 bytes naming the release in every journal segment header: the manifest's digest."""
    return unhexlify(manifest["digest"])


def challenge(seed_hex, manifest_path=MANIFEST):
    """Answer an inspector's seed, as JSON: each file's HMAC over its name, a NUL and its bytes, in manifest
    order, and an HMAC over those lines (docs/firmware-identity.md)."""
    print(json.dumps(answer(unhexlify(seed_hex), manifest_path)))


def answer(seed, manifest_path=MANIFEST):
    """The challenge's answer as a dict, for mpremote's line and the protocol's pages (firmware/protocol.py). A
    production Pico's: the HMAC of its program region as it is in flash (REGION), the one file that can run."""
    key = Key(seed)  # the seed keys the HMAC, as the shoe's key does its journal's
    if REGION is not None:
        import uctypes

        region = uctypes.bytearray_at(REGION[0], REGION[1])  # the flash itself, read in place: nothing copied
        inner = sha256(key._inner)  # HMAC-SHA256 as Key.tag, over the name and the region, neither copied
        inner.update(FLASH.encode() + b"\0")
        inner.update(region)
        outer = sha256(key._outer)
        outer.update(inner.digest())
        mac = hexlify(outer.digest()).decode()
        return {"files": [[FLASH, mac]], "overall": hexlify(key.tag(("%s %s\n" % (FLASH, mac)).encode(), 32)).decode(),
                "unlisted": []}
    files = []
    for name, _ in load_manifest(manifest_path)["files"]:
        try:
            with open(_at(name), "rb") as f:
                mac = key.tag(name.encode() + b"\0" + f.read(), 32)
            files.append([name, hexlify(mac).decode()])
        except OSError:
            files.append([name, None])
    lines = "".join("%s %s\n" % (name, mac) for name, mac in files).encode()
    return {"files": files, "overall": hexlify(key.tag(lines, 32)).decode(),
            "unlisted": unlisted(load_manifest(manifest_path))}


class RegionMac:
    """A production Pico's challenge answered a slice a pass (firmware/protocol.py): the same HMAC-SHA256(seed,
    `flash` NUL region) as answer(), its inner hash fed SLICE bytes of the region read in place at each step(), so
    that no pass of the loop holds the whole region's 775 ms. done() once the last slice is in; answer() then."""

    SLICE = 16384  # about 19 ms of SHA-256 on the RP2040 at 125 MHz

    def __init__(self, seed):
        self.seed = bytes(seed)
        self._key = Key(self.seed)
        self._inner = sha256(self._key._inner)
        self._inner.update(FLASH.encode() + b"\0")
        if REGION is None:
            raise ValueError("no program region: a production Pico's challenge only")
        self._start, self._size = REGION
        self._at = 0

    def done(self):
        return self._at >= self._size

    def step(self):
        import uctypes

        size = min(self.SLICE, self._size - self._at)
        self._inner.update(uctypes.bytearray_at(self._start + self._at, size))
        self._at += size

    def answer(self):
        outer = sha256(self._key._outer)
        outer.update(self._inner.digest())
        mac = hexlify(outer.digest()).decode()
        return {"files": [[FLASH, mac]],
                "overall": hexlify(self._key.tag(("%s %s\n" % (FLASH, mac)).encode(), 32)).decode(), "unlisted": []}
