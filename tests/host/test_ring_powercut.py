"""J-DURABLE through the journal's write-ahead ring (firmware/ring.py): a whole chemin de fer shoe on a ring of 4
sectors (it wraps round), drained a block at a time into an archive that tears the write under way, and the power
cut at every program and erase of the ring and at every write of a drain, before each and half-way through it. After
each cut a fresh board recovers, stops in order (the ring drained whole), and the archive must hold every durable
record byte for byte, verify intact, and report a release whose outcome is unknown. The same sweep on the VM, with
littlefs as the archive: tests/vm/ring_powercut.py (test_ring_powercut_vm.py).
"""

import os
from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage, PowerCut
from boards.sim.ramflash import RamFlash
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import journal as fmt
from firmware import ring as layout
from firmware.devkey import DEVELOPMENT_KEY
from firmware.mac import Key
from firmware.records import BOOT_POWER, FAULT_JOURNAL_FULL, R_ALARM, R_BOOT, R_RECOVERY, R_RELEASE
from firmware.ring import RingStorage
from firmware.storage import FileStorage
from sabot.journalfile import CODE, CONDITION, TYPE, Reader, Segment
from sabot.rules import Rules
from tests.conftest import SCENARIOS

SHOE = (SCENARIOS / "full_shoe_chemin_de_fer.txt").read_text()
SECTORS = 4  # 16 KB: a shoe's 19 KB of entries go round it
SEGMENTS = {"short segments": 16, "whole segments": None, "drained in pieces": None}  # headers through the ring
# thirty times a shoe; or files that grow past littlefs blocks, the drains splitting the frame each block ends in; or
# those drained as a loop drains them (firmware/checkpoint_hook.py), a few entries a pass, the file open from one
# pass to the next, records appended meanwhile
PIECES = 2  # the pieces of housekeeping a step between coups is followed by: a drain goes on across coups
POWER_BACK_MS = 1000


class Logged:
    """Every ring program and erase and every archive create and write, in the order they happened, each with the
    journal's durable end before it: the last seq whose append had returned."""

    def __init__(self):
        self.ops = []
        self.durable = []
        self.board = None

    def add(self, op):
        shell = self.board.shell if self.board else None
        self.durable.append(shell.journal.seq if shell else 0)
        self.ops.append(op)

    def program(self, block, offset, buf):
        self.add(("program", block * layout.SECTOR + offset, bytes(buf)))

    def erase(self, block, size):
        self.add(("erase", block * layout.SECTOR, size))


class Archive(MemoryStorage):
    """A torn-write archive whose creates and writes go into the shared log."""

    def __init__(self, log):
        super().__init__()
        self.log = log

    def create(self, segment, header):
        super().create(segment, header)
        self.log.add(("create", segment, bytes(header)))

    def appender(self, segment):
        stream = super().appender(segment)
        write = stream.write

        def logged(data):
            write(data)
            self.log.add(("write", segment, bytes(data)))
            return len(data)

        stream.write = logged
        return stream


class PieceBoard(SimBoard):
    """A board whose shell tidies its ring PIECES operations at a time (Ring.tidy(True)), as a board's loop does."""

    def power_on(self, cause=BOOT_POWER):
        super().power_on(cause)
        journal = self.shell.journal

        def pieces():
            for _ in range(PIECES):
                if not journal.tidy(True):
                    return

        self.shell._tidy = pieces


def _board(flash, log, segment_records, pieces=False):
    board = (PieceBoard if pieces else SimBoard)(RingStorage(flash, Archive(log)), segment_records=segment_records)
    log.board = board
    return board


@pytest.fixture(scope="module", params=sorted(SEGMENTS))
def reference(request):
    segment_records = SEGMENTS[request.param]
    log = Logged()
    flash = RamFlash(SECTORS)
    flash.log = log
    pieces = request.param == "drained in pieces"
    board = _board(flash, log, segment_records, pieces)
    run(parse(SHOE), board)
    written = board.shell.journal.seq
    board.close()  # an orderly stop: the last drain, in the sweep too
    archive = board.storage.archive
    _, records = _records(archive.files)
    frames = {r.seq: bytes(r.segment.data[r.offset:r.offset + layout.FRAME_SIZE]) for r in records}
    assert sorted(frames) == list(range(1, written + 1))
    return log.ops, log.durable, frames, board.clock.now, written, segment_records, pieces


