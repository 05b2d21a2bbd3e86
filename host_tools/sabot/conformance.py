"""The conformance matrix: each requirement of the catalogue, the tests that cover it and their result.

`python -m sabot.conformance RESULTS.json [-o docs/conformance.md] [--requirements docs/requirements.md]`
reads what tests/conformance_plugin.py recorded and writes the matrix. A requirement is met only by a test
that passed: a failed or skipped test is no coverage. Exit 0 when every requirement has a passing test and
no test failed; 1 otherwise, naming the requirements and tests; 2 when an input cannot be read.
"""

import argparse
import json
import re
import sys
from pathlib import Path

import firmware

ROOT = Path(firmware.__file__).resolve().parent.parent
ID = re.compile(r"^[A-Z]+(?:-[A-Z0-9]+)+$")
PASSING = ("passed",)
FAILING = ("failed", "error")
SHOWN = 3  # test names shown in a row
SHORT = 90  # characters of a requirement's text shown in a row


class Unusable(Exception):
    """An input this tool cannot read: exit status 2."""


def parse_requirements(text):
    """[(ID, requirement text)] from the catalogue's tables, in its order: rows whose first cell is an ID."""
    found = []
    seen = set()
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) < 2 or not ID.match(cells[0]):
            continue
        if cells[0] in seen:
            raise Unusable("requirement %s is in the catalogue twice" % cells[0])
        seen.add(cells[0])
        found.append((cells[0], "|".join(cells[1:]).strip()))
    return found


def load_results(path):
    """nodeid -> (IDs, outcome) from the plugin's JSON ({"ids": [...], "outcome": ...} or [ids, outcome])."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise Unusable("%s: %s" % (path, e.strerror)) from None
    except ValueError as e:
        raise Unusable("%s: not JSON: %s" % (path, e)) from None
    if not isinstance(data, dict) or not data:
        raise Unusable("%s: no test results (did pytest run with -p tests.conformance_plugin?)" % path)
    results = {}
    for nodeid, entry in data.items():
        ids, result = (entry["ids"], entry["outcome"]) if isinstance(entry, dict) else entry
        results[nodeid] = (tuple(ids), result)
    return results


def short(text):
    """The requirement's first sentence, without markdown emphasis, cut to fit a row."""
    text = text.replace("**", "").replace("*", "")
    sentence = re.split(r"(?<=\.)\s", text, maxsplit=1)[0]
    return sentence if len(sentence) <= SHORT else sentence[:SHORT - 1].rstrip() + "…"


def short_name(nodeid):
    """tests/host/test_x.py::test_y[param] -> test_x::test_y: a row names tests, not their parameters."""
    path, _, name = nodeid.partition("::")
    return "%s::%s" % (Path(path).stem, name.split("[")[0]) if name else Path(path).stem


class Row:
    def __init__(self, rid, text, tests):
        self.id = rid
        self.text = text
        self.tests = tests  # [(nodeid, outcome)]
        self.passed = [n for n, o in tests if o in PASSING]
        self.failed = [n for n, o in tests if o in FAILING]

    @property
    def met(self):
        return bool(self.passed) and not self.failed

    def result(self):
        counts = {}
        for _, outcome in self.tests:
            counts[outcome] = counts.get(outcome, 0) + 1
        detail = ", ".join("%d %s" % (n, o) for o, n in sorted(counts.items()))
        if not self.tests:
            return "**NOT COVERED**"
        if self.failed:
            return "**FAIL** (%s)" % detail
        if not self.passed:
            return "**NO PASSING TEST** (%s)" % detail
        return "pass" if len(counts) == 1 else "pass (%s)" % detail


