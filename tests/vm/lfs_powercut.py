"""J-DURABLE on the filesystem a board runs: a whole shoe journalled through littlefs (VfsLfs2) on a RAM flash
chip in the MicroPython VM, then the power cut at every program and erase of that run, both before it and
half-way through it; each image is mounted again and powered on, as a shoe coming back would be.

    micropython lfs_powercut.py [--out FOLDER] [--blocks N] [--segment-records N] [--shard I/N]
                                [--sample N] [--scenario PATH]

The shoe is run once with every program and erase logged; each cut's image is that log replayed up to the cut,
so a cut costs one recovery, not one shoe. A few cuts are also made for real by the chip in a second run, to
show that the replay is what a cut leaves. Prints a FAIL line for each failed cut, then the counts and
"erases per card: X.XX". With --out, copies the recovered journal of every Nth cut and of the last to
FOLDER/cutKKKKKK[-torn], for the host's verifier. --shard I/N checks the cuts k with k % N == I.
"""

import io
import os
import struct
import sys
import time
from array import array
from binascii import crc32

try:
    import vfs
except ImportError:
    vfs = os  # MicroPython before 1.23

from boards.sim.board import SimBoard
from boards.sim.flash import PowerCut
from boards.sim.ramflash import ERASE, PROGRAM, OpLog, RamFlash
from boards.sim.runner import run
from boards.sim.scenario import commands
from firmware import journal as fmt
from firmware import layout
from firmware.controller import Controller
from firmware.records import R_BOOT, R_RECOVERY
from firmware.storage import FileStorage, segment_name

MOUNT = "/flash"
FOLDER = MOUNT + "/journal"
SCENARIO = "boards/sim/scenarios/full_shoe_chemin_de_fer.txt"
FRAME = layout.FRAME_SIZE
HEADER = layout.HEADER_SIZE
SNAP = layout.SNAPSHOT_SIZE
PROGSIZE = 256  # as the rp2 port mounts littlefs: whole pages, which the RP2040's ROM (and RamFlash) requires
POWER_BACK_MS = 1000  # after a cut; the wall clock (a board's RTC) kept running meanwhile
USAGE = ("usage: lfs_powercut.py [--out FOLDER] [--blocks N] [--segment-records N] [--shard I/N] [--sample N] "
         "[--scenario PATH]")


def options(argv):
    root = __file__.rsplit("/", 3)[0] if __file__.count("/") >= 3 else "."  # the repository, from tests/vm/
    opts = {"out": None, "blocks": 128, "segment_records": 0, "shard": (0, 1), "sample": 50,
            "scenario": root + "/" + SCENARIO}
    i = 0
    while i < len(argv):
        name = argv[i][2:].replace("-", "_")
        if not argv[i].startswith("--") or name not in opts or i + 1 >= len(argv):
            raise SystemExit(USAGE)
        value = argv[i + 1]
        if name == "shard":
            index, count = value.split("/")
            value = (int(index), int(count))
        elif name != "out" and name != "scenario":
            value = int(value)
        opts[name] = value
        i += 2
    return opts


def mount(flash):
    os.mount(vfs.VfsLfs2(flash, progsize=PROGSIZE), MOUNT)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def journal_files():
    try:
        os.stat(FOLDER)
    except OSError:
        return []  # the power failed before the folder was made: FileStorage() would make it now
    return [FOLDER + "/" + segment_name(n) for n in FileStorage(FOLDER).segments()]


def new_board(opts):
    return SimBoard(FileStorage(FOLDER), segment_records=opts["segment_records"] or None)


def play(board, opts):
    with open(opts["scenario"]) as f:
        run(commands(f, opts["scenario"]), board)


