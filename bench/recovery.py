"""Boot recovery: Journal.recover on the VM for a short and a long journal. Recovery reads the last segment only
(its header holds the controller's snapshot), so a journal's length must not lengthen boot: the long journal ends in
a last segment of the same 1,000 records as the short one, and their ratio shows what the length alone adds."""

import statistics

from bench import callgrind, vmrun
from bench.journals import write_journal
from bench.report import figure, skipped
from firmware.journal import SEGMENT_RECORDS

SHORT = 1000
LONG = SHORT + 244 * SEGMENT_RECORDS  # 1,000,424: 245 segments, the last of 1,000 records
HEAP = "256K"  # 64K fails on the long journal: FileStorage.segments() lists all 245 names (MemoryError)


def _journals(ctx):
    folders = {}
    for name, records in (("short", SHORT), ("long", LONG), ("full_segment", SEGMENT_RECORDS)):
        folders[name] = ctx.scratch("journal-" + name) / "journal"
        if write_journal(folders[name], records=records) != records:
            raise AssertionError("bench/journals.py wrote a journal of the wrong length")
    return folders


def instructions(ctx, folders):
    names = ("recovery.instructions.short", "recovery.instructions.long", "recovery.ratio_long_to_short",
             "recovery.instructions.full_segment")
    ok, why = callgrind.available()
    if not ok:
        return {name: skipped(why) for name in names}
    jobs = {}
    for name, folder in list(folders.items()) + [("base", folders["short"])]:
        cwd = ctx.scratch("rec")
        jobs[name] = ("recover.py", ["base" if name == "base" else "recover", vmrun.link(cwd, "journal", folder)],
                      cwd)
    count = callgrind.vm_instructions_all(jobs, ctx.build, HEAP)
    work = {name: n - count["base"] for name, n in count.items()}
    how = "callgrind Ir of Journal.recover on the VM (256K heap, mpy build), less the run that recovers nothing"
    return {
        names[0]: figure(work["short"], "instr", "a journal of %d records (one segment); %s" % (SHORT, how)),
        names[1]: figure(work["long"], "instr", "a journal of %s records (245 segments, the last of %d "
                                                "records); %s" % ("{:,}".format(LONG), SHORT, how)),
        names[2]: figure(round(work["long"] / work["short"], 3), "x", "the two above: what a thousand times "
                                                                      "longer journal adds to boot"),
        names[3]: figure(work["full_segment"], "instr", "the worst case: a last segment of %d records; %s" % (
            SEGMENT_RECORDS, how)),
    }


def times(ctx, folders):
    runs = 3 if ctx.quick else 5
    out = {}
    for name in ("short", "long", "full_segment"):
        cwd = ctx.scratch("rec")
        got = vmrun.last_json(vmrun.vm("recover.py", ["time", vmrun.link(cwd, "journal", folders[name]), runs],
                                       ctx.build, cwd, HEAP))
        out["recovery.time_ms.%s" % name] = figure(round(statistics.median(got["us"]) / 1000, 1), "ms",
                                                   "Journal.recover on the VM (x86-64), median of %d" % runs,
                                                   deterministic=False)
    return out


def measure(ctx):
    folders = _journals(ctx)
    out = instructions(ctx, folders)
    if not ctx.check:
        out.update(times(ctx, folders))
    return out
