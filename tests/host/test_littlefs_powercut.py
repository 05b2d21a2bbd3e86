"""J-DURABLE on the filesystem the boards run: littlefs in the MicroPython VM, on a RAM flash chip that loses
power at every program and erase of a whole shoe (tests/vm/lfs_powercut.py), and the host's verifier on a
sample of the journals recovered after those cuts."""

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from firmware.devkey import DEVELOPMENT_KEY
from sabot.receipts import NO_RECEIPT
from sabot.verify import check
from tests.conftest import ROOT, SCENARIOS, micropython, patched_build

SCRIPT = ROOT / "tests" / "vm" / "lfs_powercut.py"
SHARDS = 2  # this machine's cores: each shard replays the whole run and checks every other cut
SEGMENT_RECORDS = 64  # a new segment every 64 records: cuts while one is created and renamed, a dozen times a shoe
SAMPLE = 50  # every 50th cut's recovered journal goes to the host's verifier
SABOT = str(Path(sys.executable).parent / "sabot")


@pytest.fixture(scope="module")
def powercut(mpy_build, tmp_path_factory):
    """The shards' outputs, and the folder of recovered journals they copied out."""
    out = tmp_path_factory.mktemp("recovered")

    def shard(index):
        return micropython([str(SCRIPT), "--out", str(out), "--shard", "%d/%d" % (index, SHARDS),
                            "--segment-records", str(SEGMENT_RECORDS), "--sample", str(SAMPLE),
                            "--scenario", str(SCENARIOS / "full_shoe_chemin_de_fer.txt")],
                           str(mpy_build), cwd=tmp_path_factory.mktemp("vm"), heapsize="16M")

    with ThreadPoolExecutor(SHARDS) as pool:
        runs = list(pool.map(shard, range(SHARDS)))
    return runs, out


def _figures(run):
    text = run.stdout
    uncut = re.search(r"^uncut run: (\d+) programs, (\d+) erases, (\d+) records for (\d+) cards", text, re.M)
    cuts = re.search(r"^cuts checked: (\d+), failures: (\d+) .*release reported uncertain (\d+); (\d+) journals "
                     r"copied out", text, re.M)
    erases = re.search(r"^erases per card: (\d+\.\d+)$", text, re.M)
    assert uncut and cuts and erases, text + run.stderr
    return [int(n) for n in uncut.groups()], [int(n) for n in cuts.groups()], float(erases.group(1))


@pytest.mark.req("J-DURABLE", "J-EVERY")
def test_no_durable_record_is_lost_at_any_power_cut_on_littlefs(powercut):
    runs, _ = powercut
    for run in runs:
        assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    figures = [_figures(run) for run in runs]
    (programs, erases, records, cards), _, per_card = figures[0]
    assert all(f[0] == figures[0][0] and f[2] == per_card for f in figures)  # the shards ran the same shoe
    checked = sum(f[1][0] for f in figures)
    assert sum(f[1][1] for f in figures) == 0
    # Every program and erase cut before it and half-way through it, and three cuts made for real by the chip.
    assert checked == 2 * (programs + erases) + 3
    assert sum(f[1][2] for f in figures) > 0  # cuts during a release: recovery reported them (J-DURABLE)
    assert cards > 300 and records > 2 * cards  # a whole shoe: each card a release and a card record
    assert per_card > 0
    print("\nlittlefs power cuts: %d checked over %d programs and %d erases of a %d-card shoe, 0 failures; "
          "erases per card: %.2f" % (checked, programs, erases, cards, per_card))


@pytest.mark.req("J-DURABLE", "J-EVERY")
def test_journals_recovered_after_power_cuts_verify_intact(powercut):
    runs, out = powercut
    folders = sorted(p for p in out.iterdir() if p.is_dir())
    copied = sum(_figures(run)[1][3] for run in runs)
    assert len(folders) == copied > 100
    uncertain = 0
    for folder in folders:
        _, reader, findings = check([folder], DEVELOPMENT_KEY)
        assert reader.records > 0 and reader.torn == 0, folder.name
        assert not [(f.seq, f.message) for f in findings if f.id == "J-TAMPER"], folder.name
        uncertain += any(f.id == "J-DURABLE" for f in findings)
    assert uncertain > 0  # the verifier shows the releases whose outcome the recovery could not know
    last = folders[-1]
    verify = subprocess.run([SABOT, "log", "verify", str(last), "--json"], capture_output=True, text=True,
                            timeout=60)
    assert verify.returncode in (0, 1), verify.stderr
    report = json.loads(verify.stdout)
    assert report["intact"] and all(f["id"] == "J-DURABLE" or f["message"] == NO_RECEIPT for f in report["findings"])


@pytest.mark.req("J-DURABLE")
def test_the_power_cut_check_would_catch_a_record_not_flushed(mpy_build, tmp_path):
    """A journal that returns from append() before its record is on flash must fail, or the check proves nothing."""
    patched = patched_build(mpy_build, tmp_path, "storage", "        stream.flush()\n", "")
    run = micropython([str(SCRIPT), "--shard", "0/40", "--segment-records", str(SEGMENT_RECORDS),
                       "--scenario", str(SCENARIOS / "full_shoe_chemin_de_fer.txt")],
                      str(patched), cwd=tmp_path, heapsize="16M")
    assert run.returncode == 1, run.stdout[-4000:] + run.stderr[-4000:]
    assert "the run had made seq" in run.stdout
