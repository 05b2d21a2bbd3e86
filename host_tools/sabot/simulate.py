"""`sabot sim`: plays a scenario on the sim board, in this CPython or inside a MicroPython VM (sabot/vms.py)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import boards.sim.runner
from boards.sim import bounds
from boards.sim.scenario import ScenarioError, parse
from firmware.devkey import DEVELOPMENT_KEY
from firmware.layout import HEADER_SIZE, MAGIC
from firmware.mac import Key
from sabot import receipts, vms
from sabot.journalfile import Segment, Unusable
from sabot.vms import ROOT

# bytes: a scenario of the 65535 actions the check accepts fits in some hundreds of kilobytes; the MicroPython runner
# reads the file whole for the receipt's nonce, and after a 40-shoe run 1 MB ran out of the unix port's default heap
# (512 KB did not); /dev/zero is refused too
_SCENARIO_MOST = 512 << 10


def run_on_micropython(argv, path=None, heapsize=None, vm="micropython"):
    """Run the sim runner inside a MicroPython VM; path is where it imports firmware from."""
    command = vms.command(vm)
    if heapsize:
        command += ["-X", "heapsize=%s" % heapsize]
    env = dict(os.environ, MICROPYPATH=str(path or ROOT))
    return subprocess.run(command + ["-m", "boards.sim.runner"] + argv, env=env).returncode


def simulate(scenario, runtime, log, trace, force=False, quiet=False):
    """Check everything a run needs before it starts, then run; the journal (a folder of segments) takes its
    place only when complete, so a failed run loses nothing that was there."""
    try:
        with open(scenario, "rb") as f:
            text = f.read(_SCENARIO_MOST + 1)
        if len(text) > _SCENARIO_MOST:
            return _fail("%s is larger than a scenario (%d KB at most)" % (scenario, _SCENARIO_MOST >> 10))
        bounds.check(parse(text.decode("utf-8"), scenario), scenario)
    except OSError as e:
        return _fail("cannot read scenario %s: %s" % (scenario, e.strerror))
    except UnicodeError:
        return _fail("%s is not a UTF-8 text file" % scenario)
    except ScenarioError as e:
        return _fail(str(e))
    stem = Path(scenario).stem
    log = Path(log or Path("build/runs") / (stem + ".journal"))
    trace = Path(trace or log.with_suffix(".trace.jsonl"))
    if log.exists() and not log.is_dir():
        return _fail("%s exists and is not a journal folder: give another --log" % log)
    if log.is_dir() and not force and not _simulated(log):
        return _fail("%s holds files other than the simulator's journal: give another --log, or --force to "
                     "replace it" % log)
    if trace.exists() and not force and not _a_trace(trace):
        return _fail("%s is not a trace the simulator wrote: give another --trace, or --force to replace it" % trace)
    partial = log.with_name(log.name + ".partial")
    try:
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        trace.parent.mkdir(parents=True, exist_ok=True)
        trace.write_bytes(b"")
    except OSError as e:
        return _fail("cannot write %s: %s" % (e.filename or partial, e.strerror or e))
    argv = [str(scenario), "--log", str(partial), "--trace", str(trace), "--receipt"] + (["--quiet"] if quiet else [])
    if runtime in vms.NAMES:
        status = run_on_micropython(argv, vm=runtime)
    else:
        sys.stdout.flush()
        status = boards.sim.runner.main(argv)
    if status != 0:
        return status
    if log.is_dir():
        shutil.rmtree(log)
    partial.replace(log)
    print("journal: %s\ntrace:   %s" % (log, trace))
    return 0


def _simulated(folder):
    """Whether a folder holds nothing but segments signed with the development key and the receipt the simulator
    tags under it (--receipt): a journal the simulator wrote, which a new run may replace (a shoe's journal, under
    its own key, never is)."""
    development = Key(DEVELOPMENT_KEY).id
    for path in folder.iterdir():
        if path.name == receipts.NAME and path.is_file():
            try:
                if receipts.load(path).key_id == development:
                    continue
            except Unusable:
                pass
            return False
        if path.suffix != ".sbj" or not path.is_file():
            return False
        with open(path, "rb") as f:
            header = f.read(HEADER_SIZE)
        if len(header) < HEADER_SIZE or header[:3] != MAGIC or Segment(path, header).key_id != development:
            return False
    return True


def _a_trace(path):
    """Whether a file is empty or a JSON Lines trace of a run ({"t": ...), which a new run may replace."""
    if not path.is_file():
        return False
    with open(path, "rb") as f:
        return f.read(5) in (b"", b'{"t":')


def _fail(message):
    print("sabot sim: error: %s" % message, file=sys.stderr)
    return 2
