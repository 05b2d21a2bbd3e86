"""Power cut at every byte offset of a whole chemin de fer shoe's journal writes (J-DURABLE, J-EVERY).

Two flashes: one that tears the write under way (the bytes before the cut stay), one that loses everything
since the last flush (littlefs's behaviour; the real littlefs is tested on the VM in test_littlefs_powercut).
After every cut, recovery must succeed, every durable record stay intact, the verifier pass the recovered
journal, and a release whose outcome is unknown be reported, never hidden.
"""

import os
import struct
from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage, PowerCut
from boards.sim.ramflash import RamFlash
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import cards
from firmware import layout as fmt
from firmware.devkey import DEVELOPMENT_KEY
from firmware.events import EV_CARD, EV_NO_MORE_BETS
from firmware.records import ALARM_FORCED, R_ALARM, R_BOOT, R_RECOVERY, R_RELEASE
from firmware.ring import RingStorage
from firmware.ring_entry import PAGE
from sabot.journalfile import CODE, CONDITION, TYPE, Reader, Segment
from sabot.rules import Rules
from tests.conftest import SCENARIOS

SHOE = (SCENARIOS / "full_shoe_chemin_de_fer.txt").read_text()
SEGMENT_RECORDS = 32  # many segments, so cuts also land in headers and rotations, and recovery stays quick


def _seq(frame):
    return struct.unpack_from("<I", frame, fmt.SEQ_AT)[0]


class Recording(MemoryStorage):
    """Keeps every create and write in order, so any cut can be rebuilt without playing the shoe again."""

    def __init__(self):
        super().__init__()
        self.ops = []  # (kind, segment, bytes)

    def create(self, segment, header):
        super().create(segment, header)
        self.ops.append(("create", segment, bytes(header)))

    def appender(self, segment):
        stream = super().appender(segment)
        write = stream.write

        def logged(data):
            write(data)
            self.ops.append(("write", segment, bytes(data)))
            return len(data)

        stream.write = logged
        return stream


@pytest.fixture(scope="module")
def reference():
    storage = Recording()
    board = SimBoard(storage, segment_records=SEGMENT_RECORDS)
    run(parse(SHOE), board)
    frames = {}  # seq -> frame bytes, as the uncut run wrote them
    for kind, _, data in storage.ops:
        if kind == "write":
            frames[_seq(data)] = data
    return storage.ops, frames, board.clock.now


def _segments(files):
    return [Segment(Path("%08d.sbj" % n), bytes(data)) for n, data in sorted(files.items())]


def _recover(files, now):
    """Power on a fresh board on what the flash held; the RTC kept running through the cut."""
    storage = MemoryStorage()
    storage.files = {n: bytearray(data) for n, data in files.items()}
    board = SimBoard(storage, segment_records=SEGMENT_RECORDS)
    board.clock.now = now + 1000
    board.power_on()
    board.power_cut()
    return storage.files


def _check_recovered(recovered, durable, frames, reader):
    """What must hold after any cut; returns the recovery record, if any, and the verifier's findings."""
    records = []
    new = _segments(recovered)[len(reader.segments_read):]
    for segment in new:
        records += list(reader.read(segment))
    reader.finish()
    tamper = [f.message for f in reader.findings if f.id == "J-TAMPER"]
    assert not tamper, tamper
    seqs = {r.seq for r in records} | reader.seqs_read
    assert set(range(1, durable + 1)) <= seqs  # no durable record lost
    for r in records:
        if r.seq <= durable:  # and each of them byte for byte what was written
            assert bytes(r.segment.data[r.offset:r.offset + fmt.FRAME_SIZE]) == frames[r.seq]
    boot = max(i for i, r in enumerate(records) if r.fields[TYPE] == R_BOOT)
    types = [r.fields[TYPE] for r in records[boot:]]
    recovery = records[boot + 1] if types[1:2] == [R_RECOVERY] else None
    forced = recovery is not None and recovery.fields[CODE] != 0 and recovery.fields[CONDITION] == 0
    # A record torn with the gate locked may have been a forced card: the alarm follows (S-FORCED).
    assert types == [R_BOOT] + [R_RECOVERY] * (recovery is not None) + [R_ALARM] * forced, types
    assert not forced or records[-1].fields[CODE] == ALARM_FORCED
    rules = Rules()
    if new[0].number != 1:  # the rules go on from the state the first segment read states
        rules.resume(new[0].snapshot)
    for r in records:
        rules.feed(r.fields)
    rules.finish(records[-1].seq)
    assert not [f.message for f in rules.findings if f.id == "S-FORCED"]  # the alarm is the one the verifier wants
    return recovery, [f.message for f in rules.findings if f.id == "J-DURABLE"]


