"""A whole shoe on flash with time (boards/sim/nor_flash.py): what a card waits for the flash, and what the flash
wears, for the journal's store: `littlefs`, every record flushed into the segment files (the store before the ring),
or `ring`, the firmware's write-ahead ring (firmware/ring.py) drained into those files on littlefs.

    micropython -m latency SCENARIO DESIGN FIGURE LFS_BLOCKS RING_SECTORS PROGSIZE     (compiled: bench/vmrun.py)

FIGURE is `typical` or `worst`: the datasheet's figure every operation takes. Prints one JSON line: microseconds of
flash time from each draw request to the gate opening (the intent record made durable first) and from each card to
the shoe ready again, the erases of each partition, and those made while a coup was under way.
"""

import json
import os
import sys

try:
    import vfs
except ImportError:
    vfs = os  # MicroPython before 1.23

from boards.sim.board import SimBoard
from boards.sim.nor_flash import TYPICAL, W25Q16JV, WORST, TimedFlash
from boards.sim.runner import run
from boards.sim.scenario import commands
from firmware.events import EV_CARD, EV_DRAW
from firmware.ring import RingStorage
from firmware.storage import FileStorage

MOUNT = "/flash"


class Spells:
    """The largest and the sum of a kind of wait, microseconds."""

    def __init__(self):
        self.worst = 0
        self.total = 0
        self.count = 0

    def add(self, us):
        self.worst = max(self.worst, us)
        self.total += us
        self.count += 1

    def json(self):
        return {"worst": self.worst, "mean": self.total // max(self.count, 1), "count": self.count}


class TimedBoard(SimBoard):
    """The sim board with its events' flash time noted: flash busy from the event to the gate's opening, and to
    the event's end."""

    def __init__(self, storage, chips):
        SimBoard.__init__(self, storage)
        self.chips = chips
        self.draw = Spells()
        self.card = Spells()  # cards after which the coup goes on: the shoe ready for the next draw
        self.between = Spells()  # events outside a coup: housekeeping included
        self.opened_at = -1
        gate_open = self.gate.open

        def opened():
            self.opened_at = self.busy()
            gate_open()

        self.gate.open = opened

    def busy(self):
        return sum(chip.busy_us for chip in self.chips)

    def _handle(self, event, arg):
        start = self.busy()
        self.opened_at = -1
        SimBoard._handle(self, event, arg)
        if event == EV_DRAW and self.opened_at >= 0:
            self.draw.add(self.opened_at - start)
        if self.shell and self.shell.ctl.in_coup:
            if event == EV_CARD:
                self.card.add(self.busy() - start)
        else:
            self.between.add(self.busy() - start)


def counting(chip, board, tally):
    """Counts the chip's erases made while a coup is under way."""
    erase = chip._erase

    def counted(block):
        if board[0] and board[0].shell and board[0].shell.ctl.in_coup:
            tally[0] += 1
        return erase(block)

    chip._erase = counted


def main(argv):
    scenario, design, figure = argv[0], argv[1], WORST if argv[2] == "worst" else TYPICAL
    lfs_blocks, ring_sectors, progsize = int(argv[3]), int(argv[4]), int(argv[5])
    holder = [None]
    in_coup = [0]
    lfs = TimedFlash(lfs_blocks, None, W25Q16JV, figure)
    vfs.VfsLfs2.mkfs(lfs, progsize=progsize)
    os.mount(vfs.VfsLfs2(lfs, progsize=progsize), MOUNT)
    archive = FileStorage(MOUNT + "/journal")
    chips = [lfs]
    storage = archive
    if design == "ring":
        ring = TimedFlash(ring_sectors, None, W25Q16JV, figure)
        chips.append(ring)
        storage = RingStorage(ring, archive)
    base = [(chip.erases, chip.programs, chip.busy_us) for chip in chips]
    board = TimedBoard(storage, chips)
    holder[0] = board
    for chip in chips:
        chip.clock = board.clock
        counting(chip, holder, in_coup)
    with open(scenario) as f:
        run(commands(f, scenario), board)
    records = board.shell.journal.seq
    board.close()  # an orderly stop: the ring drained whole, as before pull-log
    os.umount(MOUNT)
    erases = [chip.erases - b[0] for chip, b in zip(chips, base)]
    print(json.dumps({
        "cards": board.shoe.out, "records": records, "lfs_erases": erases[0],
        "ring_erases": erases[1] if design == "ring" else 0,
        "programs": sum(chip.programs - b[1] for chip, b in zip(chips, base)),
        "erases_in_coup": in_coup[0], "late_erases": storage.late_erases if design == "ring" else 0,
        "draw_to_gate_us": board.draw.json(), "card_to_ready_us": board.card.json(),
        "between_coups_us": board.between.json(), "longest_us": max(chip.longest_us for chip in chips),
        "clock_ms": board.clock.now}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
