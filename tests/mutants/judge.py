"""Plays scenarios on the sim board of a source tree and judges each journal with `sabot log verify`'s check,
against the unmutated tree's: started with the tree first on sys.path, so that a mutant's firmware writes the
journals while the verifier (host_tools, which never imports the controller or its tableau) reads them.

    python tests/mutants/judge.py TREE SCENARIOS.json REFERENCE --reference   # the unmutated tree's journals
    python tests/mutants/judge.py TREE SCENARIOS.json REFERENCE               # a mutant's verdict, one JSON line

A mutant is killed when a scenario's journal differs from the reference's and verify's findings on it differ
from the reference journal's (as a multiset of requirement and words); it survives when journals differ and
verify sees nothing new; it is equivalent on these scenarios when no journal differs.
"""

import json
import sys
from collections import Counter
from pathlib import Path


def play(text):
    """{segment number: bytes} the scenario leaves, and the exception that stopped the shoe, if any."""
    from boards.sim.board import SimBoard
    from boards.sim.flash import MemoryStorage
    from boards.sim.runner import run
    from boards.sim.scenario import parse

    storage = MemoryStorage(1 << 22)
    crash = None
    try:
        run(parse(text), SimBoard(storage, segment_records=64))
    except Exception as e:  # noqa: BLE001 - a mutant may break anything; what it wrote still counts
        crash = "%s: %s" % (type(e).__name__, e)
    return {n: bytes(d) for n, d in storage.files.items()}, crash


def findings(folder):
    from firmware.devkey import DEVELOPMENT_KEY
    from sabot.verify import check

    return [(f.id, f.message) for f in check([folder], DEVELOPMENT_KEY)[2]]


def write(folder, files):
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.sbj"):
        old.unlink()
    for n, data in files.items():
        (folder / ("%08d.sbj" % n)).write_bytes(data)
    return folder


def reference(texts, out):
    for i, text in enumerate(texts):
        files, crash = play(text)
        if crash:
            raise SystemExit("the unmutated tree crashes on scenario %d: %s" % (i, crash))
        folder = write(out / ("%05d" % i), files)
        (folder / "findings.json").write_text(json.dumps(findings(folder)))


def judge(texts, ref, scratch):
    changed = []
    crashed = None
    for i, text in enumerate(texts):
        files, crash = play(text)
        crashed = crashed or crash
        folder = ref / ("%05d" % i)
        if files == {int(p.stem): p.read_bytes() for p in folder.glob("*.sbj")}:
            continue
        changed.append(i)
        got = findings(write(scratch, files)) if files else [("unusable", "no journal")]
        before = json.loads((folder / "findings.json").read_text())
        if Counter(map(tuple, got)) != Counter(map(tuple, before)):
            new = sorted(set(map(tuple, got)) - set(map(tuple, before)))
            return {"verdict": "killed", "scenario": i, "changed": len(changed), "crash": crash,
                    "findings": [list(f) for f in new[:5]]}
    return {"verdict": "survived" if changed else "equivalent", "changed": len(changed),
            "scenario": changed[0] if changed else None, "crash": crashed}


if __name__ == "__main__":
    tree, scenarios, ref = sys.argv[1:4]
    sys.path.insert(0, tree)
    texts = json.loads(Path(scenarios).read_text())
    if "--reference" in sys.argv:
        reference(texts, Path(ref))
    else:
        print(json.dumps(judge(texts, Path(ref), Path(tree) / "scratch-journal")))
