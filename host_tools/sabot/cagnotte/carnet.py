"""The carnet d'enregistrement des cagnottes for the inspector: per table and séance, the sabot assigned to it
(Article 58's column 3), each coup's result for the bank, its stakes, the levy due and the levy taken with its
tickets, and the totals; verdict first, in French. One self-contained HTML page, printed to PDF by report.pdf."""

from decimal import Decimal
from html import escape

from firmware import games
from sabot import times
from sabot.cagnotte import check, levy
from sabot.cagnotte.said import money, percent
from sabot.report.page import CSS

_CSS = """
@page { @top-left { content: "Carnet d'enregistrement des cagnottes"; font-size: 8pt; color: #555; }
  @bottom-right { content: "page " counter(page) " sur " counter(pages); font-size: 8pt; color: #555; } }
.carnet td.n { text-align: right; white-space: nowrap; }
.carnet tr.total td { font-weight: bold; background: #f5f5f5; }
.carnet tr.flag td { background: #fdecea; }
.carnet td.col3 { font-weight: bold; }
.carnet table.visas td { height: 2.2em; }
.carnet table.visas td.sign { width: 35%; }
"""


def employee(number):
    """Who assigned the sabot: employee 0 is the one `sabot seance open` journals when --by was not given."""
    return "l'employé n° %d" % number if number else "un employé non indiqué (n° 0)"


def _cell(text, css=""):
    return "<td%s>%s</td>" % (' class="%s"' % css if css else "", text)


def _said(finding):
    return "[%s, art. %s] %s" % (check.SAID[finding.what][0], check.SAID[finding.what][1],
                                 finding.said("fr", money, percent))


def page(seances, coups, entries, findings, journal_findings, establishment, title_when, element=(False, [], None)):
    """The carnet as HTML. findings: check.check's on these coups and entries; journal_findings: verify's; element:
    (checked, the J-TAMPER findings of the element's signatures, the registry) (cli.signatures)."""
    flagged = {}
    for f in findings:
        flagged.setdefault(f.key, []).append(f)
    checked, forged, registry = element
    ok = not findings and not journal_findings and not forged
    due_all = sum((levy.due(c.game, c.results, _stakes(c, entries))[0] for c in coups if c.key in entries),
                  Decimal(0))
    taken_all = sum((entries[c.key].levy for c in coups if c.key in entries), Decimal(0))
    head = [
        "<h1>Carnet d'enregistrement des cagnottes</h1>",
        '<p class="sub">%s · établi le %s</p>' % (escape(establishment or "établissement non renseigné"),
                                                  escape(title_when)),
        '<div class="verdicts"><div class="verdict %s"><b>%s</b>%s</div>' % (
            "ok" if ok else "bad", "CONFORME" if ok else "NON CONFORME",
            "les prélèvements concordent avec le journal du sabot" if ok else
            "%d constat(s) sur le registre, %d sur le journal" % (len(findings), len(journal_findings) + len(forged))),
        '<div class="verdict"><b>%s</b>dus sur %d coups</div><div class="verdict"><b>%s</b>prélevés</div></div>' % (
            money(due_all), len(coups), money(taken_all)),
    ]
    sabot = next((s.sabot for s in seances.values()), None)
    if not checked:
        said = ("Signatures de l'élément sécurisé du sabot (points de contrôle, reçu) : NON vérifiées, aucun registre "
                "donné (--registry shoes.json) ; sabot log verify --registry les vérifie")
    elif forged:
        said = ("Signatures de l'élément sécurisé du sabot (points de contrôle, reçu) : vérifiées avec la clé publique "
                "que le registre %s donne pour le sabot n° %s : NON CONFORMES, %d constat(s) J-TAMPER (%s)" % (
                    registry, sabot, len(forged), "; ".join(f["message"] for f in forged)))
    else:
        said = ("Signatures de l'élément sécurisé du sabot (points de contrôle, reçu) : vérifiées avec la clé publique "
                "que le registre %s donne pour le sabot n° %s : conformes" % (registry, sabot))
    head.append('<p class="check %s">%s</p>' % ("ok" if checked and not forged else "bad" if forged else "warn",
                                               escape(said)))
    if findings:
        head.append("<h2>Constats</h2><ul>%s</ul>" % "".join(
            "<li>%s</li>" % escape(_where(f) + " : " + _said(f)) for f in findings))
    body = []
    by_seance = {}
    for coup in coups:
        by_seance.setdefault(coup.key[0], []).append(coup)
    for number in sorted(set(by_seance) | set(seances)):
        body.append(_seance(seances.get(number), number, by_seance.get(number, []), entries, flagged))
    body.append(_VISAS)
    return ('<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Carnet d\'enregistrement des '
            'cagnottes</title><style>%s%s</style></head><body class="carnet">%s%s</body></html>' % (
                CSS, _CSS, "".join(head), "".join(body)))


