"""Flash wear: erases per card when the journal goes through littlefs on a Raspberry Pi Pico's filesystem (a record
made durable, one flush, at a time), the flash's life in shoes that gives, and what cheaper designs would cost."""

from bench import vmrun
from bench.report import figure
from bench.shoe_events import FULL_SHOE

PICO_BLOCKS = 352  # MicroPython's rp2 RPI_PICO: 1408 KB of littlefs (MICROPY_HW_FLASH_STORAGE_BYTES) in 4 KB blocks
PICO_PROGSIZE = 256  # rp2's _boot.py mounts VfsLfs2 with progsize=256
ERASE_CYCLES = 100_000  # a NOR flash sector's rated erase cycles (the Pico's W25Q16JV)
BLOCK_SIZE = 4096
PAGE = 256
YEARS = 10


def run_design(ctx, design):
    cwd = ctx.scratch("wear")
    return vmrun.last_json(vmrun.vm("wear.py", [vmrun.link(cwd, "shoe.txt", FULL_SHOE), PICO_BLOCKS, PICO_PROGSIZE,
                                                design], ctx.build, cwd, heapsize="16M"))


def shoes_for_life(erases_per_card, cards):
    """Whole shoes until every block has had its rated erases, wear levelling assumed perfect."""
    return PICO_BLOCKS * ERASE_CYCLES / (erases_per_card * cards)


def measure(ctx):
    each = run_design(ctx, "each")
    cards = each["cards"]
    per_card = each["erases"] / cards
    how = ("a whole shoe (%d cards, %d records) through vfs.VfsLfs2 (progsize=%d) on a RamFlash of %d blocks of 4 KB "
           "(the Pico's 1408 KB littlefs), on the VM from the mpy build" % (cards, each["records"], PICO_PROGSIZE,
                                                                          PICO_BLOCKS))
    assumptions = "%d blocks x %d erase cycles, perfect wear levelling, %d-card shoes" % (PICO_BLOCKS, ERASE_CYCLES,
                                                                                         cards)
    shoes = shoes_for_life(per_card, cards)
    out = {
        "wear.erases_per_card": figure(round(per_card, 2), "erases/card", "littlefs block erases; " + how),
        "wear.programmed_bytes_per_card": figure(round(each["programmed"] / cards), "B/card",
                                                 "bytes programmed by littlefs (%d programs); %s" % (
                                                     each["programs"], how)),
        "wear.life_shoes": figure(round(shoes), "shoes", "flash life: " + assumptions),
        "wear.shoes_per_day_for_%d_years" % YEARS: figure(round(shoes / (YEARS * 365), 1), "shoes/day",
                                                          "the life above spread over %d years" % YEARS),
    }
    if ctx.check:
        return out
    batched = run_design(ctx, "with-intent")
    out["wear.design.flush_with_intent"] = figure(
        round(batched["erases"] / cards, 2), "erases/card", "MODEL, not the firmware: records flushed only with the "
        "next release intent (before the gate opens), same littlefs run; life %d shoes" % round(
            shoes_for_life(batched["erases"] / cards, cards)))
    records = each["records"] / cards
    ring_bytes = ctx.shoe["journal_bytes"] / cards
    out["wear.design.raw_ring_packed"] = figure(
        round(ring_bytes / BLOCK_SIZE, 3), "erases/card", "COMPUTED: frames programmed back to back into a "
        "pre-erased ring of 4 KB sectors (%.1f B/card; NOR re-programs a page with 0xFF elsewhere); life %d shoes" % (
            ring_bytes, round(shoes_for_life(ring_bytes / BLOCK_SIZE, cards))))
    out["wear.design.raw_ring_page_per_record"] = figure(
        round(records * PAGE / BLOCK_SIZE, 3), "erases/card", "COMPUTED: one 256-byte page a record (%.2f records a "
        "card), 16 a sector; life %d shoes" % (records, round(shoes_for_life(records * PAGE / BLOCK_SIZE, cards))))
    return out
