"""Figures as the bench records them (value, unit, how it was obtained, whether a rerun gives the same), the table
`make bench` prints and bench/results.json. `python -m bench.report [RESULTS]` prints a results file as Markdown."""

import json
import platform
import subprocess
import sys
import time
from pathlib import Path

from bench import vmrun


def figure(value, unit, method, deterministic=True):
    return {"value": value, "unit": unit, "method": method, "deterministic": deterministic}


def skipped(why):
    return {"value": None, "unit": "", "method": "skipped: " + why, "deterministic": True, "skipped": why}


def shown(value):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        if abs(value) >= 1000:
            return "{:,.0f}".format(value)
        return "%.1f" % value if abs(value) >= 100 else "%.3g" % value
    if isinstance(value, int):
        return "{:,}".format(value)
    return str(value)


def _rows(figures):
    """(name, value and unit, how it was obtained: ~ marks a timing, never a budget) a figure."""
    return [(name, shown(f["value"]) + (" " + f["unit"] if f["unit"] and f["value"] is not None else ""),
             ("" if f["deterministic"] else "~ ") + f["method"]) for name, f in figures.items()]


def table(figures):
    rows = _rows(figures)
    width = [max(len(r[i]) for r in rows) for i in (0, 1)]
    lines = ["%-*s  %*s  %s" % (width[0], "figure", width[1], "value", "how")]
    lines.append("-" * (width[0] + width[1] + 8))
    lines += ["%-*s  %*s  %s" % (width[0], r[0], width[1], r[1], r[2]) for r in rows]
    return "\n".join(lines)


def markdown(figures):
    """The table as Markdown, for the README."""
    return "\n".join(["| figure | value | how |", "|---|---:|---|"]
                     + ["| `%s` | %s | %s |" % row for row in _rows(figures)])


def environment():
    version = subprocess.run([vmrun.MICROPYTHON, "-c", "import sys; print(sys.version, sys.implementation._machine)"],
                             capture_output=True, text=True).stdout.strip()
    commit = subprocess.run(["git", "-C", str(vmrun.ROOT), "describe", "--always", "--dirty"], capture_output=True,
                            text=True).stdout.strip()
    return {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": commit,
            "machine": "%s, %s, Python %s" % (platform.machine(), platform.system(), platform.python_version()),
            "micropython": version}


def write(path, figures, mode, seconds):
    data = {"mode": mode, "seconds": round(seconds, 1), "environment": environment(), "figures": figures}
    path.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    results = json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else vmrun.ROOT / "bench" / "results.json").read_text())
    print(markdown(results["figures"]))
