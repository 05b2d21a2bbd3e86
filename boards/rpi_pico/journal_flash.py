"""The raw flash partition of the journal's write-ahead ring on the Pico (docs/journal-format.md): the last 512 KB
of rp2.Flash()'s 1408 KB storage region, when littlefs was made on the first 896 KB only. The rp2 port's own _boot.py
formats a littlefs that does not span the whole region: a shoe uses the ring only once its image mounts the smaller
filesystem, which this checks against the filesystem mounted at / before touching the flash."""

from firmware.compat import const

_RING_START = const(896 * 1024)  # bytes into the storage region
_RING_BYTES = const(512 * 1024)  # 128 sectors: over 100 years at 20 shoes a day (make bench)


def partition():
    """The ring's block device, or None while littlefs still spans the ring's place (the journal goes to files)."""
    import os

    stat = os.statvfs("/")
    if stat[0] * stat[2] > _RING_START:
        return None
    import rp2

    return rp2.Flash(start=_RING_START, len=_RING_BYTES)
