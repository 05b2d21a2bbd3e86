"""Plays scenarios on the sim board of a source tree and writes each journal's segments, for the mutation run
(tests/mutants/run.py): started with that tree first on sys.path, so a mutant's firmware writes them.

    python tests/mutants/play.py TREE SCENARIOS.json OUT
"""

import json
import sys


def play(texts, out):
    from pathlib import Path

    from boards.sim.board import SimBoard
    from boards.sim.flash import MemoryStorage
    from boards.sim.runner import run
    from boards.sim.scenario import parse

    for i, text in enumerate(texts):
        storage = MemoryStorage(1 << 22)
        folder = Path(out) / ("%05d" % i)
        folder.mkdir(parents=True)
        try:
            run(parse(text), SimBoard(storage, segment_records=64))
        except Exception as e:  # a mutant that crashes the shoe leaves what it wrote: the journal still counts
            (folder / "crash.txt").write_text("%s: %s" % (type(e).__name__, e))
        for n, data in storage.files.items():
            (folder / ("%08d.sbj" % n)).write_bytes(bytes(data))


if __name__ == "__main__":
    tree, scenarios, out = sys.argv[1:4]
    sys.path.insert(0, tree)
    with open(scenarios) as f:
        play(json.load(f), out)
