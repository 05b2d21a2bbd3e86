"""The report's HTML: one self-contained page (the CSS inline, from report.css; a chart a taille, inline SVG), so
it reads and prints the same wherever it is opened or archived."""

from html import escape
from importlib.resources import files

from firmware import cards, games
from firmware.record_names import unpack_totals, unpack_winners
from firmware.records import END_TABLEAU
from sabot import words
from sabot.journalfile import CODE, COUP, DISPOSITION, SEANCE, TAILLE
from sabot.logview import iso_time
from sabot.report.chart import chart
from sabot.report.model import INCIDENTS, PlayedCoup, build, stop_check
from sabot.report.regulation import quote
from sabot.report.text import Words
from sabot.verify import DEVELOPMENT_KEY, firmware_name

CSS = files(__package__).joinpath("report.css").read_text(encoding="utf-8")
RED_SUITS = "HD"
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _e(text):
    return escape(str(text), quote=True)


def card_html(card):
    name = cards.name(card)
    if card >= cards.STOP:
        return '<span class="card" title="%s">%s</span>' % (_e(name), _e(name))
    rank = "10" if name[0] == "T" else name[0]
    red = " red" if name[1] in RED_SUITS else ""
    return '<span class="card%s" title="%s">%s%s</span>' % (red, _e(name), _e(rank), SUIT_SIGNS[name[1]])


def _result_parts(f, game, w):
    """(the hands' totals, who won) in words: in English `sabot log show`'s."""
    if w.lang == "en":
        totals, _, said = words.result(f[CODE], f[DISPOSITION]).partition("; ")
        return totals, said
    hands, code = f[DISPOSITION], f[CODE]
    totals = ", ".join("%s %d" % (words.hand(game, h), total) for h, total in enumerate(unpack_totals(code, hands)))
    winners = [w.of(words.WINNERS, winner) for winner in unpack_winners(code, hands)]
    return totals, w["winner"] % winners[0] if hands <= 2 else w["winners"] % tuple(winners[:2])


def _lines_html(lines, w):
    out = []
    for css, text in lines:
        if css == "burn":
            out.append('<span class="burn">%s %s</span>' % (_e(w["burn_row"]), "".join(card_html(c) for c in text)))
        else:
            out.append('<span class="%s">%s</span>' % (css, _e(text)))
    return "".join(out)


def _coup_html(coup, game, w):
    if coup.result is not None:
        parts = []
        for h in range(coup.result[DISPOSITION]):
            dealt = "".join(card_html(c) for hand, c in coup.cards if hand == h)
            parts.append('<span class="hand"><i>%s</i> %s</span>' % (_e(words.hand(game, h)), dealt))
        cells = " ".join(parts)
        result = "%s<br><b>%s</b>" % tuple(map(_e, _result_parts(coup.result, game, w)))
    else:
        cells = "".join(card_html(c) for _, c in coup.cards)
        result = ""
    lines = list(coup.lines)
    if coup.end is not None and (coup.result is None or coup.end != END_TABLEAU):
        lines.append(("end", w.of(words.ENDS, coup.end)))
    cls = ' class="incident"' if any(css in INCIDENTS for css, _ in coup.lines) else ""
    return '<tr%s><td class="num">%d</td><td>%s</td><td>%s</td><td class="notes">%s</td></tr>' % (
        cls, coup.number, cells, result, _lines_html(lines, w))


def _between_html(between, w):
    return '<tr class="between"><td class="num">%s</td><td colspan="3" class="notes">%s</td></tr>' % (
        _e(w["between"]), _lines_html(between.lines, w))


def _quote_html(rid, w):
    article, french, english = quote(rid)
    if not french:
        return ""
    gloss = '<span class="gloss">%s%s</span>' % (_e(w["gloss"]), _e(english)) if w.lang != "fr" else ""
    return '<blockquote lang="fr">%s<cite>— %s</cite>%s</blockquote>' % (_e(french), _e(article), gloss)


def _where(seq, located):
    record = located.get(seq)
    if record is None:
        return "—"
    f = record.fields
    return "%d / %d / %d" % (f[SEANCE], f[TAILLE], f[COUP])


