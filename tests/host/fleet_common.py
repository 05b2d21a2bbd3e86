"""A synthetic fleet's journals, ingested as a casino and the regulator would: for the tests of sabot.fleet."""

import io
import json
from pathlib import Path

from sabot.fleet import ingest, ledger, synth


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


def ingest_ledgers(root, db):
    """Every sabot's cagnotte ledger of a generated fleet into db: {(casino, sabot): ingest-ledger's status}."""
    root = Path(root)
    plan = json.loads((root / "plan.json").read_text(encoding="utf-8"))
    return {(casino, int(path.stem[len("sabot-"):])): ledger.ingest_ledger(
        str(path), str(db), casino, int(path.stem[len("sabot-"):]), out=io.StringIO(), err=io.StringIO())
        for casino in plan["casinos"] for path in sorted((root / casino / "ledgers").iterdir())}


def fleet(tmp, seed, sabots, anomalies=True, ledgers=False, **options):
    """(plan, database) of a new fleet under tmp; with `ledgers`, its cagnotte ledgers ingested too."""
    root = Path(tmp) / ("fleet-%d" % seed)
    plan = synth.generate(root, seed, sabots, anomalies=anomalies, **options)
    db = Path(tmp) / ("fleet-%d.duckdb" % seed)
    assert ingest_fleet(root, db) == [0] * len(plan["casinos"])
    if ledgers:
        ingest_ledgers(root, db)
    return plan, db
