"""`sabot fleet report`: a self-contained French page per casino, for the casino's director and the regulator:
its findings first, grouped and counted (the checks across shoes, then the journals' own verification), the
banker's wins day by day against the band the exact odds give, the assignments as a sabot x table matrix, and the
inventory (carnet de prises en charge); and an index of the casinos that flags those with findings. The plots are
SVG drawn here."""

import html
import math
from pathlib import Path
from urllib.parse import quote

from sabot.fleet import checks, stats
from sabot.fleet.checks import nombre
from sabot.fleet.store import Unusable
from sabot.outputs import Exists, may_write_all
from sabot.report.regulation import TITLES

_Z = 3.29  # the band: 99.9 % of days of a clean shoe fall inside (normal approximation of the binomial)
_W, _H, _PAD = 640, 220, 40
_STYLE = """body{font-family:'DejaVu Sans',sans-serif;margin:1.5em 2em;color:#222;max-width:70em}
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.2em 0 .4em}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}
th{background:#eee}.alerte{color:#a00}.muet{background:#fdd}svg{border:1px solid #ccc;margin:1em 0}
.bilan{font-size:1.05em;padding:.5em .8em;border-left:6px solid #2a7a3a;background:#eef6ef}
.bilan.avec{border-color:#b00;background:#fbeeee}
.groupe{margin:.5em 0;padding:.3em .8em;border:1px solid #e3b5b5;border-radius:4px;background:#fff8f8}
.groupe h3{font-size:1em;margin:.2em 0}.groupe ul{margin:.2em 0 .3em;padding-left:1.2em}.groupe li{margin:.15em 0}
.nombre{display:inline-block;min-width:1.6em;padding:0 .4em;border-radius:1em;background:#b00;color:#fff;
text-align:center;font-weight:bold}.nombre.zero{background:#2a7a3a}.id{color:#666;font-size:.9em}
table.casinos td:first-child,table.casinos th:first-child{text-align:left}details{margin:.2em 0}"""
_TITLES = {"F-ASSIGN": "Sabot affecté à la même table séance après séance",
           "F-INVENTORY": "Sabot muet",
           "F-RESULTS": "Résultats hors des probabilités exactes",
           "F-REPEAT": "Taille dans l'ordre d'une taille antérieure",
           "F-DEAL": "Coups ou cartes brûlées hors des règles du jeu",
           "F-LEVY": "Cagnotte : prélèvements d'une table ou d'un croupier hors de la ligne du casino",
           "F-OUVERTE": "Banque ouverte à plus d'une table du casino dans la journée"}


def _e(text):
    return html.escape(str(text), quote=True)


def results_plot(days):
    """The banker's share of coups each day, against the expected probability and its 99.9 % band."""
    if not days:
        return "<p>Aucun coup de chemin de fer.</p>"
    p = float(stats.PROBABILITIES["banque"])
    first, last = days[0][0], days[-1][0]
    span = max(1, last - first)

    def x(day):
        return _PAD + (day - first) * (_W - 2 * _PAD) / span

    def y(share):
        return _H - _PAD - share * (_H - 2 * _PAD)

    low = " ".join("%.1f,%.1f" % (x(d), y(max(0.0, p - _Z * math.sqrt(p * (1 - p) / n)))) for d, n, _ in days)
    high = " ".join("%.1f,%.1f" % (x(d), y(min(1.0, p + _Z * math.sqrt(p * (1 - p) / n))))
                    for d, n, _ in reversed(days))
    points = "".join('<circle cx="%.1f" cy="%.1f" r="3" class="%s"><title>%s : %d coups, banque %d</title></circle>' % (
        x(d), y(b / n), "dehors" if abs(b / n - p) > _Z * math.sqrt(p * (1 - p) / n) else "dedans",
        checks.day(d * 86_400_000), n, b) for d, n, b in days)
    ticks = "".join('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">%s</text>' % (
        x(d), _H - _PAD + 14, checks.day(d * 86_400_000)[5:]) for d, _, _ in days)
    return ('<svg id="resultats" width="%d" height="%d" role="img" aria-label="gains de la banque par jour">'
            '<polygon points="%s %s" fill="#cde" />'
            '<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#36c" stroke-dasharray="4" />'
            '<text x="4" y="%.1f" font-size="10">%s</text><text x="4" y="%.1f" font-size="10">0</text>'
            '<text x="4" y="%.1f" font-size="10">1</text>%s%s'
            '<style>.dedans{fill:#264}.dehors{fill:#c00}</style></svg>') % (
        _W, _H, low, high, _PAD, _W - _PAD, y(p), y(p), y(p) - 2, nombre(p, 3), y(0), y(1) + 8, points, ticks)


