"""`sabot fleet report`: a self-contained French page per casino, for the casino's director and the regulator:
its findings, the banker's wins day by day against the band the exact odds give, the assignments as a sabot x
table matrix, and the inventory (carnet de prises en charge). The plots are SVG drawn here."""

import html
import math
from pathlib import Path

from sabot.fleet import checks, stats
from sabot.fleet.store import Unusable

_Z = 3.29  # the band: 99.9 % of days of a clean shoe fall inside (normal approximation of the binomial)
_W, _H, _PAD = 640, 220, 40
_STYLE = """body{font-family:'DejaVu Sans',sans-serif;margin:2em;color:#222}h1{font-size:1.5em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}
th{background:#eee}.alerte{color:#a00}.muet{background:#fdd}svg{border:1px solid #ccc;margin:1em 0}"""


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
            '<text x="4" y="%.1f" font-size="10">%.3f</text><text x="4" y="%.1f" font-size="10">0</text>'
            '<text x="4" y="%.1f" font-size="10">1</text>%s%s'
            '<style>.dedans{fill:#264}.dehors{fill:#c00}</style></svg>') % (
        _W, _H, low, high, _PAD, _W - _PAD, y(p), y(p), y(p) - 2, p, y(0), y(1) + 8, points, ticks)


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


def page(casino, findings, shoes, days, journal_findings):
    mine = [f for f in findings if f["casino"] == casino or any(w["casino"] == casino for w in f["where"])]
    flagged = {w["sabot"] for f in mine if f["id"] == "F-ASSIGN" for w in f["where"]}
    silent = {w["sabot"] for f in mine if f["id"] == "F-INVENTORY" for w in f["where"]}
    listed = "".join('<li class="alerte"><b>%s</b> (%s) %s</li>' % (_e(f["id"]), _e(f["article"]), _e(f["message"]))
                     for f in mine) or "<li>Aucune constatation.</li>"
    carnet = "".join('<tr%s><td>%d</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%d</td></tr>' % (
        ' class="muet"' if sabot in silent else "", sabot, checks.day(s["first_ms"]), checks.day(s["last_ms"]),
        s["seances"], _e(", ".join(str(t) for t in sorted(s["tables"]))), s["records"])
        for (c, sabot), s in sorted(shoes.items()) if c == casino)
    verified = "".join("<li>sabot %d, n° %d : <b>%s</b> (%s) %s</li>" % (s, seq, _e(rid), _e(article), _e(message))
                       for s, seq, rid, article, message in journal_findings) or "<li>Aucune.</li>"
    return """<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Casino %(c)s : sabots</title>
<style>%(style)s</style></head><body><h1>Casino %(c)s : contrôle des sabots</h1>
<h2>Constatations</h2><ul id="constatations">%(listed)s</ul>
<h2>Gains de la banque par jour</h2><p>Part des coups de chemin de fer gagnés par la banque, contre la probabilité
exacte %(p).4f et sa bande à 99,9 %% (points rouges : hors de la bande).</p>%(plot)s
<h2>Affectation des sabots aux tables (article 58)</h2><p>Séances de chaque sabot à chaque table.</p>%(matrix)s
<h2>Carnet de prises en charge</h2><table id="carnet"><tr><th>sabot</th><th>premier enregistrement</th>
<th>dernier</th><th>séances</th><th>tables</th><th>enregistrements</th></tr>%(carnet)s</table>
<h2>Constatations de la vérification des journaux</h2><ul>%(verified)s</ul></body></html>
""" % {"c": _e(casino), "style": _STYLE, "listed": listed, "p": float(stats.PROBABILITIES["banque"]),
       "plot": results_plot(days), "matrix": matrix_plot(shoes, casino, flagged), "carnet": carnet,
       "verified": verified}


def write(engine, folder, force=False):
    """CASINO.html for each casino and an index.html; never over pages already there without force."""
    folder = Path(folder)
    findings = checks.run(engine)
    shoes = checks.inventory(engine)
    casinos = sorted({c for c, _ in shoes})
    targets = [folder / ("%s.html" % c) for c in casinos] + [folder / "index.html"]
    existing = [p for p in targets if p.exists()]
    if existing and not force:
        raise Unusable("%s: already there; --force overwrites the pages" % existing[0])
    folder.mkdir(parents=True, exist_ok=True)
    daily = {}
    for casino, day, coups, banque in engine.query(checks.statement("results_daily", chemin_de_fer=0)):
        daily.setdefault(casino, []).append((day, coups, banque))
    verified = {}
    for casino, sabot, seq, rid, article, message in engine.query(
            "SELECT casino, sabot, seq, id, article, message FROM journal_findings ORDER BY casino, sabot, seq"):
        verified.setdefault(casino, []).append((sabot, seq, rid, article, message))
    for casino, target in zip(casinos, targets):
        target.write_text(page(casino, findings, shoes, daily.get(casino, []), verified.get(casino, [])),
                          encoding="utf-8")
    targets[-1].write_text('<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><title>Casinos</title></head>'
                           "<body><h1>Casinos</h1><ul>%s</ul></body></html>\n" % "".join(
                               '<li><a href="%s.html">%s</a></li>' % (_e(c), _e(c)) for c in casinos),
                           encoding="utf-8")
    return targets
