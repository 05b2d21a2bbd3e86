"""A whole shoe journalled through littlefs (vfs.VfsLfs2, as the boards mount it) on a RAM flash chip, counting the
erases and programs it costs (boards/sim/ramflash.py; tests/vm/lfs_powercut.py mounts it the same way).

    micropython -m wear SCENARIO BLOCKS PROGSIZE DESIGN          (compiled: bench/vmrun.py)

DESIGN is `each`, the firmware's: every record flushed as it is written; or `with-intent`, a model of a cheaper
design and not the firmware's: records wait in littlefs's cache and are flushed with the next release intent (the
gate opens only after it), at a new segment, and at the end. Prints one JSON line.
"""

import json
import os
import sys

try:
    import vfs
except ImportError:
    vfs = os  # MicroPython before 1.23

from boards.sim.board import SimBoard
from boards.sim.ramflash import RamFlash
from boards.sim.runner import run
from boards.sim.scenario import commands
from firmware.journal import BODY_AT
from firmware.records import R_RELEASE
from firmware.storage import FileStorage

MOUNT = "/flash"


class FlushedWithIntent:
    """A segment's file whose flush() waits for a release intent: what a journal batching records would do."""

    def __init__(self, stream):
        self._stream = stream
        self._last = 0

    def write(self, frame):
        self._last = frame[BODY_AT]
        return self._stream.write(frame)

    def flush(self):
        if self._last == R_RELEASE:
            self._stream.flush()

    def close(self):
        self._stream.close()


class BatchedStorage(FileStorage):
    def appender(self, segment):
        return FlushedWithIntent(FileStorage.appender(self, segment))


def main(argv):
    scenario, blocks, progsize, design = argv[0], int(argv[1]), int(argv[2]), argv[3]
    flash = RamFlash(blocks)
    vfs.VfsLfs2.mkfs(flash, progsize=progsize)
    os.mount(vfs.VfsLfs2(flash, progsize=progsize), MOUNT)
    erases, programs, programmed = flash.erases, flash.programs, flash.programmed
    storage = (BatchedStorage if design == "with-intent" else FileStorage)(MOUNT + "/journal")
    board = SimBoard(storage)
    with open(scenario) as f:
        run(commands(f, scenario), board)
    records = board.shell.journal.seq
    board.close()
    os.umount(MOUNT)
    print(json.dumps({"cards": board.shoe.out, "records": records, "erases": flash.erases - erases,
                      "programs": flash.programs - programs, "programmed": flash.programmed - programmed}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
