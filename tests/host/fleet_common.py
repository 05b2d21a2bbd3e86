"""A synthetic fleet's journals, ingested as a casino and the regulator would: for the tests of sabot.fleet."""

import io
import json
from pathlib import Path

from sabot.fleet import ingest, synth


def journals_of(root, casino):
    """A generated casino's journal folders, as `sabot pull-log` leaves them."""
    return sorted((Path(root) / casino / "journals").iterdir())


def ingest_fleet(root, db):
    """Every casino's journals of a generated fleet into db, each under its casino's name and with its keys; the
    ingest statuses."""
    root = Path(root)
    plan = json.loads((root / "plan.json").read_text(encoding="utf-8"))
    return [ingest.ingest([str(p) for p in journals_of(root, casino)], str(db), casino, str(root / casino / "keys"),
                          out=io.StringIO(), err=io.StringIO()) for casino in plan["casinos"]]


def fleet(tmp, seed, sabots, anomalies=True, **options):
    """(plan, database) of a new fleet under tmp."""
    root = Path(tmp) / ("fleet-%d" % seed)
    plan = synth.generate(root, seed, sabots, anomalies=anomalies, **options)
    db = Path(tmp) / ("fleet-%d.duckdb" % seed)
    assert ingest_fleet(root, db) == [0] * len(plan["casinos"])
    return plan, db
