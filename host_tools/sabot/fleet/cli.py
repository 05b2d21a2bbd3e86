"""`sabot fleet ingest|export|check|report|synth`: the arguments and what each runs (docs/fleet.md). Errors: one
line and exit 2; check exits 1 when it finds something."""

import json
import sys
from decimal import Decimal, InvalidOperation

from firmware import games
from firmware.records import SABOT_MAX
from sabot.fleet import schema, stats
from sabot.options import SEANCE_MAX, number
from sabot.registry_cli import SIGNER_HELP

DEFAULTS = schema.DEFAULTS
# The options' bounds (docs/fleet.md): where a check stops meaning anything, and a shoe's own limits.
CARDS_MOST = max(row[games.DECKS] for row in games.GAMES) * 52  # the cards of the largest shoe
COUPS_MOST = CARDS_MOST // 4  # a coup deals four cards at least
WINDOW_LEAST = 8  # under 8 cards in a row, a thousand shoes' tailles repeat by chance (52 ** 8 > 10 ** 13 pairs)
DAYS_MOST = 3660  # ten years
SABOTS_MOST = 100_000  # a country's shoes, many times over


def add_arguments(parser):
    actions = parser.add_subparsers(dest="action", required=True)
    load = actions.add_parser("ingest", help="verified journals into the fleet database (DuckDB), idempotent")
    load.add_argument("paths", nargs="+", metavar="JOURNAL", help="journal folders (one a sabot) or segment files")
    load.add_argument("--db", required=True, help="the fleet database file (made when it does not exist)")
    load.add_argument("--casino", required=True, help="the casino the journals come from, as the regulator names it: "
                      "ASCII letters, digits, '-' and '_'")
    load.add_argument("--new-casino", action="store_true", help="the --casino name is a new casino's, though a "
                      "sabot of these journals is already in the database under another (without it: refused, a "
                      "typo)")
    load.add_argument("--keys", help="folder of the shoes' keys, sabot-NNNN.key; without it, the development key")
    load.add_argument("--registry", metavar="FILE", help="the casino's registry of shoes (shoes.json, sabot key "
                      "enrol): each journal's element's checkpoints and receipt checked with its sabot's public "
                      "key; a sabot not enrolled there is refused")
    load.add_argument("--registry-signer", action="append", default=[], metavar="FILE", help="as for sabot log "
                      "verify: " + SIGNER_HELP)
    levy = actions.add_parser("ingest-ledger", help="a sabot's cagnotte ledger, checked against its ingested "
                              "journal, into the fleet database; exit 0 agrees, 1 findings, 2 unusable")
    levy.add_argument("ledger", metavar="LEDGER", help="CSV: seance,taille,coup,stake_1,stake_2,levy,tickets "
                      "(docs/cagnotte.md)")
    levy.add_argument("--db", required=True, help="the fleet database holding the sabot's journal")
    levy.add_argument("--casino", required=True, help="the casino, as its journals were ingested")
    levy.add_argument("--sabot", required=True, type=number(0, SABOT_MAX, "sabot number"), metavar="N",
                      help="the sabot whose journal the ledger follows")
    out = actions.add_parser("export", help="the database's tables as Parquet, by casino and month")
    out.add_argument("--db", required=True, help="the fleet database file to export")
    out.add_argument("--parquet", required=True, metavar="DIR", help="the folder to write")
    out.add_argument("--force", action="store_true", help="replace an earlier export in DIR")
    check = actions.add_parser("check", help="the checks across shoes; exit 0 clean, 1 findings, 2 unusable")
    source(check)
    check.add_argument("--engine", choices=("duckdb", "spark"), default="duckdb",
                       help="spark reads --parquet only (local, or the cluster's under spark-submit)")
    check.add_argument("--json", action="store_true", help="the findings as JSON")
    check.add_argument("--same-table", type=number(2, SEANCE_MAX, "count of consecutive séances"),
                       default=DEFAULTS["same_table"], metavar="N", help="a sabot at the same table in N "
                       "consecutive séances, 2 to %d (1 would be every séance; default %%(default)s)" % SEANCE_MAX)
    check.add_argument("--silent-days", type=number(1, DAYS_MOST, "count of days", float),
                       default=DEFAULTS["silent_days"], metavar="D", help="a sabot without records for D days "
                       "before its casino's latest, 1 to %d (default %%(default)s)" % DAYS_MOST)
    check.add_argument("--window", type=number(WINDOW_LEAST, CARDS_MOST, "count of cards"), default=DEFAULTS["window"],
                       metavar="N", help="cards in a row that make a repeated sequence, %d to %d (default "
                       "%%(default)s)" % (WINDOW_LEAST, CARDS_MOST))
    check.add_argument("--max-burns", type=number(1, CARDS_MOST, "count of cards"), default=DEFAULTS["max_burns"],
                       metavar="N", help="cards burned in one taille above which it is out of line, 1 to %d "
                       "(default %%(default)s)" % CARDS_MOST)
    check.add_argument("--false-alarm", type=number(1e-9, 0.5, "false-alarm rate", float),
                       default=stats.FALSE_ALARM, metavar="RATE", help="the results tests' fleet-wide false-alarm "
                       "rate, 1e-9 to 0.5 (default %(default)s)")
    check.add_argument("--levy-ratio", type=ratio, default=DEFAULTS["levy_ratio"], metavar="R",
                       help="a table's or croupier's levied / due under R times its casino's, above 0 and 1 at most "
                       "(default %(default)s)")
    check.add_argument("--levy-coups", type=number(1, 10_000_000, "count of coups"), default=DEFAULTS["levy_coups"],
                       metavar="N", help="coups won by the bank a table or croupier needs for that test, from 1 "
                       "(default %(default)s)")
    page = actions.add_parser("report", help="a French page per casino: results, assignments, inventory")
    source(page)
    page.add_argument("--out", required=True, metavar="DIR", help="the folder for CASINO.html and index.html")
    page.add_argument("--force", action="store_true", help="overwrite pages written there before")
    make = actions.add_parser("synth", help="a synthetic fleet's journals, with planted anomalies (tests, bench)")
    make.add_argument("folder", help="the folder to write the fleet into: CASINO/journals/sabot-NNNN/ (as sabot "
                      "pull-log fetches them), CASINO/shoes.json (the casino's registry), "
                      "CASINO/ledgers/sabot-NNNN.csv "
                      "(the cagnotte's ledgers) and plan.json (what was planted)")
    make.add_argument("--sabots", type=number(1, SABOTS_MOST, "count of sabots"), default=1000,
                      help="at least this many sabots, 1 to %d (default 1000): whole casinos of 3 to 8 tables, each "
                      "with 1 or 2 sabots spare, so a few more may be made; the count made is said; the planted "
                      "anomalies need two casinos' worth" % SABOTS_MOST)
    make.add_argument("--seed", type=int, default=1, help="the generator's seed: the same seed, the same fleet")
    make.add_argument("--days", type=number(1, DAYS_MOST, "count of days"), default=9,
                      help="days of séances, 1 to %d (default 9)" % DAYS_MOST)
    make.add_argument("--coups", type=number(0, COUPS_MOST, "count of coups"), default=6,
                      help="coups a séance, 0 to %d (0: whole tailles, to the stop card)" % COUPS_MOST)
    make.add_argument("--clean", action="store_true", help="plant no anomaly")


