"""J-DURABLE through the journal's write-ahead ring on the MicroPython VM: a whole shoe journalled into a ring on one
RAM flash chip, drained into littlefs (VfsLfs2) on another, then the power cut at every program and erase of either
chip, before it and half-way through it; each image is powered on again, stopped in order (the ring drained whole)
and its journal checked against the uncut run's.

    micropython ring_powercut.py [--out FOLDER] [--sectors N] [--blocks N] [--segment-records N] [--shard I/N]
                                 [--sample N] [--scenario PATH]

Prints a FAIL line for each failed cut, then "uncut run: ..." and "cuts checked: N, failures: F ...". With --out,
copies the journal of every Nth cut to FOLDER/cutKKKKKK[-torn] for the host's verifier.
"""

import io
import os
import sys
import time
from array import array

from lfs_powercut import FOLDER, MOUNT, copy_out, intact_frames, journal_files, options, read, vfs

from boards.sim.board import SimBoard
from boards.sim.ramflash import ERASE, OpLog, RamFlash
from boards.sim.runner import run
from boards.sim.scenario import commands
from firmware import journal as fmt
from firmware import layout
from firmware.records import R_ALARM, R_BOOT, R_RECOVERY, R_RELEASE
from firmware.ring import RingStorage
from firmware.storage import FileStorage

FRAME = layout.FRAME_SIZE
HEADER = layout.HEADER_SIZE
PROGSIZE = 256  # as the rp2 port mounts littlefs: whole pages, which the RP2040's ROM (and RamFlash) requires
POWER_BACK_MS = 1000
RING = 0  # the chips, as the op order names them
LFS = 1


class Ordered:
    """A chip's op log that also notes, in one order for both chips, which chip did each op."""

    def __init__(self, order, chip):
        self.log = OpLog()
        self.order = order
        self.chip = chip

    def program(self, block, offset, buf):
        self.order.append(self.chip)
        self.log.program(block, offset, buf)

    def erase(self, block, size):
        self.order.append(self.chip)
        self.log.erase(block, size)


def torn(log, n):
    """Where a ring program cut half-way through its entry stops: the middle of the page image's bytes that are not
    0xFF (the others leave the flash as it is)."""
    start = log.starts[n]
    first = last = -1
    for i in range(log.lengths[n]):
        if log.data[start + i] != 0xFF:
            last = i
            if first < 0:
                first = i
    return (first + last + 1) // 2


def new_board(ring, opts):
    return SimBoard(RingStorage(ring, FileStorage(FOLDER)), segment_records=opts["segment_records"] or None)


def journal_frames(known):
    """Every record's frame in the mounted journal, seq 1 first, a torn tail left out."""
    frames = bytearray()
    for path in journal_files():
        data = read(path)
        seq = fmt.parse_header(data)[9]
        if len(frames) > seq * FRAME:
            frames = frames[:seq * FRAME]
        frames.extend(memoryview(data)[HEADER:HEADER + intact_frames(data, seq, known) * FRAME])
    return frames


