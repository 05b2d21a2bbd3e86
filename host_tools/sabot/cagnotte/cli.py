"""`sabot cagnotte due JOURNAL --stakes FILE`: the levy due on each coup the bank won (Articles 59, 60, 62), from the
verified journal's results and the table's stakes. Exit 0 when every coup of the journal has its stakes and the
journal is intact, 1 otherwise (each said), 2 for unusable input.

`sabot cagnotte check JOURNAL --ledger FILE`: the casino's ledger of levies reconciled with the journal
(sabot/cagnotte/check.py); exit 0 conforme, 1 findings, 2 unusable input, as `sabot log verify`."""

import io
import json
import sys
from decimal import Decimal
from pathlib import Path

from firmware import games
from sabot import options, times
from sabot.cagnotte import carnet, check, ledger, levy, stakes, template
from sabot.cagnotte import coups as journal_coups
from sabot.cagnotte.said import cents, money, percent, word
from sabot.journalfile import Unusable
from sabot.outputs import Exists, may_write
from sabot.receipts import NO_RECEIPT
from sabot.report.pdf import PdfError, print_pdf
from sabot.verify import development_only, read_key


def add_arguments(parser):
    sub = parser.add_subparsers(dest="cagnotte_command", required=True, metavar="COMMAND")
    due = sub.add_parser("due", help="the levy due at each coup, from the journal's results and the stakes")
    due.add_argument("--stakes", required=True, help="CSV: seance,taille,coup,stake_1,stake_2 in euros")
    due.add_argument("--json", action="store_true", help="one JSON object a coup, sums as decimal strings")
    reconcile = sub.add_parser("check", help="the casino's ledger of levies against the journal (exit 0, 1, 2)")
    reconcile.add_argument("--ledger", required=True, help="CSV: the stakes' columns, levy, tickets (docs/cagnotte.md)")
    reconcile.add_argument("--json", action="store_true", help='{"ok", "findings": [{"id", "article", ...}]}')
    carnet = sub.add_parser("carnet", help="the carnet d'enregistrement des cagnottes, HTML or PDF (-o FILE.pdf)")
    carnet.add_argument("--ledger", required=True, help="CSV: the stakes' columns, levy, tickets (docs/cagnotte.md)")
    carnet.add_argument("-o", "--output", required=True, help="carnet.html, or carnet.pdf printed by Chromium")
    carnet.add_argument("--establishment", type=options.ESTABLISHMENT,
                        help="the casino, as the carnet's heading names it")
    carnet.add_argument("--force", action="store_true", help="replace an existing output file")
    carnet.add_argument("--registry", metavar="FILE", help="the casino's registry of shoes (shoes.json, sabot key "
                        "enrol): the journal's element signatures checked as sabot log verify --registry does, and "
                        "the carnet says so; without it, it says they were not")
    mises = sub.add_parser("mises", help="the stakes file's template from the journal, a row a coup, the stakes "
                           "empty, on stdout: sabot cagnotte mises JOURNAL > mises.csv")
    for command in (due, reconcile, carnet, mises):
        command.add_argument("journal", nargs="+", help="the journal's folder (or segment files)")
        command.add_argument("--key", help="the shoe's key file (without: the development key, said so)")
        command.add_argument("--allow-development-key", action="store_true",
                             help="a sim's or a test's journal: its development key is no finding")
        command.add_argument("--lang", choices=("fr", "en"), default="fr", help="the words for people (default: fr)")


def _read(args, read_table, path, seances=None):
    """(the stakes' or the ledger's rows, the journal's coups, verify's findings), or None once the fault is said
    in one line."""
    try:
        return (read_table(path),) + tuple(journal_coups.read(args.journal, read_key(args.key), seances))
    except (stakes.BadStakes, Unusable) as e:
        print("sabot cagnotte %s: error: %s" % (args.cagnotte_command, e), file=sys.stderr)
        return None


def reconcile(args, out):
    got = _read(args, ledger.read, args.ledger)
    if got is None:
        return 2
    entries, coups, findings = got
    found = check.check(coups, entries)
    development = development_only(args.journal, args.key, args.allow_development_key)
    ok = not (found or findings or development)
    if args.json:
        out.write(json.dumps({"ok": ok, "coups": len(coups), "journal_findings": len(findings), "findings": [
            {"id": check.SAID[f.what][0], "article": check.SAID[f.what][1], "seance": f.key[0], "taille": f.key[1],
             "coup": f.key[2], "message": f.said("en", cents, lambda r: percent(r, "en"))} for f in found]},
            ensure_ascii=False) + "\n")
        return 0 if ok else 1
    fr = args.lang == "fr"
    out.write(("registre de la cagnotte : %s, %d constat(s) sur %d coups\n" if fr else
               "cagnotte ledger: %s, %d finding(s) on %d coups\n") % (
        ("conforme" if fr else "clean") if ok else ("NON CONFORME" if fr else "NOT CLEAN"), len(found), len(coups)))
    for f in found:
        where = (word("coup", args.lang) % f.key) if f.key[1] else "Séance %d" % f.key[0]
        out.write("[%s, art. %s] %s : %s\n" % (check.SAID[f.what][0], check.SAID[f.what][1], where, f.said(
            args.lang, lambda a: money(a, args.lang), lambda r: percent(r, args.lang))))
    return _problems(args, findings, [], {}) or (0 if ok else 1)


