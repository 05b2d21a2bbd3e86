"""The technician's link to a shoe, through mpremote as on the bench: deploy a build and check it by hash,
pull the journal, and the virtual board that answers mpremote as a Pico does."""

import ast
import hashlib
import json
import os
import pty
import shutil
import signal
import subprocess
import sys
import tempfile
import tty
from pathlib import Path

from sabot.vms import ROOT
from sabot.vms import unix_port as micropython_command

JOURNAL = "journal"  # on the device, beside the firmware (firmware/startup.py)


class DeviceError(Exception):
    pass


def mpremote(port, *args, timeout=300):
    """Run mpremote on the device at port without resetting it (`resume`): a soft reset would stop a shoe,
    and ends the unix port behind a virtual board."""
    command = [str(Path(sys.executable).parent / "mpremote"), "connect", port, "resume", *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise DeviceError("no answer from %s within %d s" % (port, timeout)) from None
    if done.returncode:
        raise DeviceError((done.stderr or done.stdout).strip() or "mpremote failed on %s" % port)
    return done.stdout


def _files(build):
    return sorted(p.relative_to(build).as_posix() for p in build.rglob("*") if p.is_file())


def device_hashes(port, names):
    lines = mpremote(port, "fs", "--no-verbose", "sha256sum", *[":" + n for n in names]).split()
    return dict(zip(names, lines))


def check_build(port, build, out=sys.stdout):
    """Compare every file of a build with what the device holds, by SHA-256; the names that differ."""
    names = _files(build)
    if not names:
        raise DeviceError("%s holds no files: build it first (make mpy BOARD=...)" % build)
    try:
        found = device_hashes(port, names)
    except DeviceError as e:
        if "No such file" not in str(e):
            raise
        found = {}
    differ = [n for n in names if found.get(n) != hashlib.sha256((build / n).read_bytes()).hexdigest()]
    for name in differ:
        out.write("  differs or missing on the device: %s\n" % name)
    return differ


def deploy(port, build, check_only=False, out=sys.stdout):
    build = Path(build)
    try:
        if not check_only:
            names = _files(build)
            folders = sorted({str(Path(n).parent) for n in names} - {"."}, key=len)
            make = "import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n        pass" % (
                folders,)
            args = ["exec", make]
            for name in names:
                args += ["+", "fs", "--no-verbose", "cp", str(build / name), ":" + name]
            mpremote(port, *args)
        differ = check_build(port, build, out)
    except DeviceError as e:
        print("sabot deploy: error: %s" % e, file=sys.stderr)
        return 2
    if differ:
        out.write("%d of %d files differ from %s\n" % (len(differ), len(_files(build)), build))
        return 1
    out.write("%d files on %s match %s by SHA-256\n" % (len(_files(build)), port, build))
    return 0


def pull_log(port, dest, out=sys.stdout):
    """Copy the device's journal segments into dest (interrupting the running controller: the gate stays
    locked), with the shoe's receipt for them, its signed head under a fresh nonce (receipt.json), to verify
    on the host."""
    dest = Path(dest)
    try:
        listing = mpremote(port, "exec", "import os\nprint(sorted(os.listdir(%r)))" % JOURNAL)
        names = [n for n in ast.literal_eval(listing.strip().splitlines()[-1]) if n.endswith(".sbj")]
        if not names:
            raise DeviceError("no journal segments on the device")
        dest.mkdir(parents=True, exist_ok=True)
        args = []
        for name in names:
            args += ["+"] if args else []
            args += ["fs", "--no-verbose", "cp", ":%s/%s" % (JOURNAL, name), str(dest / name)]
        mpremote(port, *args)
        said = mpremote(port, "exec", "from firmware.remote import receipt\nreceipt(%r)" % os.urandom(32).hex())
        receipt = json.loads(said.strip().splitlines()[-1])
        (dest / "receipt.json").write_text(json.dumps(receipt) + "\n")
    except (DeviceError, ValueError, SyntaxError, IndexError) as e:
        print("sabot pull-log: error: %s" % e, file=sys.stderr)
        return 2
    size = sum((dest / n).stat().st_size for n in names)
    out.write("%d segments, %d bytes, and the shoe's receipt (seq %d), in %s; check them with: sabot log verify %s\n"
              % (len(names), size, receipt["seq"], dest, dest))
    return 0


def seance_command(port, action, table, game, by, out=sys.stdout):
    """Open or close a séance on a running shoe: interrupt its loop, hand it the séance, start it again."""
    if action == "open" and not (1 <= table <= 4095 and 0 <= by <= 65535):
        print("sabot seance: error: --table 1 to 4095 and --by 0 to 65535 are needed to open a séance",
              file=sys.stderr)
        return 2
    try:
        said = mpremote(port, "exec", "from firmware.remote import seance\nseance(%d, %r, %d, close=%r)" % (
            table, game, by, action == "close"))
        mpremote(port, "exec", "--no-follow", "from firmware.remote import resume\nresume()")
    except DeviceError as e:
        print("sabot seance: error: %s" % e, file=sys.stderr)
        return 2
    out.write(said)
    return 1 if "refused" in said else 0


def vboard(scenario=None, fs=None, blank=False, build=None, out=sys.stdout):
    """The firmware with the sim board inside the MicroPython unix port, its REPL on a pseudo-terminal whose
    path mpremote connects to. The folder fs is the board's filesystem."""
    fs = Path(fs) if fs else Path(tempfile.mkdtemp(prefix="sabot-vboard-"))
    fs.mkdir(parents=True, exist_ok=True)
    build = Path(build) if build else ROOT / "build" / "sim"
    if not blank:
        if not (build / "main.py").exists():
            print("sabot vboard: error: no build in %s: run make mpy" % build, file=sys.stderr)
            return 2
        shutil.copytree(build, fs, dirs_exist_ok=True)
        config = {"board": "sim", "sabot": 1}
        if scenario:
            shutil.copy(scenario, fs / "scenario.txt")
            config["scenario"] = "scenario.txt"
        (fs / "config.json").write_text(json.dumps(config))
    master, slave = pty.openpty()
    tty.setraw(slave)
    command = [micropython_command()] + (["-i", "main.py"] if (fs / "main.py").exists() else [])
    process = subprocess.Popen(command, stdin=master, stdout=master, stderr=master, cwd=fs,
                               env=dict(os.environ, MICROPYPATH="."))
    out.write("virtual board on %s (filesystem %s)\n" % (os.ttyname(slave), fs))
    out.write("try: mpremote connect %s resume exec \"print('hello')\"\n" % os.ttyname(slave))
    out.flush()
    signal.signal(signal.SIGTERM, _stop)  # a terminated vboard takes its MicroPython process with it
    try:
        return process.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
        os.close(slave)


def _stop(signum, frame):
    raise KeyboardInterrupt