def ratio(text):
    """A share as an exact decimal above 0, 1 at most (argparse says a ValueError as an invalid value)."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(text) from None
    if not value.is_finite() or not 0 < value <= 1:
        raise ValueError(text)
    return value


def source(parser):
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", help="the fleet database (DuckDB)")
    where.add_argument("--parquet", metavar="DIR", help="a folder written by sabot fleet export")


def engine_for(args, engines, unusable):
    if getattr(args, "engine", "duckdb") == "spark":
        if not args.parquet:
            raise unusable("--engine spark reads Parquet: give --parquet DIR (sabot fleet export)")
        return engines.Spark.parquet(args.parquet)
    return engines.DuckDB.parquet(args.parquet) if args.parquet else engines.DuckDB.database(args.db)


def main(args, out=sys.stdout, err=sys.stderr):
    # Imported here: DuckDB, Arrow and Spark load only for the fleet's commands, not for every `sabot` command.
    from sabot.fleet import checks, engines, export, ingest, ledger, report, synth
    from sabot.fleet.store import Unusable

    name = "sabot fleet %s" % args.action
    try:
        if args.action == "ingest":
            return ingest.ingest(args.paths, args.db, args.casino, args.keys, out, err, args.registry,
                                 getattr(args, "json", False), args.new_casino, args.registry_signer)
        if args.action == "ingest-ledger":
            return ledger.ingest_ledger(args.ledger, args.db, args.casino, args.sabot, out, err)
        if args.action == "export":
            written = export.export(args.db, args.parquet, args.force)
            out.write("%s: %s\n" % (args.parquet, ", ".join("%s %d rows in %d partition(s)" % (
                table, written["rows"][table], len(parts)) for table, parts in written["partitions"].items())))
            return 0
        if args.action == "synth":
            plan = synth.generate(args.folder, args.seed, args.sabots, args.days, args.coups or None,
                                  not args.clean)
            out.write("%s: %d casinos, %d sabots; planted: %s\n" % (
                args.folder, len(plan["casinos"]), sum(c["sabots"] for c in plan["casinos"].values()),
                json.dumps(plan["planted"]) if plan["planted"] else "nothing"))
            return 0
        engine = engine_for(args, engines, Unusable)
        try:
            if args.action == "report":
                pages = report.write(engine, args.out, args.force)
                out.write("%d page(s) in %s\n" % (len(pages), args.out))
                return 0
            found = checks.run(engine, {"same_table": args.same_table, "silent_days": args.silent_days,
                                        "window": args.window, "max_burns": args.max_burns,
                                        "alarm": args.false_alarm, "levy_ratio": args.levy_ratio,
                                        "levy_coups": args.levy_coups})
            carnet = [dict(shoe, casino=casino, sabot=number) for (casino, number), shoe in sorted(
                checks.inventory(engine).items())] if args.json else None
        finally:
            engine.close()
    except (Unusable, FileExistsError, OSError, synth.TooFew) as e:
        print("%s: error: %s" % (name, e), file=err)
        return 2
    if args.json:
        json.dump({"ok": not found, "engine": args.engine, "findings": found, "inventory": carnet}, out,
                  ensure_ascii=False)
        out.write("\n")
    else:
        for f in found:
            out.write("%-11s (%s) %s : %s\n" % (f["id"], f["article"], f["casino"], f["message"]))
        out.write("résultat : %s\n" % ("aucune constatation" if not found else "%d constatation(s)" % len(found)))
    return 1 if found else 0
