"""The steps of `sabot nuit` after a shoe's pull (sabot.nuit): verify, ingest, report, the carnet and the fleet's
pages, each by its command's own function, what it prints kept in the night's record."""

import contextlib
import io
import json
import sys

from sabot.nuit_said import CLEAN, FINDINGS


@contextlib.contextmanager
def captured():
    """What a command's function prints, on stdout and stderr, kept for the night's record instead."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield out, err


def last_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def verify_journal(shoe, journal, registry, previous, signers=()):
    """log verify --registry --receipt, in French into DEST/sabot-NNNN/DATE/verification.txt, and as JSON."""
    from sabot.verify import verify

    earlier = [str(previous)] if previous else []
    text, data = io.StringIO(), io.StringIO()
    with captured() as (_, err):
        for as_json, out in ((False, text), (True, data)):
            status = verify([str(journal)], None, as_json, receipt_files=earlier, out=out, registry=registry,
                            registry_signers=signers)
    (journal / "verification.txt").write_text(text.getvalue() + err.getvalue(), encoding="utf-8")
    shoe["verification"] = str(journal / "verification.txt")
    if status == 2:
        shoe["state"] = FINDINGS
        shoe["said"].append("journal illisible : %s" % last_line(err.getvalue()))
        return
    result = json.loads(data.getvalue())
    shoe["findings"] = result["findings"]
    words = [line.strip() for line in text.getvalue().splitlines() if line.startswith("  n° ")]
    if not result["ok"]:
        shoe["state"] = FINDINGS if shoe["state"] == CLEAN else shoe["state"]
        shoe["said"] += words or [last_line(text.getvalue())]


def ingest_journal(shoe, journal, db, casino, registry, signers=()):
    from sabot.fleet import ingest

    with captured() as (out, err):
        status = ingest.ingest([str(journal)], db, casino, None, sys.stdout, sys.stderr, registry,
                               registry_signers=signers)
    shoe["ingested"] = status == 0
    if status:
        shoe["state"] = FINDINGS if shoe["state"] == CLEAN else shoe["state"]
        shoe["said"].append("refusé par la base %s : %s" % (db, last_line(err.getvalue()).removeprefix(
            "sabot fleet ingest: ")))


def write_report(shoe, journal, registry, establishment, signers=()):
    from sabot.report.cli import report

    output = journal / "rapport.html"
    with captured() as (_, err):
        status = report([str(journal)], output, registry=registry, establishment=establishment, out=io.StringIO(),
                        force=True, registry_signers=signers)  # the night's own: replaced on a rerun
    if status == 0:
        shoe["report"] = str(output)
    else:
        shoe["said"].append("rapport non écrit : %s" % last_line(err.getvalue()))


def write_carnet(shoe, journal, ledger, folder, establishment):
    """The cagnotte's carnet of the shoe's journal, when the casino's ledger of it is given (--ledgers DIR)."""
    import argparse

    from sabot.cagnotte.cli import write_carnet as carnet

    folder.mkdir(parents=True, exist_ok=True)
    output = folder / ("sabot-%04d.html" % shoe["sabot"])
    args = argparse.Namespace(output=str(output), force=True, ledger=str(ledger), journal=[str(journal)], key=None,
                              establishment=establishment, allow_development_key=False, lang="fr",
                              cagnotte_command="carnet")
    with captured() as (out, err):
        status = carnet(args)
    if status == 2:
        shoe["said"].append("carnet de la cagnotte non écrit : %s" % last_line(err.getvalue()))
        return
    shoe["carnet"] = str(output)
    if status == 1:
        shoe["state"] = FINDINGS if shoe["state"] == CLEAN else shoe["state"]
        shoe["said"].append("carnet de la cagnotte : %s" % last_line(out.getvalue()))


def fleet_pages(night, db):
    """The fleet's pages of the casino's database (fleet report: findings, plots, carnet de prises en charge) in
    the night's folder, and its checks' findings."""
    from sabot.fleet import checks, engines, report
    from sabot.fleet.store import Unusable as StoreUnusable

    try:
        engine = engines.DuckDB.database(db)
    except (StoreUnusable, OSError) as e:
        return None, [], "base %s illisible : %s" % (db, e)
    try:
        pages = report.write(engine, night["folder"] / "parc", force=True)
        found = checks.run(engine)
    except (StoreUnusable, OSError) as e:
        return None, [], "pages du parc non écrites : %s" % e
    finally:
        engine.close()
    return str(pages[-1]), found, None
