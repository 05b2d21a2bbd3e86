"""Verify throughput on CPython: a journal of N card records (default one million; a few more, as the last coup
ends), signed by a secure element as a board's (its checkpoints at each séance and coup's end, its receipt),
checked by `sabot log verify` from its files: without the public key (integrity and rules:
verify_to_sha256_files), against hashlib.sha256 of the same files (segments, checkpoints, receipt), read and hashed,
and against hashlib.sha256 of the bytes already in memory (the stricter); with it (--public-key, every checkpoint's
and the receipt's signature checked besides: signatures_more_s, the seconds that adds). Also the integrity checks
alone (the C core) on the bytes in memory, without the rules, and the signatures alone (the C core). Each the best
of three runs, for a busy machine. Prints one JSON line; asserts nothing.

    .venv/bin/python -m bench.verify_speed [N]
"""

import hashlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

from bench.journals import write_journal
from bench.report import figure
from firmware.devkey import DEVELOPMENT_KEY
from sabot import checkpoints
from sabot.fleet.synth import Element
from sabot.journalfile import Reader, load_segments
from sabot.verify import verify

_RUNS = 3


def best(run):
    """The shortest of _RUNS timings of run(), and its last result."""
    shortest = None
    for _ in range(_RUNS):
        started = time.perf_counter()
        got = run()
        took = time.perf_counter() - started
        shortest = took if shortest is None else min(shortest, took)
    return shortest, got


def speed(cards, tmp=None):
    with tempfile.TemporaryDirectory(dir=tmp) as folder:
        public = Path(folder) / "element.pub"
        folder = Path(folder) / "journal"
        element = Element(b"bench")
        public.write_text(element.public_key().hex())
        started = time.perf_counter()
        write_journal(folder, cards=cards, element=element)
        written = time.perf_counter() - started
        segments = load_segments([folder])
        files = sorted(folder.iterdir())
        data = b"".join(path.read_bytes() for path in files)
        hashing_files, _ = best(lambda: [_file_sha256(path) for path in files])
        hashing, _ = best(lambda: hashlib.sha256(data).digest())
        integrity, _ = best(lambda: list(Reader(segments, DEVELOPMENT_KEY).scanned(0)))
        # Every checkpoint's signature (issue 37), alone: in C, a thread a core (sabot.checkpoints.File.unsigned).
        points = checkpoints.read([folder])
        key = checkpoints.read_public_key(public)
        signing, bad = best(lambda: points.unsigned(key))
        if bad:
            raise AssertionError("the bench's checkpoints %s are not signed" % sorted(bad)[:5])
        # From the files, as `sabot log verify` does: integrity and rules; then --public-key, the signatures besides.
        unkeyed, _ = best(lambda: _verify(folder, None))
        verifying, (status, said) = best(lambda: _verify(folder, public))
    result = json.loads(said)
    if status or not result["checkpoints"]["checked"]:
        raise AssertionError("the bench's journal does not verify: %s" % said[:1000])
    return {"records": result["records"], "bytes": len(data), "checkpoints": result["checkpoints"]["count"],
            "write_s": round(written, 2),
            "sha256_files_s": round(hashing_files, 3), "sha256_s": round(hashing, 3),
            "integrity_s": round(integrity, 3), "verify_s": round(unkeyed, 3), "signatures_s": round(signing, 2),
            "signed_verify_s": round(verifying, 3), "signatures_more_s": round(verifying - unkeyed, 2),
            "records_per_s": round(result["records"] / verifying),
            "verify_to_sha256_files": round(unkeyed / hashing_files, 2),
            "verify_to_sha256": round(unkeyed / hashing, 1), "integrity_to_sha256": round(integrity / hashing, 1)}


def _verify(folder, public):
    out = io.StringIO()
    return verify([str(folder)], None, True, out=out, public_key=public and str(public)), out.getvalue()


def _file_sha256(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").digest()


def measure(ctx):
    got = speed(100_000 if ctx.quick else 1_000_000, ctx.tmp)
    how = ("sabot log verify --public-key of a journal of %s card records (%s records, %s checkpoints signed by the "
           "element, %.0f MB) on CPython, best of 3" % ("100,000" if ctx.quick else "1,000,000",
                                                        "{:,}".format(got["records"]),
                                                        "{:,}".format(got["checkpoints"]), got["bytes"] / 1e6))
    return {"verify.records_per_s": figure(got["records_per_s"], "records/s", how, deterministic=False),
            "verify.to_sha256_files": figure(got["verify_to_sha256_files"], "x", "integrity and rules: sabot log "
                                             "verify without the public key, its time / hashlib.sha256 of the same "
                                             "files, read and hashed (%.3f s / %.3f s)" % (
                                                 got["verify_s"], got["sha256_files_s"]), deterministic=False),
            "verify.to_sha256": figure(got["verify_to_sha256"], "x", "integrity and rules, its time / hashlib.sha256 "
                                       "of the same bytes already in memory (%.3f s / %.3f s)" % (
                                           got["verify_s"], got["sha256_s"]), deterministic=False),
            "verify.signatures_more_s": figure(got["signatures_more_s"], "s", "what --public-key adds to verify's "
                                               "time: every checkpoint's signature (%s) and the receipt's checked "
                                               "(%.2f s against %.3f s)" % ("{:,}".format(got["checkpoints"]),
                                                                            got["signed_verify_s"], got["verify_s"]),
                                               deterministic=False),
            "verify.signatures_s": figure(
                got["signatures_s"], "s", "every checkpoint's ECDSA signature checked (%s), in C, specialised to the "
                "element's key (its multiples precomputed), a thread a core, within verify's time" % "{:,}".format(
                    got["checkpoints"]), deterministic=False),
            "verify.integrity_to_sha256": figure(got["integrity_to_sha256"], "x", "the integrity checks alone, "
                                                 "without the rules (%.2f s)" % got["integrity_s"],
                                                 deterministic=False)}


if __name__ == "__main__":
    print(json.dumps(speed(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)))
