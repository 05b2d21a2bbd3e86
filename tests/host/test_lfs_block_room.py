"""The ring's drains fill whole littlefs blocks (firmware/ring.py, lfs_blocks.block_room): on the VM's littlefs, an
append that ends where block_room says costs the one erase of its new block, and the next append no copy of a
partial block; ending a byte short makes every later append copy it (tests/vm/lfs_block_room.py)."""

import json

import pytest

from tests.conftest import ROOT, micropython

SCRIPT = ROOT / "tests" / "vm" / "lfs_block_room.py"
SESSIONS = 40  # past block 32, whose skip-list has six pointers


@pytest.mark.req("J-DURABLE")
def test_appends_that_fill_block_room_cost_one_erase_each_and_one_byte_short_two(mpy_build, tmp_path):
    run = micropython([str(SCRIPT), str(SESSIONS)], "%s:%s" % (mpy_build, ROOT / "tests" / "vm"), cwd=tmp_path,
                      heapsize="4M")
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    erases = json.loads(run.stdout.strip().splitlines()[-1])
    filled, short = erases["filled"], erases["short"]
    assert [s - f for s, f in zip(short[1:], filled[1:])] == [1] * (SESSIONS - 1)  # a byte short: a copy each time
    assert sum(filled) <= SESSIONS * 1.1  # filled: the new block alone, and a metadata compaction in some 16 commits
