"""The shoe's image on the emulated Raspberry Pi Pico (tools/pico/, docs/pico-emulator.md): MicroPython's rp2 port
with the firmware frozen, on the project's own bootrom, reached by the real mpremote over USB CDC as a technician
reaches a Pico. `make test-pico` runs this tier alone; `make image BOARD=rpi_pico` builds what it boots."""

import subprocess

import pytest

from sabot.mpremote_link import mpremote
from sabot.pico import IMAGE_DIR, Pico
from sabot.vms import unix_port
from tests.parallel import one_worker_at_a_time

pytestmark = pytest.mark.pico

FLASH_BYTES = 2 * 1024 * 1024
STORAGE = FLASH_BYTES - 1408 * 1024  # rp2.Flash()'s region: the last 1408 KB of the chip
RING = STORAGE + 896 * 1024  # the journal's ring: the region's last 512 KB (boards/rpi_pico/journal_flash.py)


@pytest.fixture(scope="module")
def image():
    with one_worker_at_a_time("image"):
        if not all((IMAGE_DIR / name).exists() for name in ("firmware.bin", "firmware-dev.bin")):
            subprocess.run(["make", "image", "BOARD=rpi_pico"], check=True)
    return IMAGE_DIR


@pytest.fixture
def pico(image, tmp_path):
    board = Pico(tmp_path / "shoe.flash", development=True).start()
    yield board
    board.stop()


def run(board, code):
    return mpremote(board.port, "exec", code)


@pytest.mark.req("H-FIRMWARE")
def test_the_image_boots_on_our_bootrom_and_answers_mpremote_with_the_ring_partitioned(pico):
    said = run(pico, "import sys, os; from boards.rpi_pico import journal_flash\n"
                     "print(sys.implementation._machine); print(os.statvfs('/')[0] * os.statvfs('/')[2])\n"
                     "print(journal_flash.partition().ioctl(4, 0))")
    machine, fs_bytes, ring_blocks = said.split("\n")[:3]
    assert "Raspberry Pi Pico with RP2040" in machine
    assert int(fs_bytes) == 896 * 1024  # littlefs made on a blank flash, leaving the ring's 512 KB
    assert int(ring_blocks) == 128


@pytest.mark.req("J-DURABLE")
def test_a_file_written_survives_a_power_cycle_and_a_restart_of_the_emulator(image, tmp_path):
    flash = tmp_path / "shoe.flash"
    with Pico(flash, development=True) as board:
        run(board, "with open('kept.txt', 'w') as f: f.write('sabot 42')")
        board.command("power_cycle")
        board.wait(lambda: len([e for e in board.events if e["ev"] == "boot"]) == 2)
        assert run(board, "print(open('kept.txt').read())").strip() == "sabot 42"
    with Pico(flash, development=True) as board:
        assert run(board, "print(open('kept.txt').read())").strip() == "sabot 42"


def _stock_littlefs(tmp_path):
    """The storage region as the rp2 port's own _boot.py leaves it: littlefs over the whole 1408 KB, a file in it
    (made by the same littlefs in the MicroPython unix port)."""
    out = tmp_path / "stock.img"
    code = ("import vfs\nclass B:\n def __init__(s): s.d = bytearray(b'\\xff' * 1408 * 1024)\n"
            " def readblocks(s, n, buf, off=0): buf[:] = s.d[n * 4096 + off:n * 4096 + off + len(buf)]\n"
            " def writeblocks(s, n, buf, off=None):\n  o = n * 4096 + (off or 0); s.d[o:o + len(buf)] = buf\n"
            " def ioctl(s, op, arg):\n  if op == 4: return 352\n  if op == 5: return 4096\n"
            "  if op == 6: s.d[arg * 4096:arg * 4096 + 4096] = b'\\xff' * 4096\n  return 0\n"
            "b = B(); vfs.VfsLfs2.mkfs(b, progsize=256); fs = vfs.VfsLfs2(b, progsize=256); vfs.mount(fs, '/s')\n"
            "with open('/s/journal.bin', 'w') as f: f.write('records of a shoe')\n"
            "vfs.umount('/s')\n"
            "open(%r, 'wb').write(b.d)\n" % str(out))
    subprocess.run([unix_port(), "-X", "heapsize=8M", "-c", code], check=True)
    return out.read_bytes()


@pytest.mark.req("S-FAILSAFE", "J-DURABLE")
def test_a_flash_the_image_does_not_recognise_is_left_whole_and_the_gate_locked(image, tmp_path):
    flash = tmp_path / "shoe.flash"
    data = bytearray(b"\xff" * FLASH_BYTES)
    data[STORAGE:] = _stock_littlefs(tmp_path)
    flash.write_bytes(bytes(data))
    with Pico(flash, development=True) as board:
        said = run(board, "import os, boards.rpi_pico as b; print(os.listdir('/')); print(b.flash_fault)")
        assert "[]" in said  # nothing mounted: no config, no journal, the controller never starts
        assert "DEFAUT : flash non reconnue, rien n'est effacé" in said
        assert board.pin_events(16)[-1]["level"] == 0
    assert flash.read_bytes()[STORAGE:] == bytes(data[STORAGE:])  # not one byte erased
