"""`sabot pit recall --table T --coup N`: a disputed coup, card by card, as the shoe's journal has it (docs/pit.md):
read from the pit's copy of the journal (or any pulled folder), verified whole first as `sabot log verify` does,
each card with its hand and the time the shoe journalled it, the result as the croupier announced it, and the
checkpoints that cover the coup (its opening's and its end's) with their signatures checked against the shoe's
public key from the casino's registry: said checked only when they were. Text, JSON, or a one-page PDF for the
floor manager's report (printed by Chromium, as `sabot report`)."""

import html
import json
import sys
from pathlib import Path

from firmware import records
from sabot import checkpoints, receipts, times
from sabot.fleet.ingest import verified
from sabot.journalfile import CODE, COUP, SEANCE, SEQ, TIME, TYPE, load_segments
from sabot.journalfile import Unusable as JournalUnusable
from sabot.pit.table import Table
from sabot.verify import read_key


class NotFound(Exception):
    pass


def when(time_ms):
    """A record's time to the millisecond, in UTC: a dispute's cards are a second apart."""
    return times.moment(time_ms).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + " UTC"


def coup_of(folder, table, coup, seance=None, public_keys=()):
    """The coup as a dict (JSON): its cards, result, checkpoints and the findings at its records; NotFound."""
    segments = load_segments([folder])
    receipt = receipts.found_in([folder])  # a pull's; the pit's copy has none: its end is the next pull's to vouch for
    per_segment, findings = verified(segments, read_key(None), receipt, [folder], public_keys)
    findings = [f for f in findings if f.message != receipts.NO_RECEIPT]
    rows = [row for rows in per_segment for row in rows]
    seances = {row[SEANCE] for row in rows if row[TYPE] == records.R_SEANCE and row[CODE] == table}
    if not seances:
        raise NotFound("aucune séance à la table %d dans %s (no séance at table %d)" % (table, folder, table))
    seance = seance if seance is not None else max(seances)
    if seance not in seances:
        raise NotFound("la séance %d n'est pas à la table %d (séance %d is not at table %d)" % (
            seance, table, seance, table))
    fold = Table(segments[0].sabot)
    shown, span = None, []
    for row in rows:
        fold.feed(row)
        if row[SEANCE] == seance and fold.coup and fold.coup["number"] == coup and row[COUP] == coup:
            shown = fold.coup
            span.append(row)
    if shown is None:
        raise NotFound("pas de coup %d à la séance %d de la table %d (no coup %d)" % (coup, seance, table, coup))
    first, last = span[0][SEQ], span[-1][SEQ]
    return {"sabot": segments[0].sabot, "table": table, "seance": seance, "game": fold.state()["game"],
            "coup": coup, "opened": when(span[0][TIME]), "first_seq": first, "last_seq": last,
            "cards": [dict(c, time=when(c["time_ms"])) for c in shown["cards"]], "result": shown["result"],
            "checkpoints": _covering(folder, first, last, public_keys),
            "findings": [{"seq": f.seq, "id": f.id, "message": f.message} for f in findings if first <= f.seq <= last],
            "intact": not any(f.id == "J-TAMPER" for f in findings)}


def _covering(folder, first, last, public_keys):
    """The checkpoint entries from the coup's opening to the first at or after its last record, each with its
    signature checked (True, False) or not (None: no public key given)."""
    points = checkpoints.read([folder])
    if points is None:
        return []
    out = []
    for entry in points.entries():
        if entry.seq < first:
            continue
        signed = any(entry.signed_by(key) for key in public_keys) if public_keys else None
        out.append({"counter": entry.counter, "seq": entry.seq,
                    "reason": checkpoints.REASONS.get(entry.reason, ("?", "?"))[1], "signed": signed})
        if entry.seq >= last:
            break
    return out


def text(c):
    lines = ["%s — table %d, séance %d, coup %d (%s), sabot %d" % (
        "JOURNAL INTÈGRE" if c["intact"] else "JOURNAL ROMPU", c["table"], c["seance"], c["coup"], c["game"],
        c["sabot"]), "ouvert (« rien ne va plus ») le %s, enregistrement %d" % (c["opened"], c["first_seq"])]
    for n, card in enumerate(c["cards"], 1):
        lines.append("  %d. %-8s %-4s %-20s %s  n° %d" % (n, card["hand"], card["card"], card["name"], card["time"],
                                                          card["seq"]))
    lines.append("résultat : %s" % (c["result"]["said"] if c["result"] else "aucun (coup inachevé)"))
    for p in c["checkpoints"]:
        said = {True: "signature vérifiée", False: "SIGNATURE FAUSSE", None: "signature non vérifiée (--registry)"}
        lines.append("point de contrôle n° %d (%s), enregistrement %d : %s" % (p["counter"], p["reason"], p["seq"],
                                                                            said[p["signed"]]))
    if not c["checkpoints"]:
        lines.append("aucun point de contrôle ne couvre encore ce coup")
    lines += ["constat %s à l'enregistrement %d : %s" % (f["id"], f["seq"], f["message"]) for f in c["findings"]]
    return "\n".join(lines) + "\n"


