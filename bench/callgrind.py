"""Instructions counted by valgrind's callgrind: exact and repeatable on a loaded machine, where times are not.
Only MicroPython's main_ is counted (the unix port's entry), not the CPython process the venv's `micropython`
command runs the port inside. valgrind is installed with apt-get when missing (root, or sudo without a password)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from bench import vmrun

WORKERS = 2  # callgrind runs at a time: most of a run is valgrind starting the CPython around the port

_state = {}


def available():
    """(True, "") when valgrind can run, else (False, why): the figures it gives are then skipped, saying so."""
    if "answer" not in _state:
        _state["answer"] = _find_or_install()
    return _state["answer"]


def _find_or_install():
    if shutil.which("valgrind"):
        return True, ""
    prefix = []
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            return False, "valgrind is not installed and installing it needs root (no sudo)"
        prefix = ["sudo", "-n"]
    if not shutil.which("apt-get"):
        return False, "valgrind is not installed and there is no apt-get to install it"
    print("bench: installing valgrind (apt-get update; apt-get install -y valgrind)", file=sys.stderr)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "valgrind"]):
        done = subprocess.run(prefix + command, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            return False, "could not install valgrind: %s: %s" % (" ".join(command), done.stderr.strip()[-300:])
    if not shutil.which("valgrind"):
        return False, "apt-get installed valgrind but it is not on PATH"
    return True, ""


def instructions(command, env, cwd):
    """Instructions executed inside MicroPython's main_ by `command` (a micropython invocation)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        done = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=main_",
                               "--callgrind-out-file=" + out] + command,
                              env=env, cwd=str(cwd), capture_output=True, text=True, timeout=vmrun.TIMEOUT)
        if done.returncode != 0:
            raise RuntimeError("callgrind %s failed (%d):\n%s%s" % (" ".join(command), done.returncode,
                                                                    done.stdout[-2000:], done.stderr[-2000:]))
        with open(out) as f:
            text = f.read()
    found = re.search(r"^totals:\s+(\d+)", text, re.M) or re.search(r"^summary:\s+(\d+)", text, re.M)
    if not found or int(found.group(1)) == 0:
        raise RuntimeError("callgrind counted nothing in main_: is %s the MicroPython unix port?" % command[0])
    return int(found.group(1))


def vm_instructions(script, args, build_dir, cwd, heapsize="64K"):
    """Instructions of a bench/vm script run on the MicroPython VM."""
    return instructions(vmrun.vm_command(script, args, heapsize), vmrun.vm_env(cwd, build_dir), cwd)


def vm_instructions_all(jobs, build_dir, heapsize="64K"):
    """{name: instructions} for jobs {name: (script, args, cwd)}, WORKERS at a time."""
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = {name: pool.submit(vm_instructions, script, args, build_dir, cwd, heapsize)
                   for name, (script, args, cwd) in jobs.items()}
        return {name: future.result() for name, future in futures.items()}
