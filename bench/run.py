"""`make bench`: what a card costs the firmware on the MicroPython VM (instructions, time, heap, flash), the sizes,
the gate's reaction, boot recovery, verify throughput and the report of a million cards; printed as one table and
written to bench/results.json, each figure with how it was obtained. Times (marked ~) are reported, never budgeted.

    python -m bench.run [--quick] [--check] [--only GROUP,...] [--build DIR] [--out FILE]

--check measures only the deterministic figures bench/budgets.json holds (bench/check.py runs it); --only replaces
its groups' figures in the results file and keeps the others' (and the run it says it is); --quick makes the long
journals and the timing runs smaller; --build runs the VM on another sim build than `make mpy`'s.
Scratch files go to /dev/shm when there is one: the unix port's flush is an fsync, which a disk makes slow.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench import (
    cost,
    fleet_speed,
    gate,
    memory,
    pico,
    pico_flood,
    pico_gate,
    pit,
    recovery,
    report,
    report_scale,
    restarts,
    size,
    uptime_heap,
    verify_speed,
    vmrun,
    wear,
    web,
)
from bench.context import Context

GROUPS = {"cost": cost.measure, "heap": memory.measure, "uptime": uptime_heap.measure, "size": size.measure,
          "gate": gate.measure, "wear": wear.measure, "recovery": recovery.measure, "verify": verify_speed.measure,
          "web": web.measure, "fleet": fleet_speed.measure, "report": report_scale.measure, "pico": pico.measure,
          "pico_flood": pico_flood.measure, "pico_gate": pico_gate.measure, "restarts": restarts.measure,
          "pit": pit.measure}
# the groups whose figures have budgets
CHECKED = ("cost", "heap", "uptime", "size", "gate", "wear", "recovery", "restarts")
RESULTS = vmrun.ROOT / "bench" / "results.json"
SCRATCH_BYTES = 1 << 30  # the verify journal alone is 140 MB


def scratch_root():
    """/dev/shm when it has room for the long journals (a container's is often 64 MB), else the system's tmp."""
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK) and shutil.disk_usage(shm).free >= SCRATCH_BYTES:
        return shm
    return None


def measure(groups, check=False, quick=False, build=None):
    """{figure name: figure} for the groups, in their order."""
    build = Path(build) if build else vmrun.build("sim")
    figures = {}
    with tempfile.TemporaryDirectory(prefix="sabot-bench-", dir=scratch_root()) as tmp:
        ctx = Context(tmp, build, quick=quick, check=check)
        for group in groups:
            started = time.monotonic()
            figures.update(GROUPS[group](ctx))
            print("bench: %s measured in %.0f s" % (group, time.monotonic() - started), file=sys.stderr)
    return figures


def groups_from(text, default):
    if not text:
        return list(default)
    chosen = [g.strip() for g in text.split(",") if g.strip()]
    unknown = [g for g in chosen if g not in GROUPS]
    if unknown:
        raise SystemExit("unknown group(s) %s; groups: %s" % (", ".join(unknown), ", ".join(GROUPS)))
    return chosen


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller journals and fewer timing runs")
    parser.add_argument("--check", action="store_true", help="only the deterministic, budgeted figures")
    parser.add_argument("--only", help="comma-separated groups: " + ", ".join(GROUPS))
    parser.add_argument("--build", help="the sim build the VM imports (default: make mpy's build/sim)")
    parser.add_argument("--out", help="results file (default: bench/results.json; none with --check)")
    args = parser.parse_args(argv)
    groups = groups_from(args.only, CHECKED if args.check else GROUPS)
    if args.check:
        groups = [g for g in groups if g in CHECKED]
    started = time.monotonic()
    figures = measure(groups, check=args.check, quick=args.quick, build=args.build)
    print(report.table(figures))
    out = Path(args.out) if args.out else (None if args.check else RESULTS)
    if out and args.only and out.exists():  # the groups' figures replaced; the run the file says it is, kept
        results = json.loads(out.read_text())
        results["figures"].update(figures)
        env = report.environment()  # and when and where these groups were measured again, which the README says
        results.setdefault("remeasured", {}).update({g: {"date": env["date"], "commit": env["commit"]} for g in groups})
        out.write_text(json.dumps(results, indent=1) + "\n")
        print("written to %s" % out)
    elif out:
        report.write(out, figures, "check" if args.check else "quick" if args.quick else "full",
                     time.monotonic() - started)
        print("written to %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