def _findings_html(findings, located, w):
    if not findings:
        return '<p class="check ok">%s</p>' % _e(w["no_findings"])
    groups = {}
    for f in findings:
        groups.setdefault(f.id, []).append(f)
    out = []
    for rid, group in groups.items():
        article = quote(rid)[0]
        title = w.title(rid)
        out.append('<div class="finding-group"><h3>%s%s — %s <small>(%s)</small></h3>%s' % (
            _e(rid), " · " + _e(title) if title else "", _e(article), _e(w["finding_count"] % len(group)),
            _quote_html(rid, w)))
        out.append("<table><thead><tr><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>" % (
            _e(w["col_seq"]), _e(w["col_where"]), _e(w["col_message"])))
        for f in group:
            out.append("<tr><td>%d</td><td>%s</td><td>%s</td></tr>" % (f.seq, _where(f.seq, located),
                                                                      _e(f.message)))
        out.append("</tbody></table></div>")
    return "".join(out)


def _stop_html(t, w):
    key, position, behind, expected = stop_check(t)
    text = w[key] % ((position,) if key == "stop_none" else (position, behind, expected))
    css = "ok" if key == "stop_ok" else "bad" if key == "stop_bad" else "warn"
    after = ""
    if t.stop_after:
        after = "<br>%s" % _e(w["stop_after"])
        css = "bad"
    return '<p class="check %s"><b>%s</b>%s%s</p>' % (css, _e(w["stop"] + " (S-STOPPOS, S-STOP)" + w["colon"]),
                                                     _e(text), after)


def _stop_short(t, w):
    key = stop_check(t)[0]
    return w[{"stop_ok": "stop_short", "stop_bad": "stop_short_bad", "stop_none": "stop_short_none"}[key]]


def _taille_html(seance, t, w):
    row = games.GAMES[t.game] if t.game < len(games.GAMES) else None
    head = "%s — %s, %s — %s" % (w["taille"] % t.number, w["seance"] % seance.number,
                                 w["table"] % (seance.table if seance.table is not None else "—"), words.game(t.game))
    out = ['<section class="taille"><h2>%s</h2>' % _e(head)]
    if row:
        out.append('<p class="sub">%s · %s %s %s</p>' % (
            _e(w["decks"] % (row[games.DECKS], row[games.STOP_BEFORE], row[games.COUP_MIN], row[games.COUP_MAX])),
            _e(iso_time(t.record)[:19].replace("T", " ")), _e(w["utc"]), "· seq %d" % t.record.seq))
    out.append(_stop_html(t, w))
    out.append("<h3>%s</h3>%s" % (_e(w["chart"]), chart(t, w)))
    out.append('<table class="coups"><colgroup><col class="c1"><col class="c2"><col class="c3"><col class="c4">'
               "</colgroup><thead><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>" % (
        _e(w["col_coup"]), _e(w["col_cards"]), _e(w["col_result"]), _e(w["col_notes"])))
    for item in t.items:
        out.append(_coup_html(item, t.game, w) if isinstance(item, PlayedCoup) else _between_html(item, w))
    out.append("</tbody></table></section>")
    return "".join(out)


def render(segments, reader, records, findings, key, key_file, paths, lang="fr"):
    """The whole report as one HTML string."""
    w = Words(lang)
    seances, preamble = build(records, findings, w)
    located = {r.seq: r for r in records}
    intact = not any(f.id == "J-TAMPER" for f in findings)
    sabots = sorted({s.sabot for s in segments})
    title = w["title"] % ", ".join(map(str, sabots))
    out = ['<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8">' % w["lang"],
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<title>%s</title><style>\n%s</style></head><body>" % (_e(title), CSS),
           "<h1>%s</h1>" % _e(title)]
    if records:
        out.append('<p class="sub">%s%s — %s %s</p>' % (
            _e(w["period"] + w["colon"]), _e(iso_time(records[0])[:19].replace("T", " ")),
            _e(iso_time(records[-1])[:19].replace("T", " ")), _e(w["utc"])))
    development = key == DEVELOPMENT_KEY
    out.append('<div class="verdicts"><div class="verdict %s"><b>%s</b>%s</div>' % (
        "ok" if intact else "bad", _e(w["integrity"] + w["colon"] + (w["intact"] if intact else w["broken"])),
        _e(w["seq"] % (reader.first_seq, reader.seq))))
    out.append('<div class="verdict %s"><b>%s</b>%s</div>' % (
        "ok" if not findings else "bad", _e(w["finding_count"] % len(findings)), _e(w["findings"])))
    if development:
        out.append('<div class="verdict warn"><b>%s</b>%s</div>' % (_e(w["key"]), _e(w["key_dev"])))
    out.append("</div>")
    out.append(_identity_html(segments, reader, key_file, development, paths, w))
    out.append("<h2>%s</h2><p class=\"check %s\"><b>%s</b> — %s. %s%d, %s.</p>" % (
        _e(w["integrity"]), "ok" if intact else "bad", _e(w["intact"] if intact else w["broken"]),
        _e(w["intact_words"] if intact else w["broken_words"]), _e(w["records"] + w["colon"]), reader.records,
        _e(w["seq"] % (reader.first_seq, reader.seq))))
    out.append(_summary_html(seances, w))
    out.append("<h2>%s</h2>%s" % (_e(w["findings"]), _findings_html(findings, located, w)))
    if preamble:
        out.append('<h3>%s</h3><p class="notes">%s</p>' % (_e(w["before"]), _lines_html(
            [("", text) for text in preamble], w)))
    for seance in seances:
        for t in seance.tailles:
            out.append(_taille_html(seance, t, w))
    out.append("<footer>%s</footer></body></html>\n" % _e(w["footer"]))
    return "".join(out)


