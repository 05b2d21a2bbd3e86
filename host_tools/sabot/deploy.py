"""`sabot deploy`: a release bundle (make dist) copied to a development shoe through mpremote, after checking that it
is for this board, then every file compared with the bundle by SHA-256 (docs/firmware-identity.md)."""

import hashlib
import json
import sys
from pathlib import Path

from sabot.boards import names, platforms
from sabot.device import DeviceError
from sabot.mpremote_link import FEED, mpremote

MANIFEST = "manifest.json"  # a release bundle's (firmware/identity.py)
FED_EVERY = 4  # files copied between two feeds of the watchdog (a few KB each: well within its 5 s)


def device_board(port):
    """The board a device is, from its sys.platform (the virtual board's unix port is the sim board)."""
    platform = mpremote(port, "exec", "import sys\nprint(sys.platform)").strip().splitlines()[-1]
    return platforms().get(platform, platform)  # each board's board.json names its platform


def build_board(build):
    """The board a bundle (its manifest) or a build (its boards/ folder) is for."""
    if (build / MANIFEST).exists():
        try:
            return json.loads((build / MANIFEST).read_text())["board"]
        except (ValueError, KeyError):
            raise DeviceError("%s: a damaged %s: make dist again" % (build, MANIFEST)) from None
    found = [name for name in names() if (build / "boards" / name).is_dir()]
    if len(found) != 1:
        raise DeviceError("%s is not a board's build or bundle: make dist BOARD=rpi_pico" % build)
    return found[0]


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
    """Copy a bundle (make dist) to the device, after checking that it is for this board, then check it."""
    build = Path(build)
    try:
        if not build.is_dir():
            raise DeviceError("no bundle %s: make dist BOARD=rpi_pico makes dist/rpi_pico-VERSION" % build)
        board, device = build_board(build), device_board(port)
        if board != device:
            raise DeviceError("%s is for the %s board, the device on %s is a %s board: make dist BOARD=%s and "
                              "deploy that" % (build, board, port, device, device))
        if not check_only:
            names = _files(build)
            folders = sorted({str(Path(n).parent) for n in names} - {"."}, key=len)
            make = "import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n        pass" % (
                folders,)
            args = ["exec", make]
            for i, name in enumerate(names):  # a running development Pico's watchdog fed: no reset mid-deploy
                args += (["+", "exec", FEED] if i % FED_EVERY == 0 else []) + [
                    "+", "fs", "--no-verbose", "cp", str(build / name), ":" + name]
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
