"""The fleet's figures (docs/fleet.md): synthetic fleets of about 1 M and 10 M records (whole tailles, planted
anomalies), ingested into DuckDB (records a second), each check's time at both sizes on DuckDB and the growth from
one to the other (10x the records: linear is 10), and the checks on Spark (local[2]) over the Parquet export of
the larger. Prints one JSON line; asserts nothing.

    .venv/bin/python -m bench.fleet_speed [SMALL LARGE]
"""

import io
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench.report import figure
from sabot.fleet import checks, engines, export, ingest, synth

_RECORDS_A_SABOT = 5_600  # a sabot's nine days of whole tailles, about (sabots asked for = records / this)
_CHECKS = {"assignment": lambda e: checks.assignment(e, 3), "silent": lambda e: checks.silent(e, 7),
           "results": lambda e: checks.results(e, 0.001), "repeats": lambda e: checks.repeats(e, 20),
           "deal": lambda e: checks.deal(e, 10)}


def fleet(tmp, records, seed):
    """(records ingested, generation s, ingest s, {check: s}, database)."""
    root = Path(tmp) / ("fleet-%d" % records)
    started = time.perf_counter()
    plan = synth.generate(root, seed, max(20, records // _RECORDS_A_SABOT), coups=None)
    generated = time.perf_counter() - started
    db = Path(tmp) / ("fleet-%d.duckdb" % records)
    started = time.perf_counter()
    for casino in plan["casinos"]:
        ingest.ingest(sorted(str(p) for p in (root / casino / "journals").iterdir()), str(db), casino,
                      out=io.StringIO(), registry=str(root / casino / "shoes.json"))
    ingested = time.perf_counter() - started
    shutil.rmtree(root)  # the journals are in the database now: room for the next fleet
    engine = engines.DuckDB.database(db)
    count = engine.query("SELECT COUNT(*) FROM records")[0][0]
    times = {}
    for name, check in _CHECKS.items():
        started = time.perf_counter()
        check(engine)
        times[name] = time.perf_counter() - started
    engine.close()
    return count, generated, ingested, times, db


def speed(small=1_000_000, large=10_000_000, tmp=None):
    with tempfile.TemporaryDirectory(dir=tmp) as folder:
        n1, _, _, t1, _ = fleet(folder, small, 1)
        n2, generated, ingested, t2, db = fleet(folder, large, 2)
        parquet = Path(folder) / "parquet"
        export.export(db, parquet)
        started = time.perf_counter()
        spark = engines.Spark.parquet(parquet)
        ready = time.perf_counter() - started
        spark_found = checks.run(spark)
        spark_s = time.perf_counter() - started
        spark.close()
        duck = engines.DuckDB.parquet(parquet)
        same = checks.run(duck) == spark_found
        duck.close()
    return {"small": n1, "large": n2, "generate_per_s": round(n2 / generated), "ingest_per_s": round(n2 / ingested),
            "small_s": {k: round(v, 3) for k, v in t1.items()}, "large_s": {k: round(v, 3) for k, v in t2.items()},
            "spark_s": round(spark_s, 1), "spark_start_s": round(ready, 1), "spark_same": same}


def measure(ctx):
    small, large = (100_000, 1_000_000) if ctx.quick else (1_000_000, 10_000_000)
    got = speed(small, large, ctx.tmp)
    sizes = "{:,} and {:,} records".format(got["small"], got["large"])
    found = {"fleet.records": figure(got["large"], "records", "the larger synthetic fleet (seed 2, whole tailles)"),
             "fleet.generate_per_s": figure(got["generate_per_s"], "records/s", "sabot.fleet.synth through the "
                                            "firmware on the sim board, %s" % sizes, deterministic=False),
             "fleet.ingest_per_s": figure(got["ingest_per_s"], "records/s", "sabot fleet ingest of the larger fleet "
                                          "(verify and insert, a transaction a journal)", deterministic=False)}
    for name in _CHECKS:
        a, b = got["small_s"][name], got["large_s"][name]
        found["fleet.check_%s" % name] = figure(
            "%.2f / %.2f s, x%.1f" % (a, b, b / a if a else 0), "", "DuckDB, %s; growth for 10x the records" % sizes,
            deterministic=False)
    found["fleet.spark_s"] = figure(got["spark_s"], "s", "every check on Spark local[2] over the Parquet export of "
                                    "the larger fleet, %.0f s of it the session's start; same findings as DuckDB: %s"
                                    % (got["spark_start_s"], "yes" if got["spark_same"] else "NO"), deterministic=False)
    return found


if __name__ == "__main__":
    sizes = [int(a) for a in sys.argv[1:3]] or [1_000_000, 10_000_000]
    print(json.dumps(speed(*sizes)))
