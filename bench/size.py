"""Bytes: the compiled firmware each board loads (`make mpy BOARD=...`: .mpy files from mpy-cross for its
processor) and the journal a card costs on flash."""

from bench import vmrun
from bench.report import figure
from sabot.boards import names


def mpy_files(build_dir):
    """The build's .mpy files that still have a source (a module deleted since leaves its .mpy behind)."""
    return [p for p in sorted(build_dir.rglob("*.mpy"))
            if (vmrun.ROOT / p.relative_to(build_dir).with_suffix(".py")).exists()]


def firmware_sizes():
    """Every board's build, each board found by its folder (boards/*/board.json)."""
    out = {}
    for board in names():
        files = mpy_files(vmrun.build(board))
        core = sum(p.stat().st_size for p in files if p.relative_to(vmrun.ROOT / "build" / board).parts[0] ==
                   "firmware")
        total = sum(p.stat().st_size for p in files)
        out["size.mpy_bytes.%s" % board] = figure(total, "B", "%d .mpy files in build/%s (make mpy BOARD=%s), of "
                                                  "which firmware/ %d B" % (len(files), board, board, core))
    return out


def journal_size(ctx):
    shoe = ctx.shoe
    return {"size.journal_bytes_per_card": figure(
        round(shoe["journal_bytes"] / shoe["cards"], 1), "B/card",
        "the whole shoe's journal (%d B: %d records of 54 B and segment headers) / %d cards" % (
            shoe["journal_bytes"], shoe["records"], shoe["cards"]))}


def measure(ctx):
    out = firmware_sizes()
    out.update(journal_size(ctx))
    return out
