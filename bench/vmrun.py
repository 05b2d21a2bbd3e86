"""How the bench runs code: `make mpy` for a board, the venv's MicroPython unix port on a build, CPython on the
sources. The VM runs in a scratch folder that holds links `firmware` and `boards` (the build's, at the folder's root
as on a board's filesystem) and `drv` (the compiled drivers of bench/vm) and imports through them: no sources in its
way, and the same short paths in its heap wherever the clone and the scratch folder are, so that instruction counts
and heap figures do not depend on them. A module's __file__ (firmware/journal.mpy) is then the source name make mpy
gives its code: one string in the heap for both."""

import atexit
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sabot import vms

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
MICROPYTHON = str(BIN / "micropython")
VM_SCRIPTS = ROOT / "bench" / "vm"
TIMEOUT = 900
_drivers = {}


def build(board="sim"):
    """The board's .mpy build, made or brought up to date by the Makefile."""
    subprocess.run(["make", "-s", "-C", str(ROOT), "mpy", "BOARD=" + board], check=True, capture_output=True,
                   timeout=TIMEOUT)
    return ROOT / "build" / board


def drivers():
    """bench/vm/*.py compiled by mpy-cross (a .py would be compiled in the VM's small heap), once a process."""
    if "folder" not in _drivers:
        folder = tempfile.mkdtemp(prefix="sabot-bench-drivers-")
        atexit.register(shutil.rmtree, folder, True)
        for source in VM_SCRIPTS.glob("*.py"):
            subprocess.run([str(BIN / "mpy-cross"), "-o", "%s/%s.mpy" % (folder, source.stem), str(source)],
                           check=True, capture_output=True, timeout=TIMEOUT)
        _drivers["folder"] = folder
    return _drivers["folder"]


def link(cwd, name, target):
    """cwd/name -> target; returns name, the relative path to give the VM."""
    path = Path(cwd) / name
    if not path.is_symlink():
        path.symlink_to(Path(target).resolve())
    return name


def vm_env(cwd, build_dir):
    """The VM's environment for a run in cwd: it imports the build's packages from cwd ('' first in its path, as a
    board imports from its filesystem's root), then the drivers; ./micropython is the VM."""
    for package in ("firmware", "boards"):
        link(cwd, package, Path(build_dir) / package)
    link(cwd, "drv", drivers())
    link(cwd, "micropython", MICROPYTHON)
    return {"MICROPYPATH": "drv", "PATH": "/usr/bin:/bin"}


# The heap's one dependence on where a run starts from (issue 21): the PyPI VM runs inside the CPython process that
# launches it and mallocs its heap there, 16-byte aligned, at an address that follows CPython's own allocations (the
# lengths of the folder and file names it was started with). MicroPython's gc_init aligns the heap's end down to its
# 32-byte block, then gives one allocation-table byte (4 blocks, 128 B of pool) to every 129.5 bytes: for a size
# within 16 bytes above a table byte's edge the pool is 128 B larger or smaller with the address (64K: 64,768 B from
# one folder, 64,640 B from another). A steady size is one whose pool is the same either way.
_GC_BLOCK = 32


def gc_pool(total):
    """The GC pool, in bytes, of a heap of `total` bytes once its end is aligned (py/gc.c's gc_init, finalisers on)."""
    return (total - 1) * 8 // (8 + 8 * 4 // 8 + 8 * 4 * _GC_BLOCK) * 4 * _GC_BLOCK


def heap_bytes(heapsize):
    """-X heapsize's text (65536, 64K, 8M) in bytes."""
    text = str(heapsize)
    scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:].upper(), 1)
    return int(text[:-1] if scale > 1 else text) * scale


def steady_heapsize(heapsize):
    """The heap size from `heapsize` up, in 16-byte steps, whose GC pool does not depend on the heap's address: a
    run's heap is then the same wherever the clone, the venv and the scratch folder are."""
    size = -(-heap_bytes(heapsize) // 16) * 16
    while True:
        at_0 = size - size % _GC_BLOCK  # the heap at an address 0 mod 32: its end aligned down
        at_16 = (size + 16) // _GC_BLOCK * _GC_BLOCK - 16  # at an address 16 mod 32
        if gc_pool(at_0) == gc_pool(at_16):
            return size
        size += 16


def micropython_command(args, heapsize="64K"):
    """The VM through the link vm_env makes: its argv[0], kept in its heap, is the same wherever the venv is; its heap
    a steady size (steady_heapsize): the same pool wherever the run starts from."""
    return ["./micropython", "-X", "heapsize=%d" % steady_heapsize(heapsize)] + [str(a) for a in args]


def vm_command(script, args, heapsize="64K", vm="micropython"):
    """A VM (sabot/vms.py) running a compiled driver as a module (`script` is its file name in bench/vm). The 32-bit
    VM's launcher runs a -m module from its .py only, so there the driver is imported and its main() called."""
    module = script[:-3] if script.endswith(".py") else script
    if vm == "micropython":
        return micropython_command(["-m", module] + list(args), heapsize)
    return vms.command(vm) + ["-X", "heapsize=%d" % steady_heapsize(heapsize), "-c",
                              "import sys, %s; sys.exit(%s.main(sys.argv[1:]))" % (module, module)] + [
        str(a) for a in args]


def run(command, env, cwd, check=True):
    done = subprocess.run(command, env=env, cwd=str(cwd), capture_output=True, text=True, timeout=TIMEOUT)
    if check and done.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (" ".join(command), done.returncode, done.stdout[-2000:],
                                                      done.stderr[-2000:]))
    return done


def vm(script, args, build_dir, cwd, heapsize="64K", check=True, vm="micropython"):
    """A bench/vm driver on a MicroPython VM (the unix port unless told), firmware from build_dir, in cwd."""
    return run(vm_command(script, args, heapsize, vm), vm_env(cwd, build_dir), cwd, check)


def cpython(script, args, cwd):
    """The same driver on CPython, firmware from the sources."""
    return run([sys.executable, str(VM_SCRIPTS / script)] + [str(a) for a in args],
               {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, cwd)


def last_json(done):
    """The JSON line a driver prints last."""
    return json.loads(done.stdout.strip().splitlines()[-1])