def write_carnet(args):
    output = Path(args.output)
    try:
        may_write(output, args.force)
    except Exists as e:
        print("sabot cagnotte carnet: error: %s" % e, file=sys.stderr)
        return 2
    seances = {}
    got = _read(args, ledger.read, args.ledger, seances)
    if got is None:
        return 2
    entries, coups, findings = got
    found = check.check(coups, dict(entries))
    try:
        element = signatures(args)
    except Unusable as e:
        print("sabot cagnotte carnet: error: %s" % e, file=sys.stderr)
        return 2
    html = carnet.page(seances, coups, entries, found, findings, args.establishment, times.now_paris(),
                       element)
    try:
        if output.suffix.lower() == ".pdf":
            print_pdf(html, output)
        else:
            output.write_text(html, encoding="utf-8")
    except (OSError, PdfError) as e:
        print("sabot cagnotte carnet: error: %s" % e, file=sys.stderr)
        return 2
    print("carnet: %s (%d séances, %d coups, %d constat(s))" % (output, len(seances), len(coups), len(found)))
    return _problems(args, findings, [], {}) or (1 if found else 0)


def stakes_template(args, out):
    try:
        coups, findings = journal_coups.read(args.journal, read_key(args.key))
    except Unusable as e:
        print("sabot cagnotte mises: error: %s" % e, file=sys.stderr)
        return 2
    template.write(coups, out)
    return _problems(args, findings, [], {})


def signatures(args):
    """(checked, sabot log verify's J-TAMPER findings of the element's signatures, the registry) for the carnet:
    checked False without --registry."""
    if not args.registry:
        return False, [], None
    from sabot.checkpoints import registry_keys
    from sabot.journalfile import load_segments
    from sabot.verify import verify

    registry_keys(args.registry, load_segments(args.journal)[0].sabot)  # not enrolled: one line, exit 2
    said = io.StringIO()
    verify(args.journal, args.key, True, out=said, registry=args.registry,
           allow_development_key=args.allow_development_key)
    answer = json.loads(said.getvalue())
    return True, [f for f in answer["findings"] if f["id"] == "J-TAMPER" and f["message"] != NO_RECEIPT], (
        args.registry)


def main(args, out=sys.stdout):
    if args.cagnotte_command == "mises":
        return stakes_template(args, out)
    if args.cagnotte_command == "check":
        return reconcile(args, out)
    if args.cagnotte_command == "carnet":
        return write_carnet(args)
    got = _read(args, stakes.read, args.stakes)
    if got is None:
        return 2
    table, coups, findings = got
    rows, missing, total, won = [], [], Decimal(0), 0
    for coup in coups:
        staked = table.pop(coup.key, None)
        if staked is None:
            missing.append(coup)
            continue
        if len(coup.results) == 1 and staked[1] is not None:
            print("sabot cagnotte due: error: %s: séance %d, taille %d, coup %d is chemin de fer: stake_2 must be "
                  "empty" % ((args.stakes,) + coup.key), file=sys.stderr)
            return 2
        amounts = (staked[0],) if len(coup.results) == 1 else (staked[0], staked[1] or Decimal(0))
        due, base, case = levy.due(coup.game, coup.results, amounts)
        total += due
        won += case is not None
        rows.append((coup, amounts, due, base, case))
    if args.json:
        for coup, amounts, due, base, case in rows:
            out.write(json.dumps({
                "seance": coup.key[0], "taille": coup.key[1], "coup": coup.key[2], "seq": coup.seq,
                "game": games.GAMES[coup.game][games.NAME], "results": list(coup.results),
                "stakes": [cents(a) for a in amounts], "won_by_bank": cents(base), "case": case,
                "rate": str(levy.RATES[coup.game]), "due": cents(due)}, ensure_ascii=False) + "\n")
        out.write(json.dumps({"total_due": cents(total), "coups_won_by_bank": won, "coups": len(rows)}) + "\n")
    else:
        _print(rows, args.lang, out)
        out.write(word("total", args.lang) % (money(total, args.lang), won, len(rows)) + "\n")
    return _problems(args, findings, missing, table)


def _print(rows, lang, out):
    def w(key):
        return word(key, lang)

    for coup, amounts, due, _, case in rows:
        said = [w("tableau") % (i + 1, r) for i, r in enumerate(coup.results)] if len(coup.results) > 1 else [
            w("bank") % coup.results[0]]
        line = "%s : %s ; %s ; %s" % (w("coup") % coup.key, ", ".join(said), w("stakes") % " / ".join(
            money(a, lang) for a in amounts), w("due") % (money(due, lang), percent(levy.RATES[coup.game], lang),
                                                          w("case") % case if case in ("a", "b", "c") else ""))
        out.write(line + "\n")


def _problems(args, findings, missing, left):
    """1 and each said on stderr when the journal is not intact or it and the stakes do not cover the same coups."""
    def w(key):
        return word(key, args.lang)

    for coup in missing:
        print(w("coup") % coup.key + " : " + w("no_stakes") % args.stakes, file=sys.stderr)
    for key in sorted(left):
        print(w("not_in_journal") % (key + (args.stakes,)), file=sys.stderr)
    if findings:
        print(w("broken") % len(findings), file=sys.stderr)
    development = development_only(args.journal, args.key, args.allow_development_key)
    if development:
        print(w("devkey"), file=sys.stderr)
    return 1 if findings or missing or left or development else 0
