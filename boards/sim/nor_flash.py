"""NOR flash with time: a RamFlash whose every program and erase takes the part's datasheet time on the sim's virtual
clock, with the board's interrupts held off meanwhile, as on the RP2040, which runs its program from that same flash:
an edge that comes during the operation is latched and handled after it. The sim delivers events between
operations only, so this is what it models; `longest_us` is the longest such blind spell.

    flash = TimedFlash(96, board.clock, W25Q16JV, WORST)
"""

from boards.sim.ramflash import RamFlash

TYPICAL = 0  # which of a part's figures an operation takes
WORST = 1

# Winbond W25Q16JV (the Raspberry Pi Pico's flash), datasheet's AC characteristics: page program tPP of a 256-byte
# page, 4 KB sector erase tSE, typical and maximum, in microseconds; endurance in erase cycles a sector.
W25Q16JV = {"name": "W25Q16JV", "page": 256, "program_us": (400, 3000), "erase_us": (45000, 400000),
            "cycles": 100000}


class TimedFlash(RamFlash):
    def __init__(self, blocks, clock=None, part=W25Q16JV, figure=TYPICAL, block_size=4096):
        super().__init__(blocks, block_size, part["page"])  # whole pages only, as the RP2040's ROM programs
        self.clock = clock  # a VirtualClock (ms) each operation moves on, or None
        self.program_us = part["program_us"][figure]
        self.erase_us = part["erase_us"][figure]
        self.busy_us = 0  # time spent programming and erasing so far
        self.longest_us = 0  # the longest single operation, interrupts held off
        self._carry_us = 0  # time not yet a whole millisecond on the clock

    def writeblocks(self, block, buf, offset=None):
        failed = super().writeblocks(block, buf, offset)  # a whole-block write's erases are charged by _erase
        if not failed:  # whole pages: RamFlash refused any other
            self._spend(len(buf) // self.page * self.program_us)
        return failed

    def _erase(self, block):
        failed = RamFlash._erase(self, block)
        if not failed:
            self._spend(self.erase_us)
        return failed

    def _spend(self, us):
        self.busy_us += us
        if us > self.longest_us:
            self.longest_us = us
        if self.clock is not None:
            self._carry_us += us
            self.clock.now += self._carry_us // 1000
            self._carry_us %= 1000
