"""Power cuts never accuse (issue 37; J-DURABLE, J-TAMPER, K-COUNTER): a cut anywhere in a day of a shoe with its
secure element, a checkpoint's append and the counter's increment included, or a second cut inside the power-up that
follows, leaves what the next power-up recognises as a cut: no rollback fault, and no J-TAMPER finding from
`sabot log verify` with the element's public key. A sample here; `make power-cuts` runs 20,000 and 20,000
(bench/power_cuts.py, its figures in bench/results.json)."""

import struct
import tempfile

import pytest

from bench import power_cuts
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import records as rec
from firmware.devkey import DEVELOPMENT_KEY
from firmware.format import checkpoint as cp
from sabot.journalfile import CODE, TYPE, Reader, load_segments


@pytest.mark.req("J-DURABLE", "J-TAMPER", "K-COUNTER")
def test_a_sample_of_single_and_double_cuts_over_a_day_raises_no_rollback_and_no_tamper_finding():
    runs, rollbacks, tampered, said = power_cuts.sample(40, 40, seed=2026)
    assert (runs, rollbacks, tampered) == (80, 0, 0), said


def writes_named(cut=0, second=0):
    """The names of the writes a day cut there makes, in order (the power-up's after the day's), and what it found."""
    named = []
    with tempfile.TemporaryDirectory() as folder:
        found = power_cuts.day(folder, cut, second, said=named)
    return named, found


@pytest.mark.req("J-DURABLE", "K-COUNTER")
@pytest.mark.parametrize("which", ["the increment", "the checkpoint's append"])
def test_a_cut_in_the_journals_first_checkpoint_is_a_cut_not_a_rollback(which):
    """The first power-up's checkpoint, its counter counted and its entry never whole: no entry yet, the counter 1,
    the journal's records there: a cut (format 4 called it a rollback, the file looking deleted)."""
    named, _ = writes_named()
    first = next(i for i, w in enumerate(named, 1) if (w == "element 24 01" if which == "the increment" else
                                                       w.startswith("checkpoint")))
    _, (made, rollback, found) = writes_named(first)
    assert made == first and rollback == 0 and found == []


@pytest.mark.req("J-DURABLE", "K-COUNTER")
def test_a_second_cut_in_the_checkpoint_of_a_power_up_that_began_a_segment_is_a_cut_not_a_rollback():
    """A card's frame torn in a coup: the power-up cuts it and begins the next segment; a second cut right after its
    checkpoint's increment leaves the counter one ahead of an entry in the segment before, which the next power-up
    reads again to find the entry's chain value there (checkpoints._chain_at)."""
    named, _ = writes_named()
    card = next(i for i, w in enumerate(named, 1) if i > 30 and w.startswith("frame") and w.endswith("type 5"))
    after, _ = writes_named(card)
    boot = after[card:]
    increment = boot.index("element 24 01") + 1
    assert "create" in " ".join(boot[:increment])  # the recovery's segment, before its checkpoint
    _, (_, rollback, found) = writes_named(card, increment)
    assert rollback == 0 and found == []


@pytest.mark.req("J-DURABLE", "K-COUNTER")
def test_an_entry_torn_by_a_cut_is_written_over_by_the_next_one_and_the_cut_journalled(tmp_path):
    named, _ = writes_named()
    append = [i for i, w in enumerate(named, 1) if w.startswith("checkpoint")][1]  # the séance's
    cuts = power_cuts.Cuts(append)
    chip = power_cuts.element(cuts)
    board = power_cuts._board(str(tmp_path), cuts, chip)
    with pytest.raises(power_cuts.PowerCut):
        run(parse(power_cuts.DAY), board)
    power_cuts._dropped(board)
    path = tmp_path / "journal" / cp.FILE
    assert path.stat().st_size % cp.SIZE == cp.SIZE // 2  # half an entry, as a host's file keeps a torn write
    verdicts = {"rollback": 0}
    board = power_cuts._boot(str(tmp_path), cuts, chip, verdicts)
    assert verdicts["rollback"] == 0 and path.stat().st_size % cp.SIZE == 0
    counters = [struct.unpack_from(cp.ENTRY, path.read_bytes(), i)[3] for i in range(0, path.stat().st_size, cp.SIZE)]
    assert counters == [1, 3]  # the torn entry's value spent, said by the power-up's record
    assert board.shell.ctl.alarms == 0
    board.power_cut()
    assert power_cuts._tamper(str(tmp_path)) == []
    kinds = [(r.fields[TYPE], r.fields[CODE]) for r in Reader(load_segments([tmp_path / "journal"]), DEVELOPMENT_KEY)]
    assert (rec.R_ELEMENT, 2) in kinds  # "counter 2 spent with no entry: a power cut during a checkpoint"
