"""A synthetic fleet's journals, ingested as a casino and the regulator would: for the tests of sabot.fleet."""

import hashlib
import io
import json
from pathlib import Path

from sabot.fleet import ingest, ledger, synth


def journals_of(root, casino):
    """A generated casino's journal folders, as `sabot pull-log` leaves them."""
    return sorted((Path(root) / casino / "journals").iterdir())


def ingest_fleet(root, db):
    """Every casino's journals of a generated fleet into db, each under its casino's name and with its registry of
    public keys; the ingest statuses."""
    root = Path(root)
    plan = json.loads((root / "plan.json").read_text(encoding="utf-8"))
    return [ingest.ingest([str(p) for p in journals_of(root, casino)], str(db), casino, out=io.StringIO(),
                          err=io.StringIO(), registry=str(root / casino / "shoes.json")) for casino in plan["casinos"]]


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


OUVERTE_SEANCE = ("game deux_tableaux_ouverte\nseance table=%d game=deux_tableaux_ouverte\nshoe seed=1\n"
                  "no_more_bets\ndraw 6\ncoup_end\nseance_close\n")
# Two casinos' banque ouverte séances, (table, ms since 2020): the clean one's tables 1 and 2 on two casino days
# (its 02:00 séance is the evening's day's), the other's on one (05:00 the next morning is still the evening's).
HOUR_MS = 3_600_000
OUVERTE_CLEAN = [(1, synth.START_MS + 20 * HOUR_MS), (1, synth.START_MS + 26 * HOUR_MS),
                 (2, synth.START_MS + 31 * HOUR_MS)]
OUVERTE_TWO_TABLES = [(1, synth.START_MS + 20 * HOUR_MS), (2, synth.START_MS + 29 * HOUR_MS)]


def ouverte_casino(tmp, db, casino, seances):
    """A casino's journals written by the firmware on the sim board, each sabot one séance at banque ouverte:
    seances [(table, ms since 2020-01-01 UTC)], sabot n the n-th; ingested into the database db."""
    root = Path(tmp) / casino
    (root / "journals").mkdir(parents=True)
    for sabot, (table, moment) in enumerate(seances, 1):
        shoe = synth.Shoe(root / "journals" / ("sabot-%04d" % sabot), sabot, synth.key_of(0, casino, sabot))
        synth.enrol(root, shoe)
        shoe.scenario(moment, OUVERTE_SEANCE % table)
        shoe.close(hashlib.sha256(b"%s/%d" % (casino.encode(), sabot)).digest())
    assert ingest.ingest([str(p) for p in journals_of(tmp, casino)], str(db), casino, out=io.StringIO(),
                         err=io.StringIO(), registry=str(root / "shoes.json")) == 0
