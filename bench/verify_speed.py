"""Verify throughput on CPython: a journal of N card records (default one million) checked by `sabot log verify`'s
code, against plain hashlib.sha256 over the same bytes. Prints one JSON line; asserts nothing.

    .venv/bin/python -m bench.verify_speed [N]
"""

import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

from bench.journals import write_journal
from bench.report import figure
from boards.sim.devkey import DEVELOPMENT_KEY
from sabot.verify import check


def speed(cards, tmp=None):
    with tempfile.TemporaryDirectory(dir=tmp) as folder:
        folder = Path(folder) / "journal"
        started = time.perf_counter()
        write_journal(folder, cards=cards)
        written = time.perf_counter() - started
        data = b"".join(p.read_bytes() for p in sorted(folder.iterdir()))
        started = time.perf_counter()
        hashlib.sha256(data).digest()
        hashing = time.perf_counter() - started
        started = time.perf_counter()
        _, reader, findings = check([folder], DEVELOPMENT_KEY)
        verifying = time.perf_counter() - started
    if findings:
        raise AssertionError("the bench's journal has findings: %s" % findings[0].message)
    return {"card_records": cards, "records": reader.records, "bytes": len(data), "write_s": round(written, 2),
            "sha256_s": round(hashing, 3), "verify_s": round(verifying, 2),
            "records_per_s": round(reader.records / verifying), "verify_to_sha256": round(verifying / hashing, 1)}


def measure(ctx):
    got = speed(100_000 if ctx.quick else 1_000_000, ctx.tmp)
    how = "sabot.verify.check of a journal of %s card records (%s records, %.0f MB) on CPython, one run" % (
        "{:,}".format(got["card_records"]), "{:,}".format(got["records"]), got["bytes"] / 1e6)
    return {"verify.records_per_s": figure(got["records_per_s"], "records/s", how, deterministic=False),
            "verify.to_sha256": figure(got["verify_to_sha256"], "x", "its time / hashlib.sha256 over the same bytes "
                                       "(%.2f s / %.3f s)" % (got["verify_s"], got["sha256_s"]),
                                       deterministic=False)}


if __name__ == "__main__":
    print(json.dumps(speed(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)))
