"""`make mutants`: every mutant of firmware/controller.py, rules.py and tableau.py, hand-made and generated,
played on the bundled scenarios and random ones; each that changes a journal must be flagged by verify. Prints
the kill ratio and the survivors, and writes every verdict to build/mutants.json (and, as they come, to
build/mutants.jsonl). Not part of CI (about half an
hour on two cores); tests/host/test_mutants.py keeps the hand-made ones.

    python -m tests.mutants.run [--seeds N] [--workers N] [--only TEXT]
"""

import argparse
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.mutants import catalogue, mutate
from tests.mutants.scenarios import scenarios

JUDGE = Path(__file__).resolve().parent / "judge.py"
_HANG_S = 120  # a mutant's scenarios take seconds; one that has not finished by then loops (a watchdog reset)


class Bench:
    """A copy of the tree per worker, the scenarios and the unmutated tree's journals and findings."""

    def __init__(self, folder, texts, workers):
        self.folder = Path(folder)
        self.scenarios = self.folder / "scenarios.json"
        self.scenarios.write_text(json.dumps(texts))
        self.reference = self.folder / "reference"
        self.trees = [mutate.copy_tree(self.folder / ("tree%d" % w)) for w in range(workers)]
        subprocess.run([sys.executable, str(JUDGE), str(self.trees[0]), str(self.scenarios), str(self.reference),
                        "--reference"], check=True)

    def judge(self, tree, path, source):
        """A mutant's verdict (judge.py's), its source in place of path's in the tree for the run only."""
        target = tree / path
        pristine = (mutate.ROOT / path).read_text()
        target.write_text(source)
        try:
            run = subprocess.run([sys.executable, str(JUDGE), str(tree), str(self.scenarios), str(self.reference)],
                                 capture_output=True, text=True, timeout=_HANG_S)
        except subprocess.TimeoutExpired:
            return {"verdict": "hung", "crash": "no verdict in %d s: the mutant loops" % _HANG_S}
        finally:
            target.write_text(pristine)
        if run.returncode != 0 or not run.stdout.strip():
            return {"verdict": "killed", "crash": "the judge failed: %s" % run.stderr.strip()[-300:]}
        return json.loads(run.stdout)


def mutants(only=None):
    for name, path, old, new in catalogue.MUTANTS:
        yield "hand-made: " + name, path, mutate.patched(path, old, new)
    yield from mutate.generated()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=40, help="random scenarios besides the bundled (default 40)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", help="only the mutants whose name contains this text")
    parser.add_argument("--again", metavar="JSON", help="only the mutants a run's verdicts (its --out) did not show "
                        "killed by verify: its survivors, and the ones whose judge failed")
    parser.add_argument("--out", default=str(mutate.ROOT / "build" / "mutants.json"))
    args = parser.parse_args(argv)
    todo = [m for m in mutants() if not args.only or args.only in m[0]]
    if args.again:
        again = {v["name"] for v in json.loads(Path(args.again).read_text())
                 if v["verdict"] != "killed" or (v.get("crash") or "").startswith("the judge failed")}
        todo = [m for m in todo if m[0] in again]
    with tempfile.TemporaryDirectory(prefix="sabot-mutants-") as folder:
        texts = scenarios(args.seeds)
        bench = Bench(folder, texts, args.workers)
        free = list(bench.trees)

        def one(mutant):
            tree = free.pop()
            try:
                return dict(bench.judge(tree, mutant[1], mutant[2]), name=mutant[0])
            finally:
                free.append(tree)

        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(args.workers) as pool, open(args.out + "l", "w") as progress:
            verdicts = []
            for verdict in pool.map(one, todo):  # each as it comes, a line, for a run followed or cut short
                verdicts.append(verdict)
                progress.write(json.dumps(verdict) + "\n")
                progress.flush()
    Path(args.out).write_text(json.dumps(verdicts, indent=1))
    counts = {v: sum(1 for r in verdicts if r["verdict"] == v) for v in ("killed", "survived", "equivalent", "hung")}
    changing = counts["killed"] + counts["survived"]
    print("%d mutants: %d change a journal, %d of them flagged by verify (kill ratio %.1f%%); %d change no journal "
          "on these %d scenarios; %d loop (no journal to judge)" % (
              len(verdicts), changing, counts["killed"], 100.0 * counts["killed"] / max(changing, 1),
              counts["equivalent"], len(texts), counts["hung"]))
    for r in verdicts:
        if r["verdict"] == "survived":
            print("  survived: %s (scenario %s)" % (r["name"], r["scenario"]))
    print("verdicts in %s" % args.out)
    return 0 if counts["survived"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
