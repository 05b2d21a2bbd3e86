"""A synthetic fleet's journals, ingested as a casino and the regulator would: for the tests of sabot.fleet."""

import io
import json
from pathlib import Path

from sabot.fleet import ingest, synth


def ingest_fleet(root, db):
    """Every casino's journals of a generated fleet into db, each under its casino's name; the ingest statuses."""
    root = Path(root)
    plan = json.loads((root / "plan.json").read_text(encoding="utf-8"))
    return [ingest.ingest(sorted(str(p) for p in (root / casino).iterdir()), str(db), casino, out=io.StringIO(),
                          err=io.StringIO()) for casino in plan["casinos"]]


def fleet(tmp, seed, sabots, anomalies=True, **options):
    """(plan, database) of a new fleet under tmp."""
    root = Path(tmp) / ("fleet-%d" % seed)
    plan = synth.generate(root, seed, sabots, anomalies=anomalies, **options)
    db = Path(tmp) / ("fleet-%d.duckdb" % seed)
    assert ingest_fleet(root, db) == [0] * len(plan["casinos"])
    return plan, db
