"""`sabot fleet synth` interrupted (issue 40, item 16): the fleet is written into .ROOT.partial beside its folder and
renamed once whole, so a Ctrl-C leaves nothing at the folder a rerun would refuse; what a killed run left beside it,
its mark inside, the rerun clears; a folder it did not make, it never deletes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sabot.fleet import synth

SABOT = str(Path(sys.executable).parent / "sabot")


@pytest.mark.req("F-INGEST")
def test_a_ctrl_c_leaves_no_half_fleet_and_the_rerun_writes_it_whole(tmp_path, monkeypatch):
    root = tmp_path / "fleet"
    ledgers = []

    def interrupted(*args, **kwargs):
        ledgers.append(args[0])
        if len(ledgers) == 2:
            raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(synth, "write_ledger", interrupted)
        with pytest.raises(KeyboardInterrupt):
            synth.generate(root, 5, 4, days=2, anomalies=False)
    assert ledgers and not root.exists() and list(tmp_path.iterdir()) == []  # what it wrote, gone
    done = subprocess.run([SABOT, "fleet", "synth", root, "--sabots", "4", "--days", "2", "--clean", "--seed", "5"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads((root / "plan.json").read_text())["seed"] == 5 and sorted(p.name for p in tmp_path.iterdir()) \
        == ["fleet"] and not (root / synth._MARK).exists()


@pytest.mark.req("F-INGEST")
def test_what_a_killed_run_left_is_cleared_and_a_folder_it_did_not_make_is_refused(tmp_path):
    root = tmp_path / "fleet"
    left = synth.partial(root)  # a run killed at once (kill -9): its folder, its mark inside
    (left / "casino").mkdir()
    plan = synth.generate(root, 5, 4, days=2, anomalies=False)
    assert plan["casinos"] and (root / "plan.json").is_file() and not left.exists()
    other = tmp_path / "other"
    theirs = tmp_path / ".other.partial"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("someone's")
    done = subprocess.run([SABOT, "fleet", "synth", other, "--sabots", "4", "--clean"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and ".other.partial" in done.stderr
    assert (theirs / "notes.txt").read_text() == "someone's" and not other.exists()
    again = subprocess.run([SABOT, "fleet", "synth", root, "--sabots", "4", "--clean"], capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 2 and "not empty" in again.stderr  # a whole fleet is never written over