def matrix(requirements, results):
    """(rows, IDs cited by tests but not in the catalogue, failing tests)."""
    rows = [Row(rid, text, sorted((n, o) for n, (ids, o) in results.items() if rid in ids))
            for rid, text in requirements]
    known = {rid for rid, _ in requirements}
    unknown = sorted({rid for ids, _ in results.values() for rid in ids} - known)
    failing = sorted(n for n, (_, o) in results.items() if o in FAILING)
    return rows, unknown, failing


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def render(rows, unknown, failing, results):
    """docs/conformance.md's text."""
    met = sum(1 for r in rows if r.met)
    outcomes = {}
    for _, outcome in results.values():
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    uncited = sum(1 for ids, _ in results.values() if not ids)
    ok = met == len(rows) and not unknown and not failing
    lines = [
        "# Conformance matrix",
        "",
        "Written by `make conformance` from the whole test suite: each requirement of the catalogue",
        "([requirements.md](requirements.md)), the tests that declare it (pytest marker `req`, `@covers`) and their",
        "result. A requirement is met only by a test that passed. Do not edit: run `make conformance` again.",
        "",
        "**%s**: %d of %d requirements met; %d tests (%s)." % (
            "Every requirement is met" if ok else "NOT CONFORMANT", met, len(rows), len(results),
            ", ".join("%d %s" % (n, o) for o, n in sorted(outcomes.items()))),
        "",
        "| ID | Requirement | Tests | Result | Some of the tests |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        names = []
        for nodeid, _ in r.tests:
            name = short_name(nodeid)
            if name not in names:
                names.append(name)
        shown = ", ".join("`%s`" % n for n in names[:SHOWN]) + (" and %d more" % (len(names) - SHOWN)
                                                               if len(names) > SHOWN else "")
        lines.append("| %s | %s | %d | %s | %s |" % (r.id, cell(short(r.text)), len(r.tests), r.result(),
                                                     cell(shown) or "—"))
    lines.append("")
    if unknown:
        lines += ["**Requirement IDs cited by tests but not in the catalogue:** %s." % ", ".join(unknown), ""]
    if failing:
        lines += ["**Tests that failed:**", ""] + ["- `%s`" % n for n in failing] + [""]
    lines.append("%d tests cite no requirement." % uncited)
    return "\n".join(lines) + "\n"


def problems(rows, unknown, failing):
    """What makes the target fail, in words, one line each."""
    found = []
    uncovered = [r.id for r in rows if not r.passed]
    if uncovered:
        found.append("no passing test for: %s" % ", ".join(uncovered))
    if failing:
        found.append("%d test(s) failed: %s" % (len(failing), ", ".join(failing)))
    if unknown:
        found.append("req markers cite IDs not in the catalogue: %s" % ", ".join(unknown))
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sabot.conformance", description=__doc__.split("\n")[0])
    parser.add_argument("results", help="the JSON tests/conformance_plugin.py wrote")
    parser.add_argument("-o", "--output", default=str(ROOT / "docs" / "conformance.md"),
                        help="the matrix to write (default docs/conformance.md)")
    parser.add_argument("--requirements", default=str(ROOT / "docs" / "requirements.md"),
                        help="the catalogue (default docs/requirements.md)")
    args = parser.parse_args(argv)
    try:
        try:
            catalogue = Path(args.requirements).read_text(encoding="utf-8")
        except OSError as e:
            raise Unusable("%s: %s" % (args.requirements, e.strerror)) from None
        requirements = parse_requirements(catalogue)
        if not requirements:
            raise Unusable("%s: no requirement IDs in its tables" % args.requirements)
        results = load_results(args.results)
    except Unusable as e:
        print("conformance: error: %s" % e, file=sys.stderr)
        return 2
    rows, unknown, failing = matrix(requirements, results)
    output = Path(args.output)
    try:
        output.write_text(render(rows, unknown, failing, results), encoding="utf-8")
    except OSError as e:
        print("conformance: error: cannot write %s: %s" % (output, e.strerror), file=sys.stderr)
        return 2
    found = problems(rows, unknown, failing)
    for line in found:
        print("conformance: %s" % line, file=sys.stderr)
    print("conformance: %s written: %d of %d requirements met" % (output, sum(r.met for r in rows), len(rows)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
