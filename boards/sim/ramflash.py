"""A NOR flash chip in RAM under littlefs (VfsLfs2's extended block interface), so that tests run the very
filesystem code a board runs: it counts reads, programs and erases (the erase budget), can log every program
and erase so that a run can be replayed to any instant, and can lose power at the Nth program or erase, with
part of that operation done (a torn program or erase). Runs on CPython and MicroPython.

    flash = RamFlash(128)
    vfs.VfsLfs2.mkfs(flash)
    os.mount(vfs.VfsLfs2(flash), "/flash")
"""

from array import array

from boards.sim.flash import PowerCut

BLOCK_SIZE = 4096
PAGE = 256  # the program unit: the W25Q16JV's page, whole pages only through the RP2040's ROM

PROGRAM = 1  # kinds of operation in an OpLog
ERASE = 2

# ioctl operations of MicroPython's block device protocol
_INIT = 1
_DEINIT = 2
_SYNC = 3
_BLOCK_COUNT = 4
_BLOCK_SIZE = 5
_BLOCK_ERASE = 6
_EIO = -5  # what a block device returns for an operation that failed


class OpLog:
    """Every program and erase of a run, in order, packed flat so that a long run stays small."""

    def __init__(self):
        self.kinds = bytearray()
        self.blocks = array("I")
        self.offsets = array("I")  # of a program, in its block
        self.starts = array("I")  # of a program's bytes in data
        self.lengths = array("I")  # bytes a program writes, a block an erase clears
        self.data = bytearray()

    def __len__(self):
        return len(self.kinds)

    def program(self, block, offset, buf):
        self._add(PROGRAM, block, offset, len(buf))
        self.data.extend(buf)

    def erase(self, block, size):
        self._add(ERASE, block, 0, size)

    def _add(self, kind, block, offset, length):
        self.kinds.append(kind)
        self.blocks.append(block)
        self.offsets.append(offset)
        self.starts.append(len(self.data))
        self.lengths.append(length)


class RamFlash:
    """Blocks of RAM that read as erased flash (0xFF) until programmed.

    A program covers whole pages (`page`, 256 bytes: offset and length multiples of it), as the RP2040's ROM requires
    of flash_range_program (which silently corrupts the flash otherwise): any other raises ValueError, naming the
    caller's bug (littlefs mounted with progsize=256, as the rp2 port's _boot.py does; the ring programs page images).
    A program's 0xFF bytes leave the flash as it is, as on NOR flash (a bit programmed to 1 stays as it was): a
    page image programmed whole (the ring's, firmware/ring.py) programs its entry alone. A program of other bytes
    into bytes not erased since they were last programmed raises ValueError: littlefs never does it, and NOR flash
    would corrupt them. At the cut, the operation
    numbered cut_at (programs and erases counted together from 0) does its first `torn` bytes and raises
    PowerCut; from then on the chip is dead: every operation fails with EIO and changes nothing, so that code
    still running (a finaliser closing a file) cannot write after the cut. power_on() brings it back.
    """

    def __init__(self, blocks=64, block_size=BLOCK_SIZE, page=PAGE):
        self.block_count = blocks
        self.block_size = block_size
        self.page = page
        self.data = bytearray(b"\xff" * (blocks * block_size))
        self.reads = 0
        self.programs = 0
        self.erases = 0
        self.programmed = 0  # bytes
        self.log = None  # an OpLog to record each program and erase in
        self.before_op = None  # called with an operation's number before each program and erase
        self.cut_at = -1  # the number of the program or erase at which the power fails; -1: never
        self.torn = 0  # bytes of that operation done before the power fails
        self.powered = True

    def ops(self):
        """Programs and erases so far: the number the next one will have."""
        return self.programs + self.erases

    def copy_from(self, other):
        """This chip's contents become other's, byte for byte (same geometry)."""
        self.data[:] = other.data

    def power_on(self):
        """Power back after a cut, which will not come again unless cut_at is set anew."""
        self.powered = True
        self.cut_at = -1

    def readblocks(self, block, buf, offset=0):
        if not self.powered:
            return _EIO
        self.reads += 1
        start = block * self.block_size + offset
        buf[:] = memoryview(self.data)[start:start + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        if not self.powered:
            return _EIO
        if offset is None:  # the simple interface: whole blocks, erased first
            for i in range(len(buf) // self.block_size):
                if self._erase(block + i):
                    return _EIO
            offset = 0
        start = block * self.block_size + offset
        if start % self.page or len(buf) % self.page:
            raise ValueError("program of %d bytes at block %d offset %d: not whole %d-byte pages, which the RP2040's "
                             "ROM requires (it would corrupt the flash)" % (len(buf), block, offset, self.page))
        index = self._start()
        end = start + len(buf)
        data = self.data
        if data[start:end] != b"\xff" * len(buf):  # both allocate: a test's chip, not a board's driver
            for i in range(len(buf)):
                if buf[i] != 0xFF and data[start + i] != 0xFF:
                    raise ValueError("program over flash not erased: block %d offset %d" % (block, offset + i))
        if index == self.cut_at:
            _program(data, start, buf, self.torn)
            self.powered = False
            raise PowerCut()
        if self.log is not None:
            self.log.program(block, offset, buf)
        _program(data, start, buf, len(buf))
        self.programs += 1
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == _BLOCK_COUNT:
            return self.block_count
        if op == _BLOCK_SIZE:
            return self.block_size
        if op == _BLOCK_ERASE:
            return self._erase(arg)
        if op == _INIT or op == _DEINIT or op == _SYNC:
            return 0
        return None

    def _erase(self, block):
        if not self.powered:
            return _EIO
        start = block * self.block_size
        if self._start() == self.cut_at:
            self.data[start:start + self.torn] = b"\xff" * self.torn
            self.powered = False
            raise PowerCut()
        if self.log is not None:
            self.log.erase(block, self.block_size)
        self.data[start:start + self.block_size] = b"\xff" * self.block_size
        self.erases += 1
        return 0

    def _start(self):
        index = self.programs + self.erases
        if self.before_op:
            self.before_op(index)
        return index

    def replay(self, log, index, part=None):
        """Do the log's operation `index` on this chip, uncounted; only its first `part` bytes when given, as the
        power failing in the middle of it would leave them."""
        length = log.lengths[index] if part is None else part
        start = log.blocks[index] * self.block_size + log.offsets[index]
        if log.kinds[index] == ERASE:
            self.data[start:start + length] = b"\xff" * length
        else:
            _program(self.data, start, memoryview(log.data)[log.starts[index]:], length)


def _program(data, start, buf, count):
    """The first count bytes of buf programmed at start: those that are not 0xFF (all at once onto erased flash)."""
    end = start + count
    if data[start:end] == b"\xff" * count:
        data[start:end] = memoryview(buf)[:count]
        return
    for i in range(count):
        if buf[i] != 0xFF:
            data[start + i] = buf[i]
