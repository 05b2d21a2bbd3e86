"""The journal's ring answers the protocol's reads (a segment's list and sizes, its bytes from an offset) from what it
keeps as it is written (firmware/ring_recent.py), so that a pit following a shoe does not hold the croupier's draws
(issue 34): those answers are, at every record of a shoe dealt through the ring and drained as a loop drains it, what a
power-up's walk of the same flash reads, byte for byte, from any offset."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boards.sim.flash import MemoryStorage
from boards.sim.ramflash import RamFlash
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.layout import FRAME_SIZE, HEADER_SIZE
from firmware.ring import RingStorage
from firmware.ring_recent import _HELD, RECENT_FRAMES
from tests.conftest import SCENARIOS, VMS, micropython
from tests.host.test_micropython import _path
from tests.host.test_ring_powercut import PieceBoard

SHOE = (SCENARIOS / "full_shoe_chemin_de_fer.txt").read_text()


class Watched(RingStorage):
    """A ring that, after each frame it programs, compares its answers with those of a ring read afresh off the same
    flash and archive (a power-up's: nothing kept, every answer walked)."""

    checked = 0
    kept = 0  # reads answered from the frames kept in RAM
    offsets = ()

    def append(self, segment, frame, chain):
        super().append(segment, frame, chain)
        fresh = RingStorage(self.flash, self.archive)
        assert fresh.recent.ends is None and fresh.recent.segment == -1
        segments = fresh.segments()
        assert self.segments() == segments
        for each in segments:
            assert self.size(each) == fresh.size(each), each
        size = fresh.size(segment)
        with fresh.reader(segment) as stream:
            whole = stream.read(size)
        assert len(whole) == size
        for back in self.offsets:
            offset = max(0, size - back)
            with self.reader(segment) as stream:
                stream.seek(offset)
                assert stream.read(size) == whole[offset:], (segment, offset, size)
                self.kept += stream.kept is not None
        self.checked += 1


def _deal(segment_records, offsets, sectors=4):
    flash = RamFlash(sectors)
    ring = Watched(flash, MemoryStorage())
    ring.offsets = offsets
    board = PieceBoard(ring, segment_records=segment_records)
    run(parse(SHOE), board)
    board.close()
    return ring


@pytest.mark.req("P-PULL", "J-DURABLE")
@pytest.mark.parametrize("segment_records", [16, None], ids=["short segments", "whole segments"])
def test_every_read_of_the_ring_from_what_it_keeps_is_what_a_power_ups_walk_reads(segment_records):
    # the pit's read (its last 8 bytes again, then what came), reads from inside the kept frames, from just before
    # them (the flash walked from there), and from the segment's start
    kept = RECENT_FRAMES * FRAME_SIZE
    assert _HELD == kept
    ring = _deal(segment_records, (8, FRAME_SIZE + 8, kept - 1, kept, kept + 1, kept + FRAME_SIZE, 10 ** 6))
    assert ring.checked > 400  # every frame of a whole shoe, through several drains and sector erases
    assert ring.recent.ends is not None  # the sizes came from what it kept, not a walk each
    assert ring.kept > ring.checked  # and the pit's reads from the frames kept (the others walked the flash)


@pytest.mark.req("P-PULL")
@settings(max_examples=25, deadline=None)
@given(back=st.integers(0, 2000), records=st.sampled_from([7, 16, 40]))
def test_a_read_from_any_offset_of_a_segment_is_its_bytes_from_there(back, records):
    flash = RamFlash(4)
    ring = RingStorage(flash, MemoryStorage())
    board = PieceBoard(ring, segment_records=records)
    run(parse("\n".join(SHOE.splitlines()[:40]) + "\n"), board)  # some seventeen coups
    fresh = RingStorage(flash, ring.archive)
    for segment in fresh.segments():
        size = fresh.size(segment)
        with fresh.reader(segment) as stream:
            whole = stream.read(size)
        offset = max(0, size - back)
        assert offset <= size and size >= HEADER_SIZE
        for reading in (ring, fresh):
            with reading.reader(segment) as stream:
                stream.seek(offset)
                assert stream.read(size) == whole[offset:]


# Frames kept past the window's end, the heap locked: the card's path (RingStorage.append) allocates nothing more.
KEEPING = """import micropython
from firmware.ring_recent import Recent
recent = Recent()
recent.ends = {}
recent.created(3)
frame = bytearray(range(38))
for n in range(20):
    recent.appended(3, 182 + 38 * n, frame)
micropython.heap_lock()
for n in range(20, 60):
    recent.appended(3, 182 + 38 * n, frame)
micropython.heap_unlock()
print(recent.first, recent.end, recent.read(3, recent.end - 38) == bytes(frame))
"""


@pytest.mark.req("J-DURABLE", "S-ONE")
@pytest.mark.parametrize("vm", VMS)
def test_keeping_a_frame_allocates_nothing_on_the_micropython_vms(vm, mpy_build, tmp_path):
    (tmp_path / "keeping.py").write_text(KEEPING)
    run = micropython(["keeping.py"], _path(vm, mpy_build), cwd=tmp_path, vm=vm)
    assert run.returncode == 0, run.stdout + run.stderr  # MemoryError under heap_lock otherwise
    assert run.stdout.split() == [str(182 + 38 * 60 - 608), str(182 + 38 * 60), "True"]
