"""The flash with time (boards/sim/nor_flash.py): the W25Q16JV's datasheet times charged on the virtual clock, and a
whole shoe through the journal's ring on it at the worst figures: every gate opens within 5 ms of its draw request,
no erase while a coup is under way (the sweeps of the littlefs store are in bench/wear.py)."""

import pytest

from boards.sim.board import SimBoard
from boards.sim.devices import VirtualClock
from boards.sim.flash import MemoryStorage
from boards.sim.nor_flash import TYPICAL, W25Q16JV, WORST, TimedFlash
from boards.sim.ramflash import RamFlash
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.ring import RingStorage
from tests.conftest import SCENARIOS


@pytest.mark.parametrize("figure", (TYPICAL, WORST))
def test_each_operation_takes_the_datasheets_time_on_the_clock(figure):
    clock = VirtualClock()
    flash = TimedFlash(4, clock, W25Q16JV, figure)
    program, erase = W25Q16JV["program_us"][figure], W25Q16JV["erase_us"][figure]
    flash.writeblocks(0, bytes(256), 0)  # a page: one page program
    assert flash.busy_us == program
    flash.writeblocks(0, bytes(512), 256)  # two pages: two
    assert flash.busy_us == 3 * program
    flash.ioctl(6, 1)
    flash.writeblocks(2, bytes(4096))  # the simple interface: erased first, 16 pages
    assert flash.busy_us == 3 * program + 2 * erase + 16 * program
    assert clock.now == flash.busy_us // 1000 and flash.longest_us == max(erase, 16 * program)


@pytest.mark.parametrize("offset,length", [(64, 256), (0, 64), (192, 256), (4000, 96)])
def test_a_program_not_of_whole_256_byte_pages_is_refused_and_changes_nothing(offset, length):
    """The RP2040's ROM programs whole pages (flash_range_program: offset and count multiples of 256) and silently
    corrupts the flash otherwise: the model refuses the call loudly, so that a caller's bug shows in every test."""
    flash = TimedFlash(2, None)
    with pytest.raises(ValueError, match="not whole 256-byte pages"):
        flash.writeblocks(0, bytes(length), offset)
    assert flash.data == b"\xff" * 8192 and flash.programs == 0 and flash.busy_us == 0
    with pytest.raises(ValueError, match="not whole 256-byte pages"):
        RamFlash(2).writeblocks(1, bytes(length), offset)


class Timed(SimBoard):
    """Notes the virtual time from each draw request to the gate's opening."""

    def __init__(self, storage):
        super().__init__(storage)
        self.waits = []
        self.erases_in_coup = 0
        opened = self.gate.open

        def open_gate():
            self.waits.append(self.clock.now - self.asked)
            opened()

        self.gate.open = open_gate

    def _handle(self, event, arg):
        self.asked = self.clock.now
        super()._handle(event, arg)


@pytest.mark.req("J-DURABLE", "S-ONE")
def test_a_whole_shoe_through_the_ring_opens_every_gate_within_5_ms_at_the_worst_times():
    flash = TimedFlash(32, None, W25Q16JV, WORST)
    board = Timed(RingStorage(flash, MemoryStorage()))
    flash.clock = board.clock
    erase = flash._erase

    def counted(block):
        board.erases_in_coup += bool(board.shell and board.shell.ctl.in_coup)
        return erase(block)

    flash._erase = counted
    steps = parse((SCENARIOS / "full_shoe_chemin_de_fer.txt").read_text())
    run(steps, board)
    assert len(board.waits) == board.gate.releases > 300 and max(board.waits) <= 5  # every release, draws and burns
    assert board.erases_in_coup == 0 and flash.erases >= 3  # the 3 sectors a shoe's entries take, erased between coups
