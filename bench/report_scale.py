"""The inspector's report at scale: `sabot report` on a journal of a million card records (bench/journals.py, the
same as the verify figure's), as a person runs it, in its own process: wall time, peak memory (the child's
peak resident set, VmHWM), the HTML's bytes; then the same report printed to PDF by headless Chromium. The issue's
bounds: under 60 s, 500 MB and 5 MB of HTML. Timings are indications only, never budgeted.

    .venv/bin/python -m bench.report_scale [N]
"""

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.journals import write_journal
from bench.report import figure

# `sabot` in a child process that says its own peak at the end: the kernel's VmHWM of the child's memory since its
# exec. (wait4's ru_maxrss would count the parent's memory at the fork, the bench's own, hundreds of MB.)
_CHILD = """import sys
from sabot.cli import main
status = main(sys.argv[1:])
peak = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")][0]
sys.stderr.write("peak_kb %s\\n" % peak)
sys.exit(status)
"""


def _run(args):
    """(seconds, peak resident MB) of one `sabot` command, which must succeed."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _CHILD, *map(str, args), "--quiet"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - started
    said = done.stderr.strip().splitlines()
    if done.returncode or not said or not said[-1].startswith("peak_kb "):
        raise AssertionError("sabot %s failed: %s" % (" ".join(map(str, args)), done.stderr))
    return took, int(said[-1].split()[1]) / 1024


def scale(cards, tmp=None):
    with tempfile.TemporaryDirectory(dir=tmp) as folder:
        journal = Path(folder) / "journal"
        write_journal(journal, cards=cards)
        html = Path(folder) / "report.html"
        seconds, peak = _run(["report", journal, "-o", html])
        pdf = Path(folder) / "report.pdf"
        pdf_seconds, _ = _run(["report", journal, "-o", pdf])
        return {"cards": cards, "journal_bytes": sum(p.stat().st_size for p in journal.iterdir()),
                "segments": len(list(journal.iterdir())), "report_s": round(seconds, 1), "peak_mb": round(peak),
                "html_bytes": html.stat().st_size, "pdf_s": round(pdf_seconds, 1), "pdf_bytes": pdf.stat().st_size}


def measure(ctx):
    got = scale(100_000 if ctx.quick else 1_000_000, ctx.tmp)
    how = "sabot report on a journal of {:,} card records ({} segments, {:.0f} MB), its own process".format(
        got["cards"], got["segments"], got["journal_bytes"] / 1e6)
    return {"report.seconds": figure(got["report_s"], "s", how + ", wall time (bound: 60 s)", deterministic=False),
            "report.peak_memory": figure(got["peak_mb"], "MB", "the same run's peak resident set, the "
                                         "child's VmHWM (bound: 500 MB)", deterministic=False),
            "report.html_bytes": figure(got["html_bytes"], "B", "the HTML it wrote: clean tailles one line each, "
                                        "every incident in full (bound: 5 MB)", deterministic=False),
            "report.pdf_seconds": figure(got["pdf_s"], "s", "the same report to PDF (-o report.pdf), headless "
                                         "Chromium included; %d bytes" % got["pdf_bytes"], deterministic=False)}


if __name__ == "__main__":
    print(json.dumps(scale(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)))
