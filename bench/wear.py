"""Flash wear and flash time on a card's path: a whole shoe on the VM through the firmware's store, the write-ahead
ring (firmware/ring.py) drained into littlefs, on RAM flash chips that take the W25Q16JV's datasheet times
(boards/sim/nor_flash.py); and, for comparison, through littlefs alone, every record flushed (the store before the
ring). Virtual flash time: the figures repeat exactly, so they are budgeted."""

from bench import vmrun
from bench.report import figure
from bench.shoe_events import FULL_SHOE

PICO_BLOCKS = 352  # MicroPython's rp2 RPI_PICO: 1408 KB of flash storage (MICROPY_HW_FLASH_STORAGE_BYTES), 4 KB blocks
RING_SECTORS = 128  # of them the ring's raw partition (512 KB): its sectors outlive 100 years at 20 shoes a day
ARCHIVE_BLOCKS = PICO_BLOCKS - RING_SECTORS  # littlefs, for the segment files
PICO_PROGSIZE = 256  # rp2's _boot.py mounts VfsLfs2 with progsize=256
ERASE_CYCLES = 100_000  # a W25Q16JV sector's rated erase cycles
SHOES_A_DAY = 20


def run_design(ctx, design, figure_name):
    cwd = ctx.scratch("flash")
    return vmrun.last_json(vmrun.vm("latency.py", [vmrun.link(cwd, "shoe.txt", FULL_SHOE), design, figure_name,
                                                   ARCHIVE_BLOCKS if design == "ring" else PICO_BLOCKS, RING_SECTORS,
                                                   PICO_PROGSIZE], ctx.build, cwd, heapsize="16M"))


def years(blocks, erases_per_shoe):
    """Until every block of a partition has had its rated erases, wear levelling assumed perfect within it."""
    return blocks * ERASE_CYCLES / erases_per_shoe / (SHOES_A_DAY * 365) if erases_per_shoe else float("inf")


def ms(us):
    return round(us / 1000, 2)


def measure(ctx):
    typical, worst = run_design(ctx, "ring", "typical"), run_design(ctx, "ring", "worst")
    cards = worst["cards"]
    how = ("a whole shoe (%d cards, %d records) on the VM from the mpy build: the ring on %d sectors of 4 KB (a frame "
           "the body bytes that changed), drained two whole blocks at a time between coups and all at the orderly "
           "stop into vfs.VfsLfs2 (progsize=%d) on %d blocks, RAM flash chips taking the W25Q16JV's datasheet times "
           "(page program 0.4 ms typ. / 3 ms max., sector erase 45 / 400 ms) on the virtual clock" % (
               cards, worst["records"], RING_SECTORS, PICO_PROGSIZE, ARCHIVE_BLOCKS))
    ring_years = years(RING_SECTORS, worst["ring_erases"])
    archive_years = years(ARCHIVE_BLOCKS, worst["lfs_erases"])
    out = {
        "wear.erases_per_card": figure(round((worst["ring_erases"] + worst["lfs_erases"]) / cards, 3), "erases/card",
                                       "every erase of both partitions (ring %d, littlefs %d); %s" % (
                                           worst["ring_erases"], worst["lfs_erases"], how)),
        "wear.ring.erases_per_card": figure(round(worst["ring_erases"] / cards, 3), "erases/card",
                                            "the ring's sector erases alone, the partition the cards' records go to"),
        "wear.archive.erases_per_card": figure(round(worst["lfs_erases"] / cards, 3), "erases/card",
                                               "littlefs's erases for the drains into the segment files"),
        "wear.life_years_at_%d_shoes_a_day" % SHOES_A_DAY: figure(
            round(min(ring_years, archive_years)), "years", "the partition that wears first: ring %d years (%d "
            "sectors), littlefs %d years (%d blocks); %d erase cycles, perfect levelling within each" % (
                ring_years, RING_SECTORS, archive_years, ARCHIVE_BLOCKS, ERASE_CYCLES)),
        "flash.draw_to_gate_ms.worst": figure(ms(worst["draw_to_gate_us"]["worst"]), "ms",
                                              "flash time from a draw request to the gate opening, the longest of "
                                              "%d, every operation at its datasheet maximum" %
                                              worst["draw_to_gate_us"]["count"]),
        "flash.draw_to_gate_ms.typical": figure(ms(typical["draw_to_gate_us"]["worst"]), "ms",
                                                "the same, every operation at its typical time"),
        "flash.card_to_ready_ms.worst": figure(ms(worst["card_to_ready_us"]["worst"]), "ms",
                                               "flash time from a card to the shoe ready for the next draw, the "
                                               "longest of the %d cards a coup goes on after, maximum times" %
                                               worst["card_to_ready_us"]["count"]),
        "flash.card_to_ready_ms.typical": figure(ms(typical["card_to_ready_us"]["worst"]), "ms",
                                                 "the same, typical times"),
        "flash.erases_in_coup": figure(worst["erases_in_coup"], "erases", "erases while a coup was under way over the "
                                       "whole shoe; erases on demand, a write finding no sector erased ahead (a new "
                                       "ring's first write): %d" % worst["late_erases"]),
        "flash.between_coups_ms.worst": figure(ms(worst["between_coups_us"]["worst"]), "ms",
                                               "the longest event between coups, a drain (two littlefs blocks of "
                                               "frames) and the erase ahead included, maximum times: the buttons' "
                                               "edges wait that long"),
        "flash.longest_interrupts_off_ms.worst": figure(ms(worst["longest_us"]), "ms",
                                                        "the longest single flash operation (interrupts held off): "
                                                        "a sector erase, between coups only"),
    }
    if ctx.check:
        return out
    for name, run in (("typical", run_design(ctx, "littlefs", "typical")), ("worst", run_design(ctx, "littlefs",
                                                                                                "worst"))):
        out["flash.littlefs_alone.draw_to_gate_ms.%s" % name] = figure(
            ms(run["draw_to_gate_us"]["worst"]), "ms", "COMPARISON, the store before the ring: every record flushed "
            "into littlefs on all %d blocks (%.2f erases a card, %d while a coup was under way), %s times" % (
                PICO_BLOCKS, run["lfs_erases"] / cards, run["erases_in_coup"], name))
    return out