# The visas of the people who answer for the carnet: each signs it, named and dated, by hand on the printed page.
_VISAS = ('<h2>Visas</h2><table class="visas"><tr><th>Qualité</th><th>Nom</th><th>Date</th><th>Signature</th></tr>'
          + "".join('<tr><td>%s</td><td></td><td></td><td class="sign"></td></tr>' % who for who in (
              "Le directeur responsable des jeux", "Le membre du comité de direction",
              "L'employé responsable de l'affectation des sabots (article 58)",
              "Le fonctionnaire chargé du contrôle (service des courses et jeux)")) + "</table>")


def _where(finding):
    seance, taille, coup = finding.key
    return "Séance %d, taille %d, coup %d" % finding.key if taille else "Séance %d" % seance


def _stakes(coup, entries):
    stakes = entries[coup.key].stakes
    return tuple(s or Decimal(0) for s in (stakes if len(coup.results) > 1 else stakes[:1]))


def _seance(seance, number, coups, entries, flagged):
    game = games.GAMES[coups[0].game][games.NAME].replace("_", " ") if coups else ""
    ident = "<h2>Séance n° %d%s</h2>" % (number, " · " + escape(game) if game else "")
    if seance:
        ident += ('<table class="ident"><tr><th>Table</th><td>%d</td></tr><tr><th>Sabot affecté (colonne 3)</th>'
                  '<td class="col3">n° %d, par %s</td></tr><tr><th>Ouverture</th><td>%s</td></tr>'
                  '<tr><th>Clôture</th><td>%s</td></tr></table>' % (
                      seance.table, seance.sabot, employee(seance.employee), times.paris(seance.opened_ms),
                      times.paris(seance.closed_ms) if seance.closed_ms else "séance non close dans le journal"))
    rows = ["<tr><th>Taille</th><th>Coup</th><th>Résultat pour la banque</th><th>Mises</th><th>Dû</th>"
            "<th>Prélevé</th><th>Tickets</th><th>Constats</th></tr>"]
    due_total, taken_total = Decimal(0), Decimal(0)
    for coup in coups:
        entry = entries.get(coup.key)
        results = ", ".join("tableau %d %s" % (i + 1, r) for i, r in enumerate(coup.results)) if len(
            coup.results) > 1 else coup.results[0]
        found = flagged.get(coup.key, [])
        if entry is None:
            cells = [_cell("—", "n")] * 4
        else:
            due = levy.due(coup.game, coup.results, _stakes(coup, entries))[0]
            due_total += due
            taken_total += entry.levy
            cells = [_cell(" / ".join(money(s) for s in _stakes(coup, entries)), "n"), _cell(money(due), "n"),
                     _cell(money(entry.levy), "n"), _cell(escape(", ".join(
                         "%d × %s" % (n, money(v)) for v, n in sorted(entry.tickets.items(), reverse=True))))]
        rows.append('<tr%s>%s%s%s%s%s</tr>' % (
            ' class="flag"' if found else "", _cell(str(coup.key[1]), "n"), _cell(str(coup.key[2]), "n"),
            _cell(escape(results)), "".join(cells), _cell(escape("; ".join(_said(f) for f in found)))))
    rows.append('<tr class="total"><td colspan="4">Total de la séance</td>%s%s<td colspan="2"></td></tr>' % (
        _cell(money(due_total), "n"), _cell(money(taken_total), "n")))
    return ident + "<table>%s</table>" % "".join(rows)