def matrix_plot(shoes, casino, flagged):
    """Séances of each sabot (rows) at each table (columns), darker for more; flagged sabots' labels in red."""
    rows = sorted(s for c, s in shoes if c == casino)
    tables = sorted({t for (c, _), shoe in shoes.items() if c == casino for t in shoe["tables"]})
    if not rows or not tables:
        return "<p>Aucune séance.</p>"
    top = max(n for (c, _), shoe in shoes.items() if c == casino for n in shoe["tables"].values())
    cell = 22
    parts = []
    for i, sabot in enumerate(rows):
        colour = "#c00" if sabot in flagged else "#222"
        parts.append('<text x="4" y="%d" font-size="11" fill="%s">sabot %d</text>' % (
            40 + i * cell + 15, colour, sabot))
        for j, table in enumerate(tables):
            n = shoes[(casino, sabot)]["tables"].get(table, 0)
            shade = 255 - int(200 * n / top)
            parts.append('<rect x="%d" y="%d" width="%d" height="%d" fill="rgb(%d,%d,255)" stroke="#fff">'
                         '<title>sabot %d, table %d : %d séance(s)</title></rect>' % (
                             80 + j * cell, 40 + i * cell, cell, cell, shade, shade, sabot, table, n))
    for j, table in enumerate(tables):
        parts.append('<text x="%d" y="32" font-size="11" text-anchor="middle">%d</text>' % (
            80 + j * cell + cell // 2, table))
    return '<svg id="affectations" width="%d" height="%d" role="img" aria-label="sabots par table">%s</svg>' % (
        100 + len(tables) * cell, 50 + len(rows) * cell, "".join(parts))


def page_name(casino):
    """A casino's page, inside the output folder whatever its name: nothing in it can name another folder."""
    return quote(casino, safe="-_") + ".html"


def concerns(finding, casino):
    return finding["casino"] == casino or any(w["casino"] == casino for w in finding["where"])


def _count(n, one, many):
    return "%s %s" % (nombre(n, 0), one if n == 1 else many)


def fleet_groups(mine):
    """The checks' findings of a casino, one box a check: its title, article, count and every finding."""
    boxes = []
    for rid in _TITLES:
        found = [f for f in mine if f["id"] == rid]
        if found:
            boxes.append('<div class="groupe" id="%s"><h3><span class="nombre">%d</span> %s <span class="id">(%s, '
                         '%s)</span></h3><ul>%s</ul></div>' % (
                             rid, len(found), _e(_TITLES[rid]), rid, _e(found[0]["article"]),
                             "".join('<li class="alerte">%s</li>' % _e(f["message"]) for f in found)))
    return "".join(boxes)


def journal_groups(journal_findings):
    """The journals' own findings, one box a requirement: its French title, how many, which sabots; the records'
    numbers folded away (their words are the verifier's: `sabot log verify --lang fr` says each in French)."""
    by_id = {}
    for sabot, seq, rid, article, _message in journal_findings:
        by_id.setdefault((rid, article), {}).setdefault(sabot, []).append(seq)
    boxes = []
    for (rid, article), sabots in sorted(by_id.items()):
        total = sum(map(len, sabots.values()))
        title = TITLES.get(rid, (rid,))[0]
        listed = "".join("<li>sabot %d : %s, n° %s</li>" % (sabot, _count(len(seqs), "constat", "constats"),
                                                             ", ".join(nombre(q, 0) for q in seqs))
                         for sabot, seqs in sorted(sabots.items()))
        boxes.append('<div class="groupe"><h3><span class="nombre">%d</span> %s <span class="id">(%s, %s)</span> : '
                     '%s</h3><details><summary>les enregistrements</summary><ul>%s</ul></details></div>' % (
                         total, _e(title[:1].upper() + title[1:]), _e(rid), _e(article),
                         _count(len(sabots), "sabot", "sabots"), listed))
    return "".join(boxes)


def euros(amount):
    """A sum in euros as the page says it: 1\u202f234,50\u00a0€."""
    return nombre(amount, 2) + "\u00a0€"


def levy_table(groups, mine):
    """The cagnotte by table, then by croupier: coups, those the bank won, due, levied, the rate, those with no
    levy; the rows F-LEVY names in red."""
    if not groups:
        return "<p>Aucun registre de la cagnotte.</p>"
    named = {f["message"].split(" : ")[0] for f in mine if f["id"] == "F-LEVY"}
    rows = "".join('<tr%s><td>%s %d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>' % (
        ' class="alerte"' if "%s %d" % (kind, group) in named else "", kind, group, nombre(coups, 0), nombre(won, 0),
        euros(due), euros(levied), nombre(100 * levied / due, 1) + " %" if due else "—",
        nombre(missing, 0)) for kind, group, coups, won, due, levied, missing in sorted(
            groups, key=lambda g: (g[0] != "table", g[1])))
    return ('<table id="cagnotte"><tr><th>table ou croupier</th><th>coups</th><th>gagnés par la banque</th>'
            '<th>dû</th><th>prélevé</th><th>taux du dû</th><th>sans prélèvement</th></tr>%s</table>' % rows)


def page(casino, findings, shoes, days, journal_findings, levies=()):
    mine = [f for f in findings if concerns(f, casino)]
    flagged = {w["sabot"] for f in mine if f["id"] == "F-ASSIGN" for w in f["where"]}
    silent = {w["sabot"] for f in mine if f["id"] == "F-INVENTORY" for w in f["where"]}
    sabots = sum(1 for c, _ in shoes if c == casino)
    summary = "%s de la flotte, %s de la vérification des journaux, pour %s" % (
        _count(len(mine), "constatation", "constatations"),
        _count(len(journal_findings), "constat", "constats"), _count(sabots, "sabot", "sabots"))
    carnet = "".join('<tr%s><td>%d</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td></tr>' % (
        ' class="muet"' if sabot in silent else "", sabot, checks.day(s["first_ms"]), checks.day(s["last_ms"]),
        s["seances"], _e(", ".join(str(t) for t in sorted(s["tables"]))), nombre(s["records"], 0))
        for (c, sabot), s in sorted(shoes.items()) if c == casino)
    return """<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Casino %(c)s : sabots</title>
<style>%(style)s</style></head><body><p><a href="index.html">Tous les casinos</a></p>
<h1>Casino %(c)s : contrôle des sabots</h1>
<p class="bilan%(avec)s">%(summary)s.</p>
<h2>Constatations de la flotte</h2><div id="constatations">%(listed)s</div>
<h2>Constatations de la vérification des journaux</h2><div id="journaux">%(verified)s</div>
<h2>Gains de la banque par jour</h2><p>Part des coups de chemin de fer gagnés par la banque, contre la probabilité
exacte %(p)s et sa bande à 99,9&#8239;%% (points rouges : hors de la bande).</p>%(plot)s
<h2>Cagnotte par table et par croupier (articles 59, 60)</h2><p>Sur les coups gagnés par la banque, le prélèvement
fait rapporté au prélèvement dû, d'après les registres de la cagnotte (en rouge : hors de la ligne du casino).</p>
%(levies)s
<h2>Affectation des sabots aux tables (article 58)</h2><p>Séances de chaque sabot à chaque table.</p>%(matrix)s
<h2>Carnet de prises en charge</h2><table id="carnet"><tr><th>sabot</th><th>premier enregistrement</th>
<th>dernier</th><th>séances</th><th>tables</th><th>enregistrements</th></tr>%(carnet)s</table></body></html>
""" % {"c": _e(casino), "style": _STYLE, "avec": " avec" if mine or journal_findings else "", "summary": summary,
       "listed": fleet_groups(mine) or "<p>Aucune constatation.</p>",
       "verified": journal_groups(journal_findings) or "<p>Aucun constat.</p>",
       "p": nombre(float(stats.PROBABILITIES["banque"]), 4), "plot": results_plot(days),
       "matrix": matrix_plot(shoes, casino, flagged), "carnet": carnet, "levies": levy_table(levies, mine)}


def index(casinos, findings, shoes, verified):
    """The casinos, those with findings first flagged by their count."""
    rows = []
    for casino in casinos:
        fleet = sum(1 for f in findings if concerns(f, casino))
        journal = len(verified.get(casino, ()))
        rows.append('<tr%s><td><a href="%s">%s</a></td><td>%s</td><td><span class="nombre%s">%d</span></td>'
                    '<td><span class="nombre%s">%d</span></td></tr>' % (
                        ' class="alerte"' if fleet or journal else "", _e(page_name(casino)), _e(casino),
                        nombre(sum(1 for c, _ in shoes if c == casino), 0), "" if fleet else " zero", fleet,
                        "" if journal else " zero", journal))
    flagged = sum(1 for row in rows if row.startswith('<tr class="alerte"'))
    return """<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Casinos : contrôle des sabots</title>
<style>%s</style></head><body><h1>Contrôle des sabots : %s</h1><p class="bilan%s">%s avec des constatations.</p>
<table class="casinos"><tr><th>casino</th><th>sabots</th><th>constatations de la flotte</th>
<th>constats des journaux</th></tr>%s</table></body></html>
""" % (_STYLE, _count(len(casinos), "casino", "casinos"), " avec" if flagged else "",
       _count(flagged, "casino", "casinos"), "".join(rows))


def write(engine, folder, force=False):
    """CASINO.html for each casino and an index.html; never over pages already there without force."""
    folder = Path(folder)
    findings = checks.run(engine)
    shoes = checks.inventory(engine)
    casinos = sorted({c for c, _ in shoes})
    targets = [folder / page_name(c) for c in casinos] + [folder / "index.html"]
    try:
        may_write_all(targets, force)
    except Exists as e:
        raise Unusable(str(e)) from None
    folder.mkdir(parents=True, exist_ok=True)
    daily = {}
    for casino, day, coups, banque in engine.query(checks.statement("results_daily", chemin_de_fer=0)):
        daily.setdefault(casino, []).append((day, coups, banque))
    verified = {}
    for casino, sabot, seq, rid, article, message in engine.query(
            "SELECT casino, sabot, seq, id, article, message FROM journal_findings ORDER BY casino, sabot, seq"):
        verified.setdefault(casino, []).append((sabot, seq, rid, article, message))
    levies = {}
    for casino, *group in engine.query(checks.statement("check_levies")):
        levies.setdefault(casino, []).append(tuple(group))
    for casino, target in zip(casinos, targets):
        target.write_text(page(casino, findings, shoes, daily.get(casino, []), verified.get(casino, []),
                               levies.get(casino, ())), encoding="utf-8")
    targets[-1].write_text(index(casinos, findings, shoes, verified), encoding="utf-8")
    return targets