class _Prefix:
    """The verifier's progress over the complete segments every cut after them shares."""

    def __init__(self):
        self.reader = Reader([], DEVELOPMENT_KEY)
        self.reader.segments_read = []
        self.reader.seqs_read = set()

    def advance(self, segment):
        for record in self.reader.read(segment):
            self.reader.seqs_read.add(record.seq)
        self.reader.segments_read.append(segment)

    def fork(self):
        forked = self.reader.checkpoint()
        forked.seqs_read = set(self.reader.seqs_read)
        forked.segments_read = list(self.reader.segments_read)
        return forked


@pytest.mark.req("J-DURABLE", "J-EVERY", "J-TAMPER")
def test_a_cut_at_every_byte_offset_of_a_whole_shoe_loses_no_durable_record(reference):
    ops, frames, now = reference
    files = {}  # the flash as the ops so far left it
    prefix = _Prefix()  # complete segments before the one being written, checked once
    durable = 0  # the last seq whose frame is whole on flash
    last_type = None  # the type of that record
    cuts = uncertain = 0
    for kind, segment, data in ops:
        if kind == "create":
            cut_points = [0]  # a create is a rename: all or nothing
        else:
            cut_points = range(len(data))
        for kept in cut_points:
            torn = dict(files)
            if kind == "write" and kept:
                torn[segment] = files[segment] + data[:kept]
            recovery, findings = _check_recovered(_recover(torn, now), durable, frames, prefix.fork())
            released = last_type == R_RELEASE
            if released:
                uncertain += 1
            # A durable intent with no card after it: the release's outcome is unknown, and said so.
            assert (recovery is not None and recovery.fields[CONDITION] != 0) == released
            assert any("whether a card left is unknown" in m for m in findings) == released
            if kind == "write" and kept:
                assert recovery is not None and recovery.fields[CODE] == kept
                # The record the cut tore is lost: said as a finding, not only as the recovery's count (J-DURABLE).
                assert any("%d torn bytes cut at power-up" % kept in m for m in findings)
            cuts += 1
        if kind == "create":
            if segment - 1 in files:  # complete now: every later cut shares it
                prefix.advance(_segments({segment - 1: files[segment - 1]})[0])
            files[segment] = bytearray(data)
        else:
            files[segment] = files[segment] + data
            durable = _seq(data)
            last_type = data[fmt.BODY_AT]
    total = sum(len(d) for _, _, d in ops)
    print("\n%d cuts over %d bytes of journal writes, %d leaving a release uncertain" % (cuts, total, uncertain))
    assert cuts > 30000 and uncertain > 300  # a whole shoe: some 800 records of 38 bytes, each byte a cut


