"""firmware/lfs_blocks.block_room against the littlefs the boards run: a file appended in sessions that each end where
block_room says its last block is full, and the same appends a byte short; prints the erases of each session as
one JSON line.

    micropython lfs_block_room.py SESSIONS
"""

import json
import os
import sys

try:
    import vfs
except ImportError:
    vfs = os  # MicroPython before 1.23

from boards.sim.ramflash import RamFlash
from firmware.layout import HEADER_SIZE
from firmware.lfs_blocks import block_room

MOUNT = "/flash"
PROGSIZE = 256  # as the rp2 port's _boot.py mounts it


def sessions(count, short):
    """Erases each append session costs, a file started with a segment header's bytes; short: the first session a
    byte short of its room, the others as long as when filled, so that each ends a byte before a block's end."""
    flash = RamFlash(64)
    vfs.VfsLfs2.mkfs(flash, progsize=PROGSIZE)
    os.mount(vfs.VfsLfs2(flash, progsize=PROGSIZE), MOUNT)
    path = MOUNT + "/00000001.sbj"
    with open(path, "wb") as f:
        f.write(bytes(HEADER_SIZE))
    size = HEADER_SIZE
    erases = []
    for _ in range(count):
        block = flash.block_size
        room = block_room(size + short, block) if size > HEADER_SIZE else block_room(size, block) - short
        before = flash.erases
        with open(path, "ab") as f:
            f.write(b"\x5a" * room)
        erases.append(flash.erases - before)
        size += room
    if os.stat(path)[6] != size:
        raise AssertionError("the file holds %d bytes, not %d" % (os.stat(path)[6], size))
    os.umount(MOUNT)
    return erases


def main(argv):
    count = int(argv[0])
    print(json.dumps({"filled": sessions(count, 0), "short": sessions(count, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