class Uncut:
    """The whole shoe without a cut: its op log, the durable seq at each op, and what it journalled."""

    def __init__(self, opts):
        flash = RamFlash(opts["blocks"])
        vfs.VfsLfs2.mkfs(flash, progsize=PROGSIZE)
        self.base = bytearray(flash.data)  # the formatted chip the shoe is first powered on with
        self.log = OpLog()
        self.durable = array("I")  # at op k: the last seq whose append had returned when op k began
        self.clock = array("I")  # at op k: the board's clock, ms
        mount(flash)
        erases, programs, programmed = flash.erases, flash.programs, flash.programmed
        seq = [0]
        board = None

        def note(index):
            if board and board.shell:
                seq[0] = board.shell.journal.seq
            self.durable.append(seq[0])
            self.clock.append(board.clock.now if board else 0)

        flash.log = self.log
        flash.before_op = note  # from the first op on: making the journal's folder is one
        board = new_board(opts)
        try:
            play(board, opts)
            last = board.shell.journal.seq
        finally:
            board.close()
        flash.before_op = None
        self.final = bytearray(flash.data)
        self.cards = board.shoe.out
        self.erases = flash.erases - erases
        self.programs = flash.programs - programs
        self.programmed = flash.programmed - programmed
        self.frames = bytearray()  # every record's frame, seq 1 first
        for path in journal_files():
            data = read(path)
            seq_before = fmt.parse_header(data)[9]
            if len(self.frames) > seq_before * FRAME:  # a torn tail: what the next segment does not continue
                self.frames = self.frames[:seq_before * FRAME]
            self.frames.extend(memoryview(data)[HEADER:HEADER + intact_frames(data, seq_before, b"") * FRAME])
        os.umount(MOUNT)
        self.records = len(self.frames) // FRAME
        if len(self.durable) != len(self.log) or self.records != last:
            raise AssertionError("the uncut run: %d ops, %d durable seqs noted; %d records read, %d written" % (
                len(self.log), len(self.durable), self.records, last))
        # The lasting state after each record, from a replay of them all: what a recovery must restore.
        ctl = Controller()
        self.snapshots = bytearray(SNAP * (self.records + 1))
        ctl.snapshot(self.snapshot(0))
        for s in range(1, self.records + 1):
            ctl.restore(memoryview(self.frames)[(s - 1) * FRAME + layout.BODY_AT:(s - 1) * FRAME + layout.LINK_AT])
            ctl.snapshot(self.snapshot(s))

    def snapshot(self, seq):
        return memoryview(self.snapshots)[seq * SNAP:(seq + 1) * SNAP]

    def release(self, seq):
        """The release under way after record seq: the last of the snapshot's fixed fields."""
        return struct.unpack_from(layout.SNAPSHOT, self.snapshots, seq * SNAP)[-1]