def test_the_rebuilt_flash_is_what_a_live_cut_leaves(reference):
    """The replay above stands for real cuts: a live cut at sample offsets leaves the same bytes."""
    ops, _, _ = reference
    total = sum(len(d) for _, _, d in ops)
    for budget in range(0, total, 997):
        storage = MemoryStorage()
        storage.budget = budget
        board = SimBoard(storage, segment_records=SEGMENT_RECORDS)
        with pytest.raises(PowerCut):
            run(parse(SHOE), board)
        assert not board.gate.is_open  # S-FAILSAFE: the exception went through the shell's lock
        flash, written = {}, 0
        for kind, segment, data in ops:
            room = budget - written
            if kind == "create" and room >= len(data):
                flash[segment] = bytearray(data)
            elif kind == "write":
                flash[segment] += data[:max(0, room)]
            written += len(data)
            if room <= len(data):
                break
        assert storage.files == flash, budget


@pytest.mark.req("J-DURABLE", "J-EVERY")
def test_a_flash_that_loses_what_was_not_flushed_recovers_at_every_write(reference):
    """Live cuts, one at each write of the shoe, on a flash that keeps only what was flushed."""
    ops, frames, now = reference
    written = 0
    cuts = 0
    for _, _, data in ops:
        storage = MemoryStorage()
        storage.buffered = True
        storage.budget = written + len(data) // 2  # the cut lands inside this write
        board = SimBoard(storage, segment_records=SEGMENT_RECORDS)
        with pytest.raises(PowerCut):
            run(parse(SHOE), board)
        written += len(data)
        kept = [_seq(bytes(d[at:at + fmt.FRAME_SIZE])) for d in storage.files.values()
                for at in range(fmt.HEADER_SIZE, len(d), fmt.FRAME_SIZE)]
        durable = max(kept, default=0)
        assert all(len(d) == fmt.HEADER_SIZE + fmt.FRAME_SIZE * ((len(d) - fmt.HEADER_SIZE) // fmt.FRAME_SIZE)
                   for d in storage.files.values())  # nothing torn: the unflushed frame is simply gone
        prefix = _Prefix()
        _check_recovered(_recover(storage.files, now), durable, frames, prefix.fork())
        cuts += 1
    assert cuts == len(ops)


def test_recovery_reads_only_the_last_segment():
    """Boot work does not grow with the journal: a board powered on a long journal reads one segment."""
    storage = MemoryStorage(1 << 22)
    board = SimBoard(storage, segment_records=64)
    run(parse(SHOE + "\n" + SHOE.replace("seance table=3", "seance table=4")), board)
    board.power_cut()
    reads = []
    reader = storage.reader

    def counted(segment):
        reads.append(segment)
        return reader(segment)

    storage.reader = counted
    last = storage.segments()[-1]
    board.power_on()
    assert last > 20 and reads == [last]
    assert board.shell.ctl.taille == 2 and board.shell.ctl.position == 308


DOUBLE_CUTS = os.environ.get("SABOT_DOUBLE_CUTS")  # set: every frame cut at every byte; CI cuts each a byte in


def _logged_recovery(files, now):
    """The power back on a torn flash: the recovery's creates and writes, in order."""
    storage = Recording()
    storage.files = {n: bytearray(data) for n, data in files.items()}
    board = SimBoard(storage, segment_records=SEGMENT_RECORDS)
    board.clock.now = now + 1000
    board.power_on()
    return storage.ops


@pytest.mark.req("J-TAMPER", "J-DURABLE")
def test_a_second_cut_during_recovery_of_a_torn_frame_leaves_no_tamper_finding(reference):
    """Issue 26: the power cut into a frame, then again before each of the recovery's writes, at each byte of them,
    and after the last: the journal of the third power-up holds every durable record and no tampering (the recovery's
    segment used to be created before its records: a cut between them left the torn bytes undeclared).
    SABOT_DOUBLE_CUTS=1 cuts every frame at each of its bytes, not only a byte in."""
    ops, frames, now = reference
    files = {}
    prefix = _Prefix()
    durable = 0
    runs = failures = 0
    for kind, segment, data in ops:
        for torn_at in (range(1, len(data)) if DOUBLE_CUTS else (1,)) if kind == "write" else ():
            torn = dict(files)
            torn[segment] = files[segment] + data[:torn_at]
            second = {n: bytearray(d) for n, d in torn.items()}
            for again_kind, again_segment, again_data in _logged_recovery(torn, now) + [("end", 0, b"")]:
                for kept in range(len(again_data)) if again_kind == "write" else (0,):
                    cut = {n: bytearray(d) for n, d in second.items()}
                    if kept:
                        cut[again_segment] += again_data[:kept]
                    try:
                        _check_recovered(_recover(cut, now + 1000), durable, frames, prefix.fork())
                    except AssertionError as e:
                        failures += 1
                        if failures < 4:
                            print("frame %d cut %d bytes in, recovery's %s of segment %d cut at %d: %s" % (
                                _seq(data), torn_at, again_kind, again_segment, kept, str(e)[:300]))
                    runs += 1
                if again_kind == "create":
                    second[again_segment] = bytearray(again_data)
                elif again_kind == "write":
                    second[again_segment] += again_data
        if kind == "create":
            if segment - 1 in files:
                prefix.advance(_segments({segment - 1: files[segment - 1]})[0])
            files[segment] = bytearray(data)
        else:
            files[segment] = files[segment] + data
            durable = _seq(data)
    print("\ndouble power cuts: %d runs, %d failed" % (runs, failures))
    assert failures == 0 and runs > 1000


def _forced_card_torn(storage, cut):
    """A coup under way, the gate locked between two cards, a card forced past it: the power fails half-way through
    its record (cut() sets the flash to). Then a fresh board on the same flash."""
    board = SimBoard(storage)
    run(parse("seance table=1\nshoe seed=3\nno_more_bets\ndraw 2\n"), board)
    cut()
    with pytest.raises(PowerCut):
        board.press(EV_CARD, cards.parse("7C"))
    return board.shell.journal.seq, board.clock.now


@pytest.mark.req("S-FORCED", "J-DURABLE")
@pytest.mark.parametrize("store", ["files", "ring"])
def test_a_forced_cards_record_torn_by_a_cut_leaves_the_shoe_in_alarm_at_power_up(store, tmp_path):
    """Issue 26: the forced card's own record torn, nothing durable says a card was forced; power-up must not deal
    on as if none had been: the record lost with the gate locked raises the forced card's alarm (S-FORCED), and the
    verifier finds what the shoe wrote as it should, the lost record said, no tampering."""
    archive = MemoryStorage()
    if store == "files":
        durable, now = _forced_card_torn(archive, lambda: setattr(archive, "budget", fmt.FRAME_SIZE // 2))
        storage = archive
    else:
        flash = RamFlash(4)
        ring = RingStorage(flash, archive)

        def cut():
            flash.cut_at = flash.ops()
            flash.torn = ring.pos % PAGE + 4  # the entry's first bytes: its CRC fails

        durable, now = _forced_card_torn(ring, cut)
        flash.power_on()
        storage = RingStorage(flash, archive)
    archive.budget = -1
    board = SimBoard(storage)
    board.clock.now = now + 1000
    board.power_on()
    ctl = board.shell.ctl
    assert ctl.raised(ALARM_FORCED) and not board.gate.is_open
    assert not board.press(EV_NO_MORE_BETS) or ctl.refused  # locked until the supervisor clears it
    board.close()
    reader, records = _read(archive.files)
    assert [r.seq for r in records][:durable] == list(range(1, durable + 1))
    assert [r.fields[TYPE] for r in records[durable:]] == [R_BOOT, R_RECOVERY, R_ALARM]
    rules = Rules()
    for r in records:
        rules.feed(r.fields)
    rules.finish(records[-1].seq)
    found = [(f.id, f.message) for f in reader.findings + rules.findings]
    assert [i for i, _ in found] == ["J-DURABLE"] and "torn bytes cut at power-up" in found[0][1], found


def _read(files):
    reader = Reader(_segments(files), DEVELOPMENT_KEY)
    records = list(reader)
    return reader, records