def page(c):
    """The coup as one HTML page (the pit's /recall/ and the PDF's)."""
    e = html.escape
    rows = "".join("<tr><td>%d</td><td>%s</td><td class='%s'>%s</td><td>%s</td><td>%s</td><td>%d</td></tr>" % (
        n, e(card["hand"]), "red" if card["red"] else "", e(card["card"]), e(card["name"]), e(card["time"]),
        card["seq"]) for n, card in enumerate(c["cards"], 1))
    said = {True: "signature vérifiée", False: "SIGNATURE FAUSSE", None: "signature non vérifiée"}
    points = "".join("<li>n° %d (%s), enregistrement %d : %s</li>" % (p["counter"], e(p["reason"]), p["seq"],
                                                                     said[p["signed"]]) for p in c["checkpoints"])
    found = "".join("<li>%s, enregistrement %d : %s</li>" % (e(f["id"]), f["seq"], e(f["message"]))
                    for f in c["findings"])
    return ("<!doctype html><html lang='fr'><head><meta charset='utf-8'><title>Coup %d, table %d</title><style>"
            "body{font-family:'DejaVu Sans',sans-serif;margin:2em}td,th{border-bottom:1px solid #999;padding:.2em .6em;"
            "text-align:left}.red{color:#c0161c}h1{font-size:1.4em}.verdict{font-size:1.3em;font-weight:bold}"
            "@page{size:A4;margin:1.5cm}</style></head><body>"
            "<p class='verdict'>%s</p><h1>Table %d — séance %d — coup %d (%s) — sabot %d</h1>"
            "<p>Ouvert (« rien ne va plus ») le %s, enregistrement %d.</p>"
            "<table><tr><th>#</th><th>Main</th><th>Carte</th><th></th><th>Heure du journal</th><th>N°</th></tr>%s"
            "</table><p>Résultat : %s</p><h2>Points de contrôle</h2><ul>%s</ul>%s</body></html>") % (
        c["coup"], c["table"], "Journal intègre" if c["intact"] else "Journal rompu : voir les constats",
        c["table"], c["seance"], c["coup"], e(c["game"] or ""), c["sabot"], c["opened"], c["first_seq"], rows,
        e(c["result"]["said"]) if c["result"] else "aucun (coup inachevé)",
        points or "<li>aucun ne couvre encore ce coup</li>", "<h2>Constats</h2><ul>%s</ul>" % found if found else "")


def journals(folder):
    """The journals under folder: itself when it holds segments (a pull), else each shoe's copy the pit keeps."""
    folder = Path(folder)
    if any(folder.glob("*.sbj")):
        return [folder]
    return sorted(p for p in folder.glob("sabot-*") if any(p.glob("*.sbj")))


def find(folder, table, coup, seance=None, registry=None):
    """The coup at table in the journals under folder: the latest séance at that table (or seance) that has it."""
    found, why = [], None
    for journal in journals(folder):
        sabot = load_segments([journal])[0].sabot
        public_keys = checkpoints.registry_keys(registry, sabot) if registry else ()
        try:
            found.append(coup_of(journal, table, coup, seance, public_keys))
        except NotFound as e:
            why = e
    if not found:
        raise why or NotFound("aucun journal dans %s (no journal)" % folder)
    return max(found, key=lambda c: c["opened"])


def recall(folder, table, coup, seance=None, registry=None, pdf=None, as_json=False, out=sys.stdout,
           err=sys.stderr):
    """Exit status: 0 the coup said (1 when its journal is not intact), 2 no such coup or unusable input."""
    from sabot.element import NotEnrolled

    try:
        c = find(Path(folder), table, coup, seance, registry)
    except (NotFound, JournalUnusable, NotEnrolled, OSError) as e:
        print("sabot pit recall: error: %s" % e, file=err)
        return 2
    if pdf:
        from sabot.report.pdf import PdfError, print_pdf

        try:
            print_pdf(page(c), Path(pdf))
        except PdfError as e:
            print("sabot pit recall: error: %s" % e, file=err)
            return 2
    out.write(json.dumps(c, ensure_ascii=False, indent=1) + "\n" if as_json else text(c))
    return 0 if c["intact"] else 1