def intact_frames(data, seq, known):
    """How many whole frames after the header of data carry sync, length, CRC and the next seq: the test's own
    reading of a segment's valid end (the journal's, with HMAC, is under test). Frames equal to known's (the
    uncut run's, all intact) are skipped by bisection, a few compares: boot time is the firmware's to spend."""
    low, high = 0, min((len(data) - HEADER) // FRAME, len(known) // FRAME - seq)
    while low < high:
        mid = (low + high + 1) // 2
        if memoryview(data)[HEADER:HEADER + mid * FRAME] == memoryview(known)[seq * FRAME:(seq + mid) * FRAME]:
            low = mid
        else:
            high = mid - 1
    n = low
    offset = HEADER + n * FRAME
    while offset + FRAME <= len(data):
        frame = memoryview(data)[offset:offset + FRAME]
        if (frame[0] != layout.SYNC or frame[1] != layout.BODY_SIZE
                or crc32(frame[:layout.CRC_AT]) != struct.unpack_from("<I", frame, layout.CRC_AT)[0]
                or struct.unpack_from("<I", frame, layout.SEQ_AT)[0] != seq + n + 1):
            break
        n += 1
        offset += FRAME
    return n


class Tally:
    def __init__(self):
        self.checked = 0
        self.failures = 0
        self.kept = 0  # cuts after which the record being written was already whole on flash
        self.uncertain = 0  # cuts during a release, reported as such by the recovery record
        self.copied = 0


def recovered(uncut, k, tally):
    """Power a fresh board on the image of cut k, mounted, and check what it made of it: None if right, else why."""
    durable = uncut.durable[k]
    # Before: where the image's journal ends, as the test reads it.
    files = journal_files()
    end = torn = 0  # the last record on flash; bytes after it in its segment
    if files:  # none when the power failed before the first segment was whole
        last = read(files[-1])
        seq_before = fmt.parse_header(last)[9]
        intact = intact_frames(last, seq_before, uncut.frames)
        end = seq_before + intact
        torn = len(last) - HEADER - intact * FRAME
    if end != durable and end != durable + 1:
        return "the image holds records to seq %d, the run had made seq %d durable" % (end, durable)
    board = SimBoard(FileStorage(FOLDER))
    board.clock.now = uncut.clock[k] + POWER_BACK_MS
    try:
        board.power_on()
        broken = board.shell.journal.broken
        state = bytearray(SNAP)
        board.shell.ctl.snapshot(state)
    finally:
        board.power_cut()  # closes the journal's file now, not in a finaliser once another image is mounted
    if broken:
        return "the journal is left broken after power-up"
    # After: every record up to the end, byte for byte the uncut run's, then a boot record and a recovery record.
    frames = bytearray()
    for path in journal_files():
        data = read(path)
        seq = fmt.parse_header(data)[9]
        if seq * FRAME > len(frames):
            return "%s starts after seq %d; the journal before it ends at seq %d" % (path, seq, len(frames) // FRAME)
        if len(frames) > seq * FRAME:
            frames = frames[:seq * FRAME]
        frames.extend(memoryview(data)[HEADER:HEADER + intact_frames(data, seq, uncut.frames) * FRAME])
    if frames[:end * FRAME] != uncut.frames[:end * FRAME]:
        for s in range(1, end + 1):
            if frames[(s - 1) * FRAME:s * FRAME] != uncut.frames[(s - 1) * FRAME:s * FRAME]:
                return "record seq %d is missing or differs from the uncut run's" % s
    tail = [struct.unpack(layout.BODY, frames[at + layout.BODY_AT:at + layout.LINK_AT])
            for at in range(end * FRAME, len(frames), FRAME)]
    uncertain = uncut.release(end)
    want = [R_BOOT] + ([R_RECOVERY] if torn or uncertain else [])
    if [t[0] for t in tail] != want:
        return "after seq %d the journal holds record types %s, not %s (%d bytes torn, release %d under way)" % (
            end, [t[0] for t in tail], want, torn, uncertain)
    if len(want) == 2 and (tail[1][10] != min(torn, 65535) or tail[1][9] != uncertain):
        return "the recovery record says %d bytes cut and release %d; the image had %d and %d" % (
            tail[1][10], tail[1][9], torn, uncertain)
    ctl = Controller()
    ctl.load_snapshot(uncut.snapshot(end))
    for at in range(end * FRAME, len(frames), FRAME):
        ctl.restore(memoryview(frames)[at + layout.BODY_AT:at + layout.LINK_AT])
    expected = bytearray(SNAP)
    ctl.snapshot(expected)
    if expected != state:
        return "the controller recovered %s; the journal's records give %s" % (bytes(state), bytes(expected))
    tally.kept += end > durable
    tally.uncertain += uncertain != 0
    return None


def copy_out(folder):
    try:
        os.mkdir(folder)
    except OSError:
        pass  # already there
    for path in journal_files():
        with open(folder + "/" + path.rsplit("/", 1)[1], "wb") as f:
            f.write(read(path))


def check_cut(uncut, chip, k, part, opts, tally):
    """The image as the power failed at op k (with `part` of its bytes done), mounted and recovered."""
    durable = uncut.durable[k]
    failure = None
    mounted = False
    try:
        mount(chip)
        mounted = True
        failure = recovered(uncut, k, tally)
        if opts["out"] and (k % opts["sample"] == 0 or k == len(uncut.log) - 1):
            copy_out("%s/cut%06d%s" % (opts["out"], k, "" if part is None else "-torn"))
            tally.copied += 1
    except Exception as e:  # any exception out of a recovery is a failure to report, with its traceback
        text = io.StringIO()
        sys.print_exception(e, text)
        failure = "exception: " + text.getvalue()
    finally:
        if mounted:
            os.umount(MOUNT)
    tally.checked += 1
    if failure:
        tally.failures += 1
        log = uncut.log
        print("FAIL cut %d%s: %s %d bytes at block %d offset %d, durable seq %d: %s" % (
            k, "" if part is None else " torn (%d bytes)" % part, "program" if log.kinds[k] == PROGRAM else "erase",
            log.lengths[k], log.blocks[k], log.offsets[k], durable, failure))


def journal_contents(flash):
    mount(flash)
    try:
        return [(path, read(path)) for path in journal_files()]
    finally:
        os.umount(MOUNT)


def spot_check(uncut, opts, k, part, tally):
    """The power really cut by the chip at op k of a second run: the same ops up to k, and the same journal on
    the chip as the log's replay leaves. Not the same bytes: littlefs stamps files with the host's clock."""
    flash = RamFlash(opts["blocks"])
    flash.data[:] = uncut.base
    flash.log = OpLog()
    flash.cut_at = k
    flash.torn = part or 0
    mount(flash)
    board = new_board(opts)
    cut = False
    try:
        play(board, opts)
    except PowerCut:
        cut = True
    try:
        board.power_cut()  # the firmware is gone; its file is closed on a dead chip, which changes nothing
    except OSError:
        pass
    os.umount(MOUNT)
    flash.power_on()
    replayed = RamFlash(opts["blocks"])
    replayed.data[:] = uncut.base
    for i in range(k):
        replayed.replay(uncut.log, i)
    if part:
        replayed.replay(uncut.log, k, part)
    log, ops = uncut.log, flash.log
    same = len(ops) == k and all(ops.kinds[i] == log.kinds[i] and ops.blocks[i] == log.blocks[i]
                                 and ops.offsets[i] == log.offsets[i] and ops.lengths[i] == log.lengths[i]
                                 for i in range(k))
    tally.checked += 1
    if not cut or not same or journal_contents(flash) != journal_contents(replayed):
        tally.failures += 1
        print("FAIL spot check at op %d: %s" % (k, "no cut" if not cut else "the ops before it differ"
                                                 if not same else "the journal differs from the replay's"))


def main(argv):
    opts = options(argv)
    started = time.ticks_ms()
    uncut = Uncut(opts)
    log = uncut.log
    index, count = opts["shard"]
    image = RamFlash(opts["blocks"])  # the chip as it was when op k began
    image.data[:] = uncut.base
    chip = RamFlash(opts["blocks"])  # a copy of it, mounted and recovered
    tally = Tally()
    for k in range(len(log)):
        if k % count == index:
            for part in (None, log.lengths[k] // 2):
                chip.copy_from(image)
                if part is not None:
                    chip.replay(log, k, part)
                check_cut(uncut, chip, k, part, opts, tally)
        image.replay(log, k)
    if image.data != uncut.final:
        tally.failures += 1
        print("FAIL the whole log replayed does not leave the chip as the uncut run did")
    if index == 0:
        erase = len(log) // 3
        while log.kinds[erase] != ERASE:
            erase += 1
        program = 2 * len(log) // 3
        while log.kinds[program] != PROGRAM:
            program += 1
        for k, part in ((erase, log.lengths[erase] // 2), (program, log.lengths[program] // 2), (len(log) // 2, None)):
            spot_check(uncut, opts, k, part, tally)
    print("uncut run: %d programs, %d erases, %d records for %d cards; %d bytes programmed; %d blocks of %d "
          "bytes, %s records a segment" % (uncut.programs, uncut.erases, uncut.records, uncut.cards,
                                           uncut.programmed, opts["blocks"], image.block_size,
                                           opts["segment_records"] or fmt.SEGMENT_RECORDS))
    print("cuts checked: %d, failures: %d (shard %d/%d: %d ops; record being written kept %d, release "
          "reported uncertain %d; %d journals copied out; %d ms)" % (
              tally.checked, tally.failures, index, count, len(log), tally.kept, tally.uncertain, tally.copied,
              time.ticks_diff(time.ticks_ms(), started)))
    print("erases per card: %.2f" % (uncut.erases / uncut.cards))
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
