"""A taille's chart, an inline SVG: one bar per coup (the cards dealt), its incidents marked above the bars, a
legend under the axis. Sizes are SVG user units (the viewBox's width, scaled to the page)."""

from html import escape

from firmware import games
from sabot.report.model import INCIDENTS, PlayedCoup

WIDTH = 960
LEFT = 40  # room for the value labels left of the plot
RIGHT = 14
MARKS_TOP = 8  # the first row of incident marks
MARK_ROW = 16  # each further row, where incidents stack at one place
MARKS_GAP = 10  # between the lowest row of marks and the plot's top line
MARK_ABOVE_PLOT = 12  # from the plot's top line up to the middle of the lowest mark
GUIDE_ABOVE_PLOT = 6  # where the guide of an incident between two coups starts
PLOT_HEIGHT = 150
LABEL_GAP = 6  # between a value label and the plot
LABEL_DROP = 4  # from a line down to its label's baseline
TICK_DROP = 14  # from the axis down to the coup numbers' baseline
AXIS_TITLE_DROP = 28  # from the axis down to the word "coups"
TICK_STEPS = ((25, 1), (125, 5))  # (most coups, numbered every so many); more coups: every LAST_STEP
LAST_STEP = 10
BAR_MIN = 2.0
BAR_MAX = 18.0
BAR_SHARE = 0.7  # of a coup's slot
STOP_ABOVE_PLOT = 4  # the stop card's line starts this much above the plot
STOP_LABEL_DROP = 8  # its "STOP" baseline, below the plot's top line
STOP_LABEL_GAP = 4  # between the line and its label
STOP_LABEL_ROOM = 50  # the label goes left of its line this near the right edge
LABEL_SIZE = 11  # font sizes
EMPTY_SIZE = 14
LEGEND_DROP = 44  # from the axis down to the legend's first baseline
LEGEND_ROW = 18
LEGEND_ITEM = 26  # an item's width beside its text: its sign and the gap after it
LEGEND_CHAR = 6.6  # a character's width, near enough, at LABEL_SIZE
LEGEND_TEXT = 18  # from an item's left edge to its text

BAR = "#4f77b0"
INCIDENT = "#e08a1e"
STOP = "#2e7d32"
LIMIT = "#7a7a7a"  # the coup's minimum and maximum
GRID = "#d6d6d6"
AXIS = "#1a1a1a"
LABEL = "#444"


def _e(text):
    return escape(str(text), quote=True)


