"""`make bench-check`: the deterministic figures against bench/budgets.json. Exits 1 naming every budget broken (or
whose figure is missing); a figure skipped for want of valgrind is said so and does not fail the check.

    python -m bench.check [--results FILE] [--budgets FILE] [--only GROUP,...] [--build DIR]

Without --results it measures the figures now, as `python -m bench.run --check` does.
"""

import argparse
import json
import sys
from pathlib import Path

from bench import run
from bench.report import shown
from sabot.boards import hardware

BUDGETS = Path(__file__).resolve().parent / "budgets.json"


def load(path=BUDGETS):
    """The budgets of a file by figure name; a name holding {board} stands for one budget per hardware board, each
    board found by its folder (host_tools/sabot/boards.py)."""
    found = {}
    for name, budget in json.loads(Path(path).read_text())["budgets"].items():
        for each in [name.replace("{board}", board) for board in hardware()] if "{board}" in name else [name]:
            found[each] = budget
    return found


def verdict(budget, fig):
    """None when the figure keeps the budget, else why not."""
    value = fig["value"]
    if "equals" in budget:
        return None if value == budget["equals"] else "is %s, must be %s" % (shown(value), shown(budget["equals"]))
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return "is %s, not a number" % shown(value)
    text = shown(value) + (" " + fig["unit"] if fig["unit"] else "")
    if "max" in budget and value > budget["max"]:
        return "is %s, over the budget's %s" % (text, shown(budget["max"]))
    if "min" in budget and value < budget["min"]:
        return "is %s, under the budget's %s" % (text, shown(budget["min"]))
    return None


def limit(budget):
    for kind in ("equals", "max", "min"):
        if kind in budget:
            return "%s %s" % ("=" if kind == "equals" else kind, shown(budget[kind]))
    raise ValueError("a budget needs equals, max or min: %s" % budget)


def check(figures, budgets, groups):
    """(lines to print, names of the budgets broken)."""
    lines, broken = [], []
    for name, budget in budgets.items():
        if budget["group"] not in groups:
            continue
        fig = figures.get(name)
        if fig is None:
            problem = "no such figure in the results"
        elif fig.get("skipped"):
            lines.append("SKIPPED %s: %s" % (name, fig["skipped"]))
            continue
        else:
            problem = verdict(budget, fig)
        if problem:
            broken.append(name)
            lines.append("BROKEN  %s %s (budget %s: %s)" % (name, problem, limit(budget), budget["why"]))
        else:
            lines.append("ok      %s = %s (budget %s)" % (name, (shown(fig["value"]) + " " + fig["unit"]).strip(),
                                                             limit(budget)))
    return lines, broken


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.check", description=__doc__.splitlines()[0])
    parser.add_argument("--results", help="a results file (bench/results.json); default: measure now")
    parser.add_argument("--budgets", default=str(BUDGETS))
    parser.add_argument("--only", help="comma-separated groups: " + ", ".join(run.CHECKED))
    parser.add_argument("--build", help="the sim build the VM imports (default: make mpy's build/sim)")
    args = parser.parse_args(argv)
    budgets = load(args.budgets)
    groups = run.groups_from(args.only, run.CHECKED)
    if args.results:
        figures = json.loads(Path(args.results).read_text())["figures"]
    else:
        figures = run.measure([g for g in groups if g in run.CHECKED], check=True, build=args.build)
    lines, broken = check(figures, budgets, groups)
    print("\n".join(lines))
    if broken:
        print("bench-check: %d budget(s) broken: %s" % (len(broken), ", ".join(broken)))
        return 1
    print("bench-check: every budget kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())
