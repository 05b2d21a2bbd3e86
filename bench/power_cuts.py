"""Power cuts with the secure element (issue 37, "Power cuts never accuse"): a day of a shoe on the sim board with the
element's model (séance, loads, burns, coups, a forced card and its clear, a double feed, the séance closed), cut
once, or twice (the second inside the power-up that follows the first), at any of its writes: a journal frame (its
bytes torn half way), a segment's create, a checkpoint's append (torn half way, as a host's file keeps it), any
command to the element (after it: an increment made whose answer never came back, sometimes one more count, as the
datasheet allows on a power loss). After each, the shoe is powered on until a boot runs through; no boot may raise
the rollback fault, and `sabot log verify` with the element's public key may find no J-TAMPER (the receipt's
absence aside). `python -m bench.power_cuts [SINGLE DOUBLE]` (`make power-cuts`: 20,000 and 20,000) writes its
figures to bench/results.json; tests/host/test_power_cuts_element.py runs a sample."""

import io
import json
import random
import sys
import tempfile
from pathlib import Path

from bench.report import figure

DAY = """seance table=3
shoe seed=4
burn 2
no_more_bets
draw 6
no_more_bets
draw 6
force
clear_alarm
no_more_bets
draw 6
no_more_bets
draw 2
double
draw
clear_alarm
no_more_bets
draw 6
shoe seed=9
no_more_bets
draw 6
no_more_bets
draw 6
seance_close
"""


class PowerCut(Exception):
    """The power fails: nothing after it runs."""


class Cuts:
    """Counts the shoe's writes; raises PowerCut at the one asked (1 for the first), its effect left as a cut leaves
    it. extra: one more count on an increment cut."""

    def __init__(self, at=0, extra=0):
        self.at = at
        self.n = 0
        self.extra = extra
        self.said = None  # a list: each write's name, for whoever looks into a cut

    def step(self, what=""):
        self.n += 1
        if self.said is not None:
            self.said.append(what)
        return self.n == self.at


def element(cuts):
    """The element's model, its commands counted in cuts: the same chip across the power cuts."""
    from boards.mcu.atecc import COUNTER, COUNTER_INCREMENT
    from boards.sim.element import DEVELOPMENT_SEED, SimElement

    class Element(SimElement):
        def _execute(self, body):
            answer = SimElement._execute(self, body)  # done: the cut takes its answer
            if cuts.step("element %02x %02x" % (body[1], body[2])):
                if body[1] == COUNTER and body[2] == COUNTER_INCREMENT:
                    self._counters[0] += cuts.extra
                raise PowerCut
            return answer

    return Element(DEVELOPMENT_SEED)


