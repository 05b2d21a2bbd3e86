"""J-DURABLE through the write-ahead ring on the MicroPython VM, its archive the littlefs the boards run: the power
cut at every program and erase of both chips over a whole shoe (tests/vm/ring_powercut.py), and the host's verifier
on a sample of the journals recovered after those cuts."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from firmware.devkey import DEVELOPMENT_KEY
from sabot.verify import check
from tests.conftest import ROOT, SCENARIOS, micropython, patched_build

SCRIPT = ROOT / "tests" / "vm" / "ring_powercut.py"
SHARDS = 2  # this machine's cores
SEGMENTS = {"short segments": 32, "whole segments": 0}  # headers through the ring two dozen times a shoe; or files
# that grow past littlefs blocks, each drain splitting the frame its blocks end in (tests/host/test_ring_powercut.py)
SECTORS = 4  # 16 KB: a shoe's 14 KB of entries in short segments go round it
SAMPLE = 50


def _run(build, cwd, shard, out=None, script=SCRIPT, segment_records=SEGMENTS["short segments"]):
    args = [str(script), "--shard", shard, "--segment-records", str(segment_records), "--sample", str(SAMPLE),
            "--sectors", str(SECTORS),
            "--scenario", str(SCENARIOS / "full_shoe_chemin_de_fer.txt")] + (["--out", str(out)] if out else [])
    return micropython(args, str(build), cwd=cwd, heapsize="16M")


def _figures(run):
    uncut = re.search(r"^uncut run: (\d+) ring programs, (\d+) ring erases, (\d+) littlefs programs, (\d+) littlefs "
                      r"erases, (\d+) records for (\d+) cards", run.stdout, re.M)
    cuts = re.search(r"^cuts checked: (\d+), failures: (\d+) .*of (\d+) ops; release reported uncertain (\d+); (\d+) "
                     r"journals copied", run.stdout, re.M)
    assert uncut and cuts, run.stdout[-4000:] + run.stderr[-4000:]
    return [int(n) for n in uncut.groups()], [int(n) for n in cuts.groups()]


@pytest.fixture(scope="module", params=sorted(SEGMENTS))
def sweep(request, mpy_build, tmp_path_factory):
    out = tmp_path_factory.mktemp("ring-recovered")
    records = SEGMENTS[request.param]
    with ThreadPoolExecutor(SHARDS) as pool:
        runs = list(pool.map(lambda i: _run(mpy_build, tmp_path_factory.mktemp("vm"), "%d/%d" % (i, SHARDS), out,
                                            segment_records=records), range(SHARDS)))
    return runs, out, records


@pytest.mark.req("J-DURABLE", "J-EVERY")
def test_no_durable_record_is_lost_at_any_cut_of_the_ring_or_its_drain(sweep):
    runs, _, segment_records = sweep
    for run in runs:
        assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    figures = [_figures(run) for run in runs]
    uncut, _ = figures[0]
    ring_programs, ring_erases, lfs_programs, lfs_erases, records, cards = uncut
    assert all(f[0] == uncut for f in figures)  # the shards ran the same shoe
    checked = sum(f[1][0] for f in figures)
    assert sum(f[1][1] for f in figures) == 0
    ops = figures[0][1][2]
    assert ops == ring_programs + ring_erases + lfs_programs + lfs_erases
    assert checked == 2 * ops  # every op of both chips, before it and half-way through it
    # littlefs mounted as the rp2 port does (progsize=256): fewer, whole-page programs than its default 32's
    # (9 littlefs erases for the whole segments' shoe since format 5's 182-byte headers, 10 before)
    assert lfs_erases >= 9 and ring_erases > (SECTORS if segment_records else 2)  # short segments: round the ring
    assert sum(f[1][3] for f in figures) > 300  # cuts during a release: recovery reported them
    assert cards > 300 and records > 2 * cards
    print("\nring power cuts on the VM: %d checked over %d ring programs, %d ring erases, %d littlefs programs and "
          "%d littlefs erases of a %d-card shoe, 0 failures" % (checked, ring_programs, ring_erases, lfs_programs,
                                                                lfs_erases, cards))


@pytest.mark.req("J-DURABLE", "J-TAMPER")
def test_journals_recovered_after_ring_cuts_verify_intact(sweep):
    runs, out, _ = sweep
    folders = sorted(p for p in out.iterdir() if p.is_dir())
    assert len(folders) == sum(_figures(run)[1][4] for run in runs) > 30  # progsize=256: fewer programs to cut
    uncertain = 0
    for folder in folders:
        _, reader, findings = check([folder], DEVELOPMENT_KEY)
        assert reader.records > 0 and reader.torn == 0, folder.name
        assert not [(f.seq, f.message) for f in findings if f.id == "J-TAMPER"], folder.name
        uncertain += any(f.id == "J-DURABLE" for f in findings)
    assert uncertain > 0


@pytest.mark.req("J-DURABLE")
def test_the_ring_check_would_catch_a_frame_never_programmed(mpy_build, tmp_path):
    """A ring whose write() returns before programming its frame must fail the sweep, or it proves nothing."""
    patched = patched_build(mpy_build, tmp_path, "ring", "        self._program(size)\n", "")
    run = _run(patched, tmp_path, "0/40")
    assert run.returncode == 1, run.stdout[-4000:] + run.stderr[-4000:]