def _identity_html(segments, reader, key_file, development, paths, w):
    rows = [(w["sabot"], ", ".join(str(s) for s in sorted({s.sabot for s in segments})))]
    firmwares = []
    for s in segments:
        words = firmware_name(s.firmware), s.firmware.hex(" ")
        if not firmwares or firmwares[-1][0] != words:
            firmwares.append((words, [s.number]))
        else:
            firmwares[-1][1].append(s.number)
    for (name, hexed), numbers in firmwares:
        where = " (segments %d–%d)" % (numbers[0], numbers[-1]) if len(firmwares) > 1 else ""
        rows.append((w["firmware"] + where, '%s<br><span class="mono">%s</span>' % (_e(name), _e(hexed)), True))
    key_words = w["key_dev"] if development else w["key_given"] % key_file
    ids = w["key_id"] % reader.key_id.hex()
    others = sorted({s.key_id.hex() for s in segments} - {reader.key_id.hex()})
    if others:
        ids += "; " + w["other_keys"] % ", ".join(others)
    rows.append((w["key"], '%s<br><span class="mono">%s</span>' % (_e(key_words), _e(ids)), True))
    rows.append((w["segments"], "%d%s%s" % (len(segments), w["colon"], ", ".join(s.path.name for s in segments))))
    rows.append((w["journal"], " ".join(str(p) for p in paths)))
    out = ["<h2>%s</h2><table class=\"ident\"><tbody>" % _e(w["identity"])]
    for item in rows:
        value = item[1] if len(item) == 3 else _e(item[1])
        out.append("<tr><th>%s</th><td>%s</td></tr>" % (_e(item[0]), value))
    out.append("</tbody></table>")
    return "".join(out)


def _summary_html(seances, w):
    out = ["<h2>%s</h2><table><thead><tr>" % _e(w["summary"])]
    for key in ("col_seance", "col_table", "col_taille", "game", "coups", "dealt", "burned", "stop", "findings"):
        out.append("<th>%s</th>" % _e(w[key]))
    out.append("</tr></thead><tbody>")
    for seance in seances:
        table = str(seance.table) if seance.table is not None else "—"
        if seance.employee:
            table += " (%s)" % (w["by"] % seance.employee)
        if not seance.tailles:
            out.append("<tr><td>%d</td><td>%s</td><td colspan=\"7\">—</td></tr>" % (seance.number, _e(table)))
        for t in seance.tailles:
            coups = sum(1 for c in t.items if isinstance(c, PlayedCoup))
            key = stop_check(t)[0]
            css = ' class="%s"' % ("t-ok" if key == "stop_ok" and not t.stop_after else "t-bad" if key == "stop_bad"
                                   or t.stop_after else "t-warn")
            out.append("<tr><td>%d</td><td>%s</td><td>%d</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td>"
                       "<td%s>%s</td><td>%s</td></tr>" % (
                           seance.number, _e(table), t.number, _e(words.game(t.game)), coups, t.dealt, t.burned,
                           css, _e(_stop_short(t, w)), _e(", ".join(sorted({f.id for f in t.findings})) or "—")))
    out.append("</tbody></table>")
    return "".join(out)