def chart(t, w):
    """The taille t (model.Taille) in the words w (text.Words)."""
    row = games.GAMES[t.game] if t.game < len(games.GAMES) else games.GAMES[0]
    top, low = row[games.COUP_MAX], row[games.COUP_MIN]
    coups = [c for c in t.items if isinstance(c, PlayedCoup)]
    n = max([c.number for c in coups] + [t.last_coup, 1])
    stacks = {}
    placed = []
    for x, kind, tip in t.marks:
        if kind == "stop":
            continue
        level = stacks.get(x, 0)
        stacks[x] = level + 1
        placed.append((x, level, kind, tip))
    levels = max(stacks.values(), default=0)
    plot_top = MARKS_TOP + MARK_ROW * max(levels, 1) + MARKS_GAP
    axis_y = plot_top + PLOT_HEIGHT
    plot_right = WIDTH - RIGHT
    legend, legend_rows = _legend(w, LEFT, axis_y + LEGEND_DROP, plot_right)
    height = axis_y + LEGEND_DROP + LEGEND_ROW * legend_rows
    slot = (plot_right - LEFT) / (n + 1)

    def sx(x):
        return LEFT + (plot_right - LEFT) * x / (n + 1)

    def sy(v):
        return axis_y - PLOT_HEIGHT * v / top

    out = ['<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" '
           'aria-label="%s">' % (WIDTH, height, _e(w["chart"])), "<title>%s</title>" % _e(w["chart"])]
    for v in range(top + 1):
        y = sy(v)
        limit = v in (low, top)
        dash = ' stroke-dasharray="5 4"' if limit and v else ""
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"%s/>' % (
            LEFT, y, plot_right, y, LIMIT if limit else GRID, dash))
        out.append('<text x="%d" y="%.1f" font-size="%d" text-anchor="end" fill="%s">%d</text>' % (
            LEFT - LABEL_GAP, y + LABEL_DROP, LABEL_SIZE, LABEL, v))
    bar = max(BAR_MIN, min(BAR_MAX, slot * BAR_SHARE))
    for c in coups:
        dealt = len(c.cards)
        fill = INCIDENT if any(css in INCIDENTS for css, _ in c.lines) else BAR
        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %d: %s</title></rect>'
                   % (sx(c.number) - bar / 2, sy(dealt), bar, axis_y - sy(dealt), fill, _e(w["col_coup"]),
                      c.number, _e(w["cards_n"] % dealt)))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s"/>' % (LEFT, axis_y, plot_right, axis_y, AXIS))
    step = next((every for most, every in TICK_STEPS if n <= most), LAST_STEP)
    for number in range(step, n + 1, step):
        out.append('<text x="%.1f" y="%d" font-size="%d" text-anchor="middle" fill="%s">%d</text>' % (
            sx(number), axis_y + TICK_DROP, LABEL_SIZE, LABEL, number))
    out.append('<text x="%d" y="%d" font-size="%d" text-anchor="end" fill="%s">%s</text>' % (
        plot_right, axis_y + AXIS_TITLE_DROP, LABEL_SIZE, LABEL, _e(w["chart_coups"])))
    for x, kind, tip in t.marks:
        if kind == "stop":
            room = sx(x) < WIDTH - STOP_LABEL_ROOM
            out.append('<g class="mark stop"><title>%s</title><line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                       'stroke="%s" stroke-width="2" stroke-dasharray="6 3"/><text x="%.1f" y="%d" font-size="%d" '
                       'fill="%s" font-weight="bold"%s>%s</text></g>' % (
                           _e(tip), sx(x), plot_top - STOP_ABOVE_PLOT, sx(x), axis_y, STOP,
                           sx(x) + (STOP_LABEL_GAP if room else -STOP_LABEL_GAP), plot_top + STOP_LABEL_DROP,
                           LABEL_SIZE, STOP, "" if room else ' text-anchor="end"', _e(w["stop_label"])))
    for x in stacks:
        if x % 1:  # between two coups: a guide down to the axis, between their bars
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#bbb" stroke-dasharray="2 3"/>' % (
                sx(x), plot_top - GUIDE_ABOVE_PLOT, sx(x), axis_y))
    for x, level, kind, tip in placed:
        out.append(_symbol(kind, sx(x), plot_top - MARK_ABOVE_PLOT - MARK_ROW * level, tip))
    if not coups:
        out.append('<text x="%d" y="%d" font-size="%d" text-anchor="middle" fill="#777">%s</text>' % (
            WIDTH // 2, axis_y - PLOT_HEIGHT // 2, EMPTY_SIZE, _e(w["no_coup"])))
    out.append(legend)
    out.append("</svg>")
    return "".join(out)


def _symbol(kind, x, y, tip):
    return '<g class="mark %s"><title>%s</title>%s</g>' % (kind, _e(tip), _shape(kind, x, y))


def _shape(kind, x, y):
    """An incident's sign, about 12 units across, centred on (x, y)."""
    if kind == "alarm":
        return '<path d="M%.1f %.1f l6 11 h-12 z" fill="#c62828"/>' % (x, y - 6)
    if kind == "finding":
        return '<path d="M%.1f %.1f l6 6 l-6 6 l-6 -6 z" fill="#6a1b9a"/>' % (x, y - 6)
    if kind == "forced":
        return '<path d="M%.1f %.1f l10 10 m0 -10 l-10 10" stroke="#1a1a1a" stroke-width="2.5"/>' % (x - 5, y - 5)
    if kind == "double":
        return ('<rect x="%.1f" y="%.1f" width="8" height="10" fill="#fff" stroke="#00695c" stroke-width="1.5"/>'
                '<rect x="%.1f" y="%.1f" width="8" height="10" fill="#fff" stroke="#00695c" stroke-width="1.5"/>'
                % (x - 6, y - 6, x - 2, y - 4))
    return '<circle cx="%.1f" cy="%.1f" r="5" fill="none" stroke="#555" stroke-width="2"/>' % (x, y)


def _legend(w, x, y, right):
    """The chart's legend in rows that fit its width: (svg, rows)."""
    start, rows = x, 1
    items = [("bar", w["legend_bar"]), ("incident", w["legend_incident"]), ("alarm", w["legend_alarm"]),
             ("finding", w["legend_finding"]), ("forced", w["legend_forced"]), ("double", w["legend_double"]),
             ("power", w["legend_power"]), ("stop", w["legend_stop"]), ("limits", w["legend_limits"])]
    out = ['<g font-size="%d" fill="#333">' % LABEL_SIZE]
    for kind, text in items:
        size = LEGEND_ITEM + int(LEGEND_CHAR * len(text))
        if x + size > right:
            x, y, rows = start, y + LEGEND_ROW, rows + 1
        if kind in ("bar", "incident"):
            out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>' % (
                x, y - 9, BAR if kind == "bar" else INCIDENT))
        elif kind == "stop":
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2" '
                       'stroke-dasharray="4 2"/>' % (x + 5, y - 11, x + 5, y + 2, STOP))
        elif kind == "limits":
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-dasharray="4 3"/>' % (
                x - 2, y - 4, x + 14, y - 4, LIMIT))
        else:
            out.append(_shape(kind, x + 5, y - 4))
        out.append('<text x="%d" y="%d">%s</text>' % (x + LEGEND_TEXT, y, _e(text)))
        x += size
    out.append("</g>")
    return "".join(out), rows
