"""The Pico's filesystem, mounted by both images' frozen _boot.py (in place of the rp2 port's own, which formats the
whole storage region whenever its mount fails). littlefs lives on the first 896 KB; the last 512 KB are the journal's
ring (journal_flash.py). A filesystem is made only on a flash that is blank (all 0xFF); any other flash that does not
mount is left as it is, the gate locked, nothing erased (S-FAILSAFE), and the fault kept in
boards.rpi_pico.flash_fault for whoever connects later (USB is not up yet: a print here reaches no one)."""

import rp2
import vfs

FAULT = ("DEFAUT : flash non reconnue, rien n'est effacé ; la porte reste verrouillée"
         " (FAULT: unrecognised flash, nothing erased; the gate stays locked)")


def _blank():
    whole = rp2.Flash()
    buf = bytearray(4096)
    erased = b"\xff" * 4096
    for block in range(whole.ioctl(4, 0) or 0):  # MP_BLOCKDEV_IOCTL_BLOCK_COUNT
        whole.readblocks(block, buf)
        if buf != erased:
            return False
    return True


def mount():
    bdev = rp2.Flash(start=0, len=896 * 1024)
    try:
        vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/")  # type: ignore[abstract]  # the stubs' VfsLfs2 is abstract
    except OSError:
        if _blank():
            vfs.VfsLfs2.mkfs(bdev, progsize=256)
            vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/")  # type: ignore[abstract]
        else:
            import boards.rpi_pico

            boards.rpi_pico.flash_fault = FAULT
            print(FAULT)