def _torn(page):
    """Where a program cut half-way through its entry stops: the middle of the page image's bytes that are not
    0xFF."""
    written = [i for i, byte in enumerate(page) if byte != 0xFF]
    return (written[0] + written[-1] + 1) // 2


class Image:
    """The ring and the archive as the ops so far left them."""

    def __init__(self):
        self.ring = bytearray(b"\xff" * SECTORS * layout.SECTOR)
        self.files = {}

    def apply(self, op, part=None):
        kind, where, data = op
        if kind == "program":  # a page's image: its 0xFF bytes leave the flash as it is
            for i in range(len(data) if part is None else part):
                if data[i] != 0xFF:
                    self.ring[where + i] = data[i]
        elif kind == "erase":
            size = data if part is None else part
            self.ring[where:where + size] = b"\xff" * size
        elif kind == "create":
            if part is None:
                self.files[where] = bytearray(data)
        else:
            self.files[where] += data if part is None else data[:part]

    def copy(self):
        image = Image()
        image.ring[:] = self.ring
        image.files = {n: bytearray(d) for n, d in self.files.items()}
        return image


def _power_on(image, now, segment_records):
    """A fresh board on the image, then an orderly stop: what the archive holds after it."""
    flash = RamFlash(SECTORS)
    flash.data[:] = image.ring
    archive = MemoryStorage()
    archive.files = image.files
    board = SimBoard(RingStorage(flash, archive), segment_records=segment_records)
    board.clock.now = now + POWER_BACK_MS
    board.power_on()
    broken = board.shell.journal.broken
    board.close()
    return broken, archive.files


def _records(files, key=DEVELOPMENT_KEY):
    reader = Reader([], key)
    records = []
    for n, data in sorted(files.items()):
        records += list(reader.read(Segment(Path("%08d.sbj" % n), bytes(data))))
    reader.finish()
    return reader, records


