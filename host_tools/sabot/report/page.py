"""The report's HTML: one self-contained page (the CSS inline, from report.css; a chart a taille, inline SVG), so
it reads and prints the same wherever it is opened or archived. In print, each page has a running header and its
number (CSS page margin boxes)."""

from html import escape
from importlib.resources import files

from firmware import games
from firmware.format import words
from firmware.record_names import unpack_totals, unpack_winners
from firmware.records import END_TABLEAU
from sabot import times, tool_version
from sabot.journalfile import CODE, COUP, DISPOSITION, SEANCE, TAILLE
from sabot.report.cardwords import full, is_red, short
from sabot.report.chart import chart
from sabot.report.model import INCIDENTS, PlayedCoup, stop_check
from sabot.report.regulation import quote
from sabot.report.text import firmware_words
from sabot.verify import SAID, checkpoints_said

CSS = files(__package__).joinpath("report.css").read_text(encoding="utf-8")


def _e(text):
    return escape(str(text), quote=True)


def _css_string(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def card_html(card, lang):
    red = " red" if is_red(card) else ""
    return '<span class="card%s" title="%s">%s</span>' % (red, _e(full(card, lang)), _e(short(card, lang)))


def _result_parts(f, game, w):
    """(the hands' totals, who won) in words: in English `sabot log show`'s."""
    hands, code = f[DISPOSITION], f[CODE]
    if not 2 <= hands <= 3:
        return "", "code %d" % code
    if w.lang == "en":
        totals, _, said = words.result(code, hands).partition("; ")
        return totals, said
    totals = ", ".join("%s %d" % (words.hand(game, h), total) for h, total in enumerate(unpack_totals(code, hands)))
    won = unpack_winners(code, hands)
    winners = tuple(w.of(words.WINNERS, winner) for winner in won)
    bank = tuple(w.of(words.BANK, winner) for winner in won)
    if hands <= 2:
        return totals, w["winner"] % winners[0] + w["bank"] % bank[0]
    return totals, w["winners"] % winners[:2] + w["bank_dt"] % bank[:2]


def _lines_html(lines, w):
    out = []
    for css, text in lines:
        if css == "burn":
            out.append('<span class="burn">%s %s</span>' % (_e(w["burn_row"]), "".join(
                card_html(c, w.lang) for c in text)))
        else:
            out.append('<span class="%s">%s</span>' % (css, _e(text)))
    return "".join(out)


def _coup_html(coup, game, w):
    if coup.result is not None and 2 <= coup.result[DISPOSITION] <= 3:
        parts = []
        for h in range(coup.result[DISPOSITION]):
            dealt = "".join(card_html(c, w.lang) for hand, c in coup.cards if hand == h)
            parts.append('<span class="hand"><i>%s</i> %s</span>' % (_e(words.hand(game, h)), dealt))
        cells = " ".join(parts)
        result = "%s<br><b>%s</b>" % tuple(map(_e, _result_parts(coup.result, game, w)))
    else:
        cells = "".join(card_html(c, w.lang) for _, c in coup.cards)
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


def _where(seq, story):
    f = story.located.get(seq)
    if f is None:
        return "—"
    return "%d / %d / %d" % (f[SEANCE], f[TAILLE], f[COUP])


def _findings_html(findings, story, w):
    if not findings:
        return '<p class="check ok">%s</p>' % _e(w["no_findings"])
    groups = {}
    for f in findings:
        groups.setdefault(f.id, []).append(f)
    out = []
    for rid, group in groups.items():
        article = quote(rid)[0]
        title = w.title(rid)
        out.append('<div class="finding-group%s"><h3>%s%s — %s <small>(%s)</small></h3>%s' % (
            " small" if len(group) <= 6 else "", _e(rid), " · " + _e(title) if title else "", _e(article),
            _e(w["finding_count"] % len(group)), _quote_html(rid, w)))
        out.append("<table><thead><tr><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>" % (
            _e(w["col_seq"]), _e(w["col_where"]), _e(w["col_message"])))
        for f in group:
            out.append("<tr><td>%d</td><td>%s</td><td>%s</td></tr>" % (f.seq, _where(f.seq, story),
                                                                      _e(story.said[id(f)])))
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


def _when(time_ms, w):
    return times.said(time_ms, w.lang == "fr")


_SHORT = 8  # rows (coups, between coups) of a taille that fits half a page: it follows on the page before, whole


def _taille_html(seance, t, w):
    row = games.GAMES[t.game] if t.game < len(games.GAMES) else None
    head = "%s — %s, %s — %s" % (w["taille"] % t.number, w["seance"] % seance.number,
                                 w["table"] % (seance.table if seance.table is not None else "—"), words.game(t.game))
    out = ['<section class="taille%s"><h2>%s</h2>' % (" short" if len(t.items) <= _SHORT else "", _e(head))]
    if row:
        out.append('<p class="sub">%s · %s · %s</p>' % (
            _e(w["decks"] % (row[games.DECKS], row[games.STOP_BEFORE], row[games.COUP_MIN], row[games.COUP_MAX])),
            _e(_when(t.time_ms, w)), _e(w["seq_n"] % t.seq)))
    out.append(_stop_html(t, w))
    out.append("<h3>%s</h3>%s" % (_e(w["chart"]), chart(t, w)))
    out.append('<table class="coups"><colgroup><col class="c1"><col class="c2"><col class="c3"><col class="c4">'
               "</colgroup><thead><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>" % (
        _e(w["col_coup"]), _e(w["col_cards"]), _e(w["col_result"]), _e(w["col_notes"])))
    for item in t.items:
        out.append(_coup_html(item, t.game, w) if isinstance(item, PlayedCoup) else _between_html(item, w))
    out.append("</tbody></table></section>")
    return "".join(out)


def render(journal, w, generated_ms):
    """The whole report as one HTML string. journal: report.cli.Checked (segments, digests, reader, findings, the
    verdict, the Story, the key); generated_ms: when, for its first page."""
    story, reader, findings = journal.story, journal.reader, journal.findings
    intact = journal.intact
    title = w["title"] % journal.segments[0].sabot  # the journal's; a segment under another number is a finding
    header = "%s — %s" % (title, w["generated"] % times.said(generated_ms, w.lang == "fr"))
    margins = ("@page { @top-left { content: %s; font-size: 8pt; color: #555; } "
               "@bottom-right { content: %s counter(page) %s counter(pages); font-size: 8pt; color: #555; } }\n" % (
                   _css_string(header), _css_string(w["page"] + " "), _css_string(" " + w["page_of"] + " ")))
    out = ['<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8">' % w["lang"],
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<meta name="generator" content="sabot report %s">' % _e(tool_version()),
           "<title>%s</title><style>\n%s%s</style></head><body>" % (_e(title), CSS, margins)]
    out.append(_first_page(journal, title, generated_ms, w))
    unproven = journal.development and not journal.allowed
    out.append("<h2>%s</h2><p class=\"check %s\"><b>%s</b> — %s%s. %s%d, %s.</p>" % (
        _e(w["integrity"]), "bad" if not intact else "warn" if unproven else "ok",
        _e(w["intact"] if intact else w["broken"]),
        _e(w["broken_words"] if not intact else w["intact_words_hmac"] if _tagged(journal) else w["intact_words"]),
        _e(w["intact_dev"] if intact and unproven else ""), _e(w["records"] + w["colon"]), reader.records,
        _e(w["seq"] % (reader.first_seq, reader.seq))))
    out.append(_summary_html(story, w))
    out.append("<h2>%s</h2>%s" % (_e(w["findings"]), _findings_html(findings, story, w)))
    if story.authorities:  # P-AUTHORITY: who changed the shoe's number, the casino's key, its clock
        out.append('<h3>%s</h3><p class="notes">%s</p>' % (_e(w["authority"]), _lines_html(
            [("", text) for text in story.authorities], w)))
    if story.preamble:
        out.append('<h3>%s</h3><p class="notes">%s</p>' % (_e(w["before"]), _lines_html(
            [("", text) for text in story.preamble], w)))
    for seance in story.seances:
        for t in seance.tailles:
            if not t.condensed:
                out.append(_taille_html(seance, t, w))
    out.append(_segments_html(journal, w))
    out.append(_signature_html(w))
    out.append("</body></html>\n")
    return "".join(out)


def _verdict_html(journal, w):
    """The verdict `sabot log verify` gives with the same options, and why, in the inspector's words."""
    if journal.ok:
        ok = w["why_ok"] if _tagged(journal) or journal.development else w["why_ok_element"]
        reasons = [ok] + ([w["why_dev_allowed"]] if journal.development else [])
    else:
        reasons = [w["why_broken"]] if not journal.intact else []
        if journal.findings:
            reasons.append(w["why_findings"] % len(journal.findings))
        if journal.unvouched:
            reasons.append(w["why_no_receipt"])
        if journal.development and not journal.allowed:
            reasons.append(w["why_dev"])
        if journal.unsigned:
            reasons.append(w["why_unsigned"])
    return '<div class="verdict %s"><b>%s</b><ul>%s</ul><p class="element">%s</p><span class="sub">%s</span></div>' % (
        "ok" if journal.ok else "bad", _e(w["verdict"] + w["colon"] + w["conforme" if journal.ok else "non_conforme"]),
        "".join("<li>%s</li>" % _e(reason) for reason in reasons), _element_html(journal, w), _e(w["verdict_same"]))


def _element_html(journal, w):
    """Whether the secure element's signatures (checkpoints, receipt) were checked, with which public key, and
    the checkpoints' line as `sabot log verify` says it."""
    if journal.element is None:
        return _e(w["element_unchecked"])
    kind, path = journal.element
    said = w["element_file"] % path if kind == "public_key" else w["element_registry"] % (
        path, journal.segments[0].sabot)
    points = checkpoints_said(journal.points, SAID[w.lang], "").strip()
    vouched = journal.trust.said(w.lang) if journal.trust else ""  # who vouches for the registry
    return "%s<br>%s%s" % (_e(said), _e(points[:1].upper() + points[1:]), "<br>" + _e(
        vouched[:1].upper() + vouched[1:]) if vouched else "")


def _seances_html(story, w):
    """Each séance with its table and the hours it opened and closed: the first page's, the first few only."""
    shown = story.seances[:_SEANCES_FIRST]
    if not shown:
        return '<p class="sub">%s</p>' % _e(w["no_seance"])
    out = ['<table class="seances"><thead><tr>%s</tr></thead><tbody>' % "".join(
        "<th>%s</th>" % _e(w[key]) for key in ("col_seance", "col_table", "col_opened", "col_closed", "col_by",
                                               "col_tailles"))]
    for seance in shown:
        out.append("<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td></tr>" % (
            seance.number, _e(seance.table if seance.table is not None else "—"),
            _e(times.said(seance.time_ms, w.lang == "fr")),
            _e(times.said(seance.closed_ms, w.lang == "fr") if seance.closed_ms is not None else w["not_closed"]),
            _e(w["employee"] % seance.employee if seance.table is not None else "—"), len(seance.tailles)))
    out.append("</tbody></table>")
    if len(story.seances) > len(shown):
        out.append('<p class="sub">%s</p>' % _e(w["more_seances"] % (len(story.seances) - len(shown))))
    return "".join(out)


def _tagged(journal):
    """Whether the journal's frames carry HMAC tags under a key file (format 3); format 4's are chained alone, the
    element signing the chain's head."""
    return any(s.version == 3 for s in journal.segments)


_SEANCES_FIRST = 8  # séances listed on the first page; the overview lists them all


def _first_page(journal, title, generated_ms, w):
    story, reader, segments = journal.story, journal.reader, journal.segments
    out = ['<section class="first"><h1>%s</h1>' % _e(title), _verdict_html(journal, w)]
    rows = [(w["establishment"], _e(journal.establishment or w["not_given"]))]
    sabot = segments[0].sabot
    others = sorted({s.sabot for s in segments} - {sabot})
    rows.append((w["sabot"], _e(str(sabot) + (w["sabot_others"] % ", ".join(map(str, others)) if others else ""))))
    firmwares = []
    for s in segments:
        said = firmware_words(s.firmware, w, journal.manifests)
        if not firmwares or firmwares[-1][0] != said:
            firmwares.append((said, [s.number]))
        else:
            firmwares[-1][1].append(s.number)
    for said, numbers in firmwares:
        where = " (%s)" % (w["segments_n"] % (numbers[0], numbers[-1])) if len(firmwares) > 1 else ""
        rows.append((w["firmware"] + where, '<span class="wrap">%s</span>' % _e(said)))
    key_words = (w["key_dev"] if journal.development else w["key_given"] % journal.key_file if _tagged(journal)
                 else w["key_element"])
    ids = w["key_id"] % reader.key_id.hex()
    others = sorted({s.key_id.hex() for s in segments} - {reader.key_id.hex()})
    if others:
        ids += "; " + w["other_keys"] % ", ".join(others)
    rows.append((w["key"], '%s<br><span class="mono">%s</span>' % (_e(key_words), _e(ids))))
    if story.first_ms is not None:
        rows.append((w["period"], "%s — %s" % (_e(_when(story.first_ms, w)), _e(_when(story.last_ms, w)))))
    receipt = journal.receipt
    if receipt is None:
        said = w["no_receipt"]
    elif journal.receipt_findings:
        said = w["receipt_bad"] % receipt.seq
    else:
        said = w["receipt_ok"] % (receipt.seq, receipt.segment)
    rows.append((w["receipt"], _e(said)))
    size = sum(len(s.data) for s in segments)
    rows.append((w["read"], '%s<br>%s <span class="mono digest">%s</span>' % (
        _e(w["read_n"] % (len(segments), _thousands(size, w), " ".join(str(p) for p in journal.paths))),
        _e(w["digest_all"]),
        _e(journal.digest))))
    rows.append((w["tool"], _e("sabot report %s" % tool_version())))
    rows.append((w["generated_on"], _e(times.said(generated_ms, w.lang == "fr"))))
    out.append('<table class="ident"><tbody>')
    out.extend("<tr><th>%s</th><td>%s</td></tr>" % (_e(name), value) for name, value in rows)
    out.append("</tbody></table><h3>%s</h3>%s</section>" % (_e(w["seances"]), _seances_html(story, w)))
    return "".join(out)


def _thousands(number, w):
    """12 345 678 in French (narrow no-break spaces), 12,345,678 in English."""
    return "{:,}".format(number).replace(",", "\u202f" if w.lang == "fr" else ",")


def _segments_html(journal, w):
    """Each segment read and its SHA-256, as `sha256sum` gives it: the inspector can check the files kept."""
    out = ['<section class="annex"><h2>%s</h2><p class="sub">%s</p><table class="segments"><thead><tr>'
           "<th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>" % (
               _e(w["annex"]), _e(w["annex_words"]), _e(w["col_segment"]), _e(w["col_bytes"]), "SHA-256")]
    for segment, digest in zip(journal.segments, journal.digests):
        out.append('<tr><td>%s</td><td class="num">%d</td><td class="mono">%s</td></tr>' % (
            _e(segment.path.name), len(segment.data), digest))
    out.append("</tbody></table></section>")
    return "".join(out)


def _signature_html(w):
    fields = "".join('<div class="field"><span>%s</span></div>' % _e(name) for name in w["sign_fields"])
    return '<section class="signature"><h2>%s</h2><p>%s</p>%s<footer>%s</footer></section>' % (
        _e(w["sign"]), _e(w["sign_words"]), fields, _e(w["footer"]))  # the footer never alone on a last page


def _summary_html(story, w):
    out = ["<h2>%s</h2>" % _e(w["summary"])]
    condensed = sum(t.condensed for s in story.seances for t in s.tailles)
    if condensed:
        out.append('<p class="sub">%s</p>' % _e(w["condensed"] % condensed))
    out.append('<table class="summary"><thead><tr>')
    for key in ("col_seance", "col_table", "col_taille", "col_when", "game", "coups", "dealt", "burned", "stop",
                "findings"):
        out.append("<th>%s</th>" % _e(w[key]))
    out.append("</tr></thead><tbody>")
    for seance in story.seances:
        table = str(seance.table) if seance.table is not None else "—"
        if seance.employee:
            table += " (%s)" % (w["by"] % seance.employee)
        if not seance.tailles:
            out.append("<tr><td>%d</td><td>%s</td><td colspan=\"8\">—</td></tr>" % (seance.number, _e(table)))
        for t in seance.tailles:
            key = stop_check(t)[0]
            css = ' class="%s"' % ("t-ok" if key == "stop_ok" and not t.stop_after else "t-bad" if key == "stop_bad"
                                   or t.stop_after else "t-warn")
            out.append("<tr%s><td>%d</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td>"
                       "<td>%d</td><td%s>%s</td><td>%s</td></tr>" % (
                           ' class="condensed"' if t.condensed else "", seance.number, _e(table), t.number,
                           _e(times.said(t.time_ms, w.lang == "fr", seconds=False)), _e(words.game(t.game)),
                           t.coups, t.dealt, t.burned, css, _e(_stop_short(t, w)),
                           ", ".join('<span class="rid">%s</span>' % _e(rid) for rid in sorted(
                               {f.id for f in t.findings})) or "—"))
    out.append("</tbody></table>")
    return "".join(out)