class Uncut:
    def __init__(self, opts):
        self.order = bytearray()
        self.logs = (Ordered(self.order, RING), Ordered(self.order, LFS))
        self.ring = RamFlash(opts["sectors"])
        self.lfs = RamFlash(opts["blocks"])
        vfs.VfsLfs2.mkfs(self.lfs, progsize=PROGSIZE)
        self.base = (bytearray(self.ring.data), bytearray(self.lfs.data))
        self.durable = array("I")  # at op k: the last seq whose append had returned
        self.types = bytearray()  # at op k: that record's type
        self.clock = array("I")
        os.mount(vfs.VfsLfs2(self.lfs, progsize=PROGSIZE), MOUNT)
        board = [None]

        def note(index):
            shell = board[0].shell if board[0] else None
            self.durable.append(shell.journal.seq if shell else 0)
            self.types.append(shell.journal.body[0] if shell and shell.journal.seq else 0)
            self.clock.append(board[0].clock.now if board[0] else 0)

        for chip, log in ((self.ring, self.logs[RING]), (self.lfs, self.logs[LFS])):
            chip.log = log
            chip.before_op = note
        board[0] = new_board(self.ring, opts)
        with open(opts["scenario"]) as f:
            run(commands(f, opts["scenario"]), board[0])
        self.records = board[0].shell.journal.seq
        board[0].close()  # an orderly stop: the last drain
        self.cards = board[0].shoe.out
        for chip in (self.ring, self.lfs):
            chip.before_op = None
        self.final = (bytearray(self.ring.data), bytearray(self.lfs.data))
        self.frames = journal_frames(b"")
        os.umount(MOUNT)
        if len(self.frames) != self.records * FRAME or len(self.durable) != len(self.order):
            raise AssertionError("the uncut run: %d records journalled, %d read back" % (
                self.records, len(self.frames) // FRAME))


def check(uncut, k, images, torn, copy_to=None):
    """None if the image of cut k recovers right, else why; the recovered journal copied to copy_to if given. torn:
    the cut tore a ring entry, whose record power-up reports lost (and alarms for, the gate being locked)."""
    durable = uncut.durable[k]
    ring = RamFlash(len(images[RING]) // 4096)
    ring.data[:] = images[RING]
    lfs = RamFlash(len(images[LFS]) // 4096)
    lfs.data[:] = images[LFS]
    os.mount(vfs.VfsLfs2(lfs, progsize=PROGSIZE), MOUNT)
    try:
        board = SimBoard(RingStorage(ring, FileStorage(FOLDER)))
        board.clock.now = uncut.clock[k] + POWER_BACK_MS
        board.power_on()
        broken = board.shell.journal.broken
        board.close()
        if broken:
            return "the journal is left broken after power-up"
        frames = journal_frames(uncut.frames)
        if copy_to:
            copy_out(copy_to)
    finally:
        os.umount(MOUNT)
    end = len(frames) // FRAME
    while end and frames[(end - 1) * FRAME + layout.BODY_AT] in (R_BOOT, R_RECOVERY, R_ALARM) and end > durable:
        end -= 1
    if end != durable and end != durable + 1:
        return "the journal holds records to seq %d, the run had made seq %d durable" % (end, durable)
    if frames[:end * FRAME] != uncut.frames[:end * FRAME]:
        return "a record up to seq %d is missing or differs from the uncut run's" % end
    uncertain = frames[(end - 1) * FRAME + layout.BODY_AT] == R_RELEASE if end else False
    tail = [frames[at + layout.BODY_AT] for at in range(end * FRAME, len(frames), FRAME)]
    want = [R_BOOT] + [R_RECOVERY] * (uncertain or torn) + [R_ALARM] * (torn and not uncertain)
    if tail != want:
        return "after seq %d the journal holds record types %s, not %s" % (end, tail, want)
    return None


def main(argv):
    extra = {"sectors": 8}
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] == "--sectors" and i + 1 < len(argv):
            extra["sectors"] = int(argv[i + 1])
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    opts = options(rest)
    opts.update(extra)
    if "--blocks" not in rest:
        opts["blocks"] = 64
    started = time.ticks_ms()
    uncut = Uncut(opts)
    index, count = opts["shard"]
    images = (bytearray(uncut.base[RING]), bytearray(uncut.base[LFS]))
    done = [0, 0]  # ops of each chip replayed so far
    chips = (RamFlash(opts["sectors"]), RamFlash(opts["blocks"]))  # the images' contents are replayed through these
    checked = failures = uncertain = copied = 0
    programmed = False  # the ring holds an entry: a torn one after it is a record lost (the first is a header)
    ops = [0, 0]
    for k in range(len(uncut.order)):
        chip = uncut.order[k]
        log = uncut.logs[chip].log
        n = done[chip]
        ops[log.kinds[n] == ERASE] += 1
        if k % count == index:
            for part in (None, torn(log, n) if chip == RING and log.kinds[n] != ERASE else log.lengths[n] // 2):
                cut = (bytearray(images[RING]), bytearray(images[LFS]))
                if part is not None:
                    chips[chip].data = cut[chip]
                    chips[chip].replay(log, n, part)
                failure = None
                try:
                    sampled = opts["out"] and k % opts["sample"] == 0
                    folder = "%s/ring%06d%s" % (opts["out"], k, "" if part is None else "-torn")
                    torn_entry = chip == RING and part is not None and log.kinds[n] != ERASE and programmed
                    failure = check(uncut, k, cut, torn_entry, folder if sampled else None)
                    copied += 1 if sampled else 0
                except Exception as e:  # any exception out of a recovery is a failure to report
                    text = io.StringIO()
                    sys.print_exception(e, text)
                    failure = "exception: " + text.getvalue()
                checked += 1
                uncertain += uncut.types[k] == R_RELEASE
                if failure:
                    failures += 1
                    print("FAIL cut %d%s: %s of the %s chip, durable seq %d: %s" % (
                        k, "" if part is None else " torn", "erase" if log.kinds[n] == ERASE else "program",
                        "ring" if chip == RING else "littlefs", uncut.durable[k], failure))
        chips[chip].data = images[chip]
        chips[chip].replay(log, n)
        programmed = programmed or chip == RING and log.kinds[n] != ERASE
        done[chip] += 1
    if images[RING] != uncut.final[RING] or images[LFS] != uncut.final[LFS]:
        failures += 1
        print("FAIL the whole log replayed does not leave the chips as the uncut run did")
    ring_log, lfs_log = uncut.logs[RING].log, uncut.logs[LFS].log
    print("uncut run: %d ring programs, %d ring erases, %d littlefs programs, %d littlefs erases, %d records for %d "
          "cards; ring of %d sectors, littlefs of %d blocks" % (
              sum(1 for x in ring_log.kinds if x != ERASE), sum(1 for x in ring_log.kinds if x == ERASE),
              sum(1 for x in lfs_log.kinds if x != ERASE), sum(1 for x in lfs_log.kinds if x == ERASE),
              uncut.records, uncut.cards, opts["sectors"], opts["blocks"]))
    print("cuts checked: %d, failures: %d (shard %d/%d of %d ops; release reported uncertain %d; %d journals copied "
          "out; %d ms)" % (checked, failures, index, count, len(uncut.order), uncertain, copied,
                           time.ticks_diff(time.ticks_ms(), started)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