@pytest.mark.req("J-DURABLE", "J-EVERY", "J-TAMPER")
def test_a_cut_at_every_ring_program_erase_and_drain_write_loses_no_durable_record(reference):
    ops, durables, frames, now, written, segment_records, _ = reference
    image = Image()
    programmed = False  # the ring holds an entry
    cuts = uncertain = failures = 0
    kinds = {"program": 0, "erase": 0, "create": 0, "write": 0}
    for op, durable in zip(ops, durables):
        last_type = frames[durable][layout.BODY_AT] if durable else None
        kinds[op[0]] += 1
        size = op[2] if op[0] == "erase" else _torn(op[2]) * 2 if op[0] == "program" else len(op[2])
        for part in (0, size // 2) if op[0] != "create" else (0,):
            cut = image.copy()
            if part:
                cut.apply(op, part)
            broken, files = _power_on(cut, now, segment_records)
            reader, records = _records(files)
            assert not broken
            assert not [f.message for f in reader.findings if f.id == "J-TAMPER"]
            assert reader.torn == 0
            by_seq = {r.seq: r for r in records}
            assert set(range(1, durable + 1)) <= set(by_seq)  # no durable record lost, each as written
            assert all(bytes(r.segment.data[r.offset:r.offset + layout.FRAME_SIZE]) == frames[r.seq]
                       for r in records if r.seq <= durable)
            tail = [r for r in records if r.seq > durable]
            released = last_type == R_RELEASE
            # Its entry torn (after the first, the journal's first header): the record lost, said so at power-up.
            torn = op[0] == "program" and part > 0 and programmed
            want = [R_BOOT] + [R_RECOVERY] * (released or torn) + [R_ALARM] * (torn and not released)
            if [r.fields[TYPE] for r in tail] != want or len(tail) > 1 and (
                    released != (tail[1].fields[CONDITION] != 0) or torn != (tail[1].fields[CODE] != 0)):
                failures += 1
            rules = Rules()
            for r in records:
                rules.feed(r.fields)
            assert any(f.id == "J-DURABLE" for f in rules.findings) == (released or torn)  # said so, never hidden
            assert not [f for f in rules.findings if f.id == "S-FORCED"]  # the alarm the verifier wants
            uncertain += released
            cuts += 1
        image.apply(op)
        programmed = programmed or op[0] == "program"
    print("\nring power cuts: %d checked over %d ring programs, %d ring erases, %d archive creates and %d archive "
          "writes (drains) of a shoe of %d records; %d failures, %d releases reported uncertain" % (
              cuts, kinds["program"], kinds["erase"], kinds["create"], kinds["write"], written, failures, uncertain))
    assert failures == 0
    drained = sum(len(op[2]) for op in ops if op[0] == "write")
    assert durables[-1] == written and drained == written * layout.FRAME_SIZE and uncertain > 300  # each drained once
    if segment_records:
        assert kinds["erase"] > SECTORS and kinds["create"] > 30  # the ring went round, headers through it
    else:
        assert kinds["write"] >= written + 3  # frames drained in two parts, where a drain's littlefs blocks end


def test_the_rebuilt_image_is_what_a_live_cut_leaves(reference):
    """The replay above stands for real cuts: the chip cut for real at sample ops leaves the same ring."""
    ops, segment_records, pieces = reference[0], reference[5], reference[6]
    ring_ops = [i for i, op in enumerate(ops) if op[0] in ("program", "erase")]
    for n in ring_ops[::97]:
        flash = RamFlash(SECTORS)
        flash.cut_at = ring_ops.index(n)
        log = Logged()
        flash.log = log
        board = _board(flash, log, segment_records, pieces)
        with pytest.raises(PowerCut):
            run(parse(SHOE), board)
        assert not board.gate.is_open  # S-FAILSAFE: the cut went through the shell's lock
        image = Image()
        for op in ops[:n]:
            image.apply(op)
        assert log.ops == ops[:n] and flash.data == image.ring


@pytest.mark.req("J-DURABLE")
def test_a_full_archive_locks_the_shoe_and_the_ring_keeps_every_record():
    """The archive refuses the drains: the ring holds them, never erased, until the shoe faults before a coup."""
    flash = RamFlash(16)
    archive = MemoryStorage(capacity=12000)
    board = SimBoard(RingStorage(flash, archive))
    run(parse(SHOE), board)
    shell = board.shell
    assert shell.ctl.raised(FAULT_JOURNAL_FULL) and not board.gate.is_open
    assert sum(1 for _ in shell.journal.storage.undrained()) > 0
    archive.capacity = 1 << 20  # the technician makes room: everything the ring held reaches the archive
    board.close()
    _, records = _records(archive.files)
    assert [r.seq for r in records] == list(range(1, shell.journal.seq + 1))


@pytest.mark.req("J-DURABLE")
def test_a_ring_the_archive_cannot_drain_faults_the_shoe_and_overwrites_nothing():
    """Every drain fails (a broken archive that still reports room): as the ring fills, its room falls under the
    reserve and the shoe refuses the next coup, locked with "journal flash nearly full", no sector holding an
    undrained record erased; once the archive works again, no record is missing."""
    flash = RamFlash(4)
    archive = MemoryStorage()
    archive.failing = True
    board = SimBoard(RingStorage(flash, archive))
    run(parse(SHOE), board)
    journal = board.shell.journal
    assert board.shell.ctl.raised(FAULT_JOURNAL_FULL) and not board.gate.is_open and not journal.broken
    assert 30 < journal.seq < 600 and flash.erases <= 4  # each sector erased once: nothing undrained erased again
    archive.failing = False
    journal.close()
    _, records = _records(archive.files)
    assert [r.seq for r in records] == list(range(1, journal.seq + 1))


@pytest.mark.req("J-DURABLE")
def test_a_full_ring_refuses_the_write_rather_than_erase_an_undrained_entry():
    """The archive refuses every drain: the journal's records fill the ring up to the sector kept as the gap before
    its oldest undrained one, then the write is refused (ENOSPC), nothing erased twice; once the archive works,
    every record reaches it."""
    flash = RamFlash(4)
    archive = MemoryStorage()
    archive.failing = True
    board = SimBoard(RingStorage(flash, archive))
    board.power_on()
    journal = board.shell.journal
    body = bytearray(layout.BODY_SIZE)
    with pytest.raises(OSError) as refused:
        for code in range(100000):
            fmt.pack_body(body, R_BOOT, 0, 0, 0, 0, 0, 0, 0, code & 0xFFFF)
            journal.append(body)
    ring = journal.storage
    assert refused.value.args[0] == 28 and journal.broken
    assert ring.pos == 3 * layout.SECTOR and flash.erases == 3  # sectors 0 to 2 written, the last one the gap
    assert journal.seq * (layout.DELTA_FIXED + 2) > 2 * layout.SECTOR  # small entries: records by the thousand
    archive.failing = False
    journal.close()
    _, records = _records(archive.files)
    assert [r.seq for r in records] == list(range(1, journal.seq + 1))


@pytest.mark.req("J-EVERY", "H-SIM")
@pytest.mark.parametrize("scenario", sorted(p.name for p in SCENARIOS.glob("*.txt")))
def test_the_ring_drains_the_very_journal_the_files_hold(scenario, tmp_path):
    """Through the ring or straight into files, a scenario's segments are the same bytes: `log verify`, `show`,
    export and the report read them as before."""
    steps = parse((SCENARIOS / scenario).read_text())
    direct = SimBoard(FileStorage(str(tmp_path / "files")))
    run(steps, direct)
    direct.close()
    archive = MemoryStorage()
    ringed = SimBoard(RingStorage(RamFlash(SECTORS), archive))
    run(steps, ringed)
    ringed.close()
    files = sorted((tmp_path / "files").iterdir())
    assert [int(p.stem) for p in files] == sorted(archive.files)
    assert all(p.read_bytes() == archive.files[int(p.stem)] for p in files)


@pytest.mark.req("J-EVERY", "J-TAMPER")
def test_a_journal_kept_aside_takes_the_rings_entries_with_it_and_the_next_begins_empty():
    """sabot number set (or an element replaced) keeps the shoe's journal aside whole, and the shoe restarted begins
    one of its own (firmware/remote.py, issue 22): what the ring held of the first reaches it, and none of it is
    taken into the second, whose headers name the new key."""
    flash = RamFlash(SECTORS)
    first = MemoryStorage()
    board = SimBoard(RingStorage(flash, first))
    run(parse(SHOE), board)
    written = board.shell.journal.seq
    ring = board.shell.journal.storage
    assert sum(1 for _ in ring.undrained()) > 0
    ring.set_aside()  # then the folder moved: an empty archive for the next journal
    assert [r.seq for r in _records(first.files)[1]] == list(range(1, written + 1))
    key = bytes(range(32))
    second = MemoryStorage()
    again = SimBoard(RingStorage(flash, second))
    again.key = Key(key)  # another element's id in its headers
    again.power_on()
    again.close()
    assert [(r.seq, r.fields[TYPE]) for r in _records(second.files, key)[1]] == [(1, R_BOOT)]


def test_recovery_reads_the_ring_not_the_journal():
    """Boot work is bounded by the ring's size: however long the journal, power-up reads each page of the ring four
    times at most (each sector's first entries, the last sector's, the undrained ones for each of the Journal's
    questions)."""
    pages = SECTORS * layout.SECTOR // layout.PAGE
    for shoes in (1, 3):
        archive = MemoryStorage(1 << 22)
        flash = RamFlash(SECTORS)
        board = SimBoard(RingStorage(flash, archive))
        text = "\n".join(SHOE.replace("seance table=3", "seance table=%d" % (3 + i)) for i in range(shoes))
        run(parse(text), board)
        before = flash.reads  # the power fails: what the ring holds undrained stays there
        SimBoard(RingStorage(flash, archive)).power_on()
        reads = flash.reads - before
        assert 0 < reads <= 4 * pages
    assert sum(len(data) for data in archive.files.values()) > 4 * SECTORS * layout.SECTOR  # the journal, not the ring


DOUBLE_CUTS = int(os.environ.get("SABOT_DOUBLE_CUTS", "0"))  # first cuts to sweep; 0: a sample CI runs in seconds
DOUBLE_SAMPLE = 17  # CI's sample: 17 first cuts spread over the shoe, each with a second cut at RECOVERY_SAMPLE ops
RECOVERY_SAMPLE = 24  # of its recovery, spread and shifted from one first cut to the next (a recovery that drains
# the ring has some 200 ops: each of them, after every sampled first cut, took make test three minutes)


def _cuts(op):
    """Where a cut may land in an op: before it, a byte into what it writes, half-way through it."""
    kind, _, data = op
    if kind == "create":
        return (0,)
    if kind == "erase":
        return 0, data // 2
    if kind == "write":
        return tuple(sorted({0, 1, len(data) // 2}))
    first = next(i for i, byte in enumerate(data) if byte != 0xFF)
    return tuple(sorted({0, first + 1, _torn(data)}))


def _logged_power_on(image, now, segment_records):
    """The power back on the image: the recovery's ring programs and erases and archive writes, in order."""
    log = Logged()
    flash = RamFlash(SECTORS)
    flash.data[:] = image.ring
    flash.log = log
    archive = Archive(log)
    archive.files = {n: bytearray(d) for n, d in image.files.items()}
    board = SimBoard(RingStorage(flash, archive), segment_records=segment_records)
    board.clock.now = now + POWER_BACK_MS
    board.power_on()
    return log.ops


@pytest.mark.req("J-DURABLE", "J-TAMPER")
def test_a_second_cut_during_recovery_leaves_no_tamper_finding(reference):
    """Issue 26: the power cut once (at every op of the shoe, before it and half-way through it), then again at
    every op of the recovery that follows (before it and half-way): the third power-up's journal loses no durable
    record and the verifier finds no tampering in it. SABOT_DOUBLE_CUTS=N sweeps N first cuts, each with a second cut
    at every op of its recovery, instead of CI's sample (N >= 10000: every one of them)."""
    ops, durables, frames, now, written, segment_records, _ = reference
    image = Image()
    runs = failures = 0
    step = 1 if DOUBLE_CUTS >= len(ops) else max(1, len(ops) // (DOUBLE_CUTS or DOUBLE_SAMPLE))
    for k, (op, durable) in enumerate(zip(ops, durables)):
        for part in _cuts(op) if k % step == 0 else ():
            first = image.copy()
            if part:
                first.apply(op, part)
            recovery = _logged_power_on(first, now, segment_records)
            second = first.copy()
            again_step = 1 if DOUBLE_CUTS else max(1, len(recovery) // RECOVERY_SAMPLE)
            for j, again in enumerate(recovery):
                for again_part in _cuts(again) if (j + k) % again_step == 0 else ():
                    cut = second.copy()
                    if again_part:
                        cut.apply(again, again_part)
                    broken, files = _power_on(cut, now + POWER_BACK_MS, segment_records)
                    reader, records = _records(files)
                    tamper = [f.message for f in reader.findings if f.id == "J-TAMPER"]
                    by_seq = {r.seq: r for r in records}
                    lost = [s for s in range(1, durable + 1) if s not in by_seq or bytes(
                        by_seq[s].segment.data[by_seq[s].offset:by_seq[s].offset + layout.FRAME_SIZE]) != frames[s]]
                    if broken or tamper or lost or reader.torn:
                        failures += 1
                        if failures < 4:
                            print("op %d (%s) part %s, recovery op %s part %s: broken %s, %s, lost %s, torn %d" % (
                                k, op[0], part, again[0], again_part, broken, tamper, lost[:3], reader.torn))
                    runs += 1
                second.apply(again)
        image.apply(op)
    print("\ndouble power cuts: %d runs, %d failed" % (runs, failures))
    assert failures == 0 and runs > 300  # the sample is no sweep of nothing
