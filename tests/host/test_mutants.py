"""Mutants of the controller and its tableau, each a rule broken: every one changes a journal of the bundled or
random scenarios, and verify flags that journal (H-VERIFY). The full run, generated mutants too, is `make
mutants` (tests/mutants/run.py)."""

import pytest

from tests.mutants import catalogue, mutate
from tests.mutants.run import Bench
from tests.mutants.scenarios import scenarios

SEEDS = 20


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    return Bench(tmp_path_factory.mktemp("mutants"), scenarios(SEEDS), 1)


@pytest.mark.req("H-VERIFY", "T-CF", "T-DT", "S-LOCK", "S-ONE", "S-BURN", "S-FORCED", "S-STOP", "J-EVERY",
                 "J-DURABLE")
@pytest.mark.parametrize("mutant", catalogue.MUTANTS, ids=[m[0] for m in catalogue.MUTANTS])
def test_each_hand_made_mutant_changes_a_journal_and_verify_flags_it(bench, mutant):
    name, path, old, new = mutant
    verdict = bench.judge(bench.trees[0], path, mutate.patched(path, old, new))
    assert verdict["verdict"] == "killed" and not verdict.get("crash"), verdict


@pytest.mark.req("T-CF", "T-DT", "H-VERIFY")
def test_a_wrong_cell_planted_in_the_firmwares_tableau_is_a_faux_tirage_to_verify(bench):
    """The verifier's tableau is its own (sabot.tableau_oracle): a ponte who stands on 4 in a copy of the
    firmware deals coups that verify flags as drawn against the tableau."""
    name, path, old, new = catalogue.MUTANTS[0]
    assert "stands on 4" in name
    verdict = bench.judge(bench.trees[0], path, mutate.patched(path, old, new))
    assert verdict["verdict"] == "killed", verdict
    assert any(rid in ("T-CF", "T-DT") and "the tableau gives the next card to" in words
               for rid, words in verdict["findings"]), verdict