def _parts(folder, cuts, chip):
    """A board's parts whose writes count in cuts: the journal's files, the checkpoints'; the element's driver."""
    from boards.mcu.atecc import ATECC
    from firmware.checkpoints import Checkpoints
    from firmware.storage import FileStorage
    from tests.core.test_element import Bus

    class Storage(FileStorage):
        def append(self, segment, frame, chain):
            if cuts.step("frame %d type %d" % (segment, frame[6])):
                FileStorage.append(self, segment, bytes(frame[:len(frame) // 2]), chain)  # torn
                raise PowerCut
            FileStorage.append(self, segment, frame, chain)

        def create(self, segment, data):
            if cuts.step("create %d" % segment):
                raise PowerCut  # before the rename: none of it
            FileStorage.create(self, segment, data)

    class Points(Checkpoints):
        def _write(self, entry):
            if cuts.step("checkpoint reason %d" % entry[1]):
                Checkpoints._write(self, bytes(entry[:len(entry) // 2]))  # torn, where a host's file keeps it
                raise PowerCut
            Checkpoints._write(self, entry)

    storage = Storage(folder + "/journal")
    bus = Bus(chip)
    return storage, Points(folder + "/journal", ATECC(bus, bus.sleep_ms), 1)


def _board(folder, cuts, chip):
    from boards.sim.board import SimBoard

    storage, points = _parts(folder, cuts, chip)
    board = SimBoard(storage)
    board.checkpoints = points
    board.key = points.key()
    return board


def _dropped(board):
    """The board as a power cut leaves it: nothing more written (no orderly close, which would create the segment a
    recovery staged), its files' handles let go."""
    if board is not None and board.shell is not None:
        board.shell.journal.storage.close()


def _boot(folder, cuts, chip, verdicts):
    """Power on until a boot runs through (each cut in it counted), then the rollback fault looked for."""
    from firmware.records import FAULT_ROLLBACK

    while True:
        board = None
        try:
            board = _board(folder, cuts, chip)  # its element's public key read, as make_shell does at boot
            board.power_on()
        except PowerCut:
            _dropped(board)
            continue
        verdicts["rollback"] += bool(board.shell.ctl.raised(FAULT_ROLLBACK))
        return board


def day(folder, cut=0, second=0, extra=0, said=None):
    """The day, cut at its write `cut` (0: none) and, after it, at the power-up's write `second` (0: none); then
    powered on again. (writes the day made up to the first cut or its end, rollback faults, J-TAMPER findings). said:
    a list given gets each write's name, the day's then the power-ups'."""
    from boards.sim.runner import run
    from boards.sim.scenario import parse

    verdicts = {"rollback": 0}
    cuts = Cuts(cut, extra)
    cuts.said = said
    chip = element(cuts)
    board = None
    try:
        board = _board(folder, cuts, chip)
        run(parse(DAY), board)
        board.power_cut()
    except PowerCut:
        _dropped(board)
    made = cuts.n
    cuts.at, cuts.n, cuts.extra = second, 0, 0
    _boot(folder, cuts, chip, verdicts).power_cut()
    return made, verdicts["rollback"], _tamper(folder)


def _tamper(folder):
    from boards.sim.element import DEVELOPMENT_SEED, journal_key
    from sabot.receipts import NO_RECEIPT
    from sabot.verify import verify

    key = Path(folder) / "element.pub"
    key.write_text(journal_key(DEVELOPMENT_SEED).hex() + "\n")
    out = io.StringIO()
    verify([folder + "/journal"], None, True, out=out, allow_development_key=True, public_key=key)
    return [f["message"] for f in json.loads(out.getvalue())["findings"]
            if f["id"] == "J-TAMPER" and f["message"] != NO_RECEIPT]


def writes():
    """How many writes the day makes, uncut."""
    with tempfile.TemporaryDirectory() as folder:
        return day(folder)[0]


def sample(single, double, seed=37):
    """(runs, rollback faults, runs with a J-TAMPER finding, the first such findings) over single cuts spread over
    every write of the day and double cuts (the second in the power-up's writes)."""
    rng = random.Random(seed)
    total = writes()
    runs = rollbacks = tampered = 0
    said = []
    for i in range(single + double):
        cut = rng.randrange(1, total + 1)
        second = rng.randrange(1, 12) if i >= single else 0  # a power-up makes some ten writes
        extra = 1 if rng.random() < 0.25 else 0
        with tempfile.TemporaryDirectory() as folder:
            _, rollback, found = day(folder, cut, second, extra)
        runs += 1
        rollbacks += rollback
        tampered += bool(found)
        if (rollback or found) and len(said) < 5:
            said.append((cut, second, extra, rollback, found))
    return runs, rollbacks, tampered, said


def measure(single, double):
    runs, rollbacks, tampered, said = sample(single, double)
    how = ("%d single and %d double cuts (the second in the power-up) spread over the %d writes of a day on the sim "
           "board with the element's model (bench/power_cuts.py)" % (single, double, writes()))
    return {"power_cuts.rollback_faults": figure(rollbacks, "faults", how),
            "power_cuts.tamper_findings": figure(tampered, "runs", how)}, said


def main(argv):
    single, double = (int(argv[0]), int(argv[1])) if len(argv) == 2 else (20000, 20000)
    figures, said = measure(single, double)
    results = Path(__file__).resolve().parent / "results.json"
    data = json.loads(results.read_text())
    data["figures"].update(figures)
    results.write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps(figures, indent=1))
    for one in said:
        print("cut at write %d, then %d (extra %d): rollback %d, %s" % one)
    return 1 if any(f["value"] for f in figures.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
