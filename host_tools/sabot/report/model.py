"""The journal as the report tells it: séances, tailles, their coups and what happened between them, in the
report's words (text.Words)."""

from firmware import cards, games, records
from firmware.record_names import unpack_employee, unpack_hand
from sabot import words
from sabot.journalfile import CARD, CODE, CONDITION, COUP, DISPOSITION, POSITION, SEANCE, TAILLE, TYPE


class PlayedCoup:
    """A coup as the journal shows it (not firmware.tableau.Coup, the hands the tableau deals)."""

    def __init__(self, number):
        self.number = number
        self.cards = []  # (hand, card code) of the cards dealt, in order
        self.result = None  # the result record's fields
        self.end = None  # the coup end record's code
        self.lines = []  # what else happened while it was open: (css class, text or [card codes])


class Between:
    """What happened between two coups: burned cards, alarms, a boot..."""

    def __init__(self):
        self.lines = []  # (css class, text or [card codes])


INCIDENTS = ("alarm", "finding", "power")  # the css classes of lines that make a coup's bar stand out


class Taille:
    def __init__(self, number, game, record):
        self.number = number
        self.game = game
        self.record = record
        self.items = []  # PlayedCoup and Between, in the order they came
        self.coup = None  # the coup open now
        self.last_coup = 0
        self.out = 0  # items out of the shoe
        self.dealt = 0
        self.burned = 0
        self.stop = None  # the stop card's record
        self.stop_after = False  # a coup opened or a card dealt after the stop card's coup (S-STOP)
        self.findings = []
        self.marks = []  # chart markers: (x in coup slots, kind, tooltip)

    def x(self):
        """Where the chart marks what happens now: on the coup's bar, or in the gap after the last coup."""
        return self.coup.number if self.coup else self.last_coup + 0.5

    def lines(self):
        if self.coup:
            return self.coup.lines
        if not self.items or not isinstance(self.items[-1], Between):
            self.items.append(Between())
        return self.items[-1].lines

    def note(self, css, text, seq, mark=None):
        if mark:
            self.marks.append((self.x(), mark, "%s (seq %d)" % (text, seq)))
        self.lines().append((css, "%s · seq %d" % (text, seq)))

    def burn(self, card):
        lines = self.lines()
        if not lines or lines[-1][0] != "burn":
            lines.append(("burn", []))
        lines[-1][1].append(card)


class Seance:
    def __init__(self, number, table, employee, record):
        self.number = number
        self.table = table
        self.employee = employee
        self.record = record
        self.tailles = []


def build(journal, findings, w):
    """(séances, lines before any taille) from the records and the verifier's findings."""
    by_seq = {}
    for f in findings:
        by_seq.setdefault(f.seq, []).append(f)
    seances, preamble = [], []
    seance = taille = None
    for record in journal:
        f = record.fields
        kind = f[TYPE]
        if kind == records.R_SEANCE:
            seance = Seance(f[SEANCE], f[CODE], unpack_employee(f[DISPOSITION], f[CONDITION]), record)
            seances.append(seance)
            taille = None
        elif kind == records.R_LOAD:
            if seance is None:
                seance = Seance(f[SEANCE], None, 0, record)
                seances.append(seance)
            taille = Taille(f[TAILLE], f[CODE], record)
            seance.tailles.append(taille)
        elif taille is not None:
            _feed(taille, record, w)
        elif kind not in (records.R_RELEASE, records.R_NO_MORE_BETS):
            preamble.append("%s · seq %d" % (_event_words(f, w), record.seq))
        for finding in by_seq.get(record.seq, ()):
            if taille is not None:
                taille.findings.append(finding)
                taille.note("finding", "%s — %s" % (finding.id, finding.message), record.seq, "finding")
    return seances, preamble


def _event_words(f, w):
    kind, code = f[TYPE], f[CODE]
    word = w.of(words.RECORDS, kind)
    if kind in (records.R_ALARM, records.R_CLEAR):
        return w["colon"].join((word, w.of(words.ALARMS, code)))
    if kind == records.R_FINDING:
        return w.of(words.FINDINGS, code)
    if kind == records.R_RECOVERY:
        text = "%s, %s" % (word, w.phrase(words.TORN) % code)
        return text + ("; " + w.phrase(words.UNCERTAIN) if f[CONDITION] else "")
    return word


def _feed(t, record, w):
    f = record.fields
    kind, seq = f[TYPE], record.seq
    if kind == records.R_NO_MORE_BETS:
        if t.coup is None or t.coup.number != f[COUP]:
            t.coup = PlayedCoup(f[COUP])
            t.last_coup = f[COUP]
            t.items.append(t.coup)
            t.stop_after = t.stop_after or t.stop is not None and t.stop.fields[COUP] < f[COUP]
    elif kind == records.R_CARD:
        _card(t, record, w)
    elif kind == records.R_RESULT:
        if t.coup:
            t.coup.result = f
    elif kind == records.R_COUP_END:
        if t.coup:
            t.coup.end = f[CODE]
        t.coup = None
    elif kind == records.R_STAND:
        if t.coup:
            t.coup.lines.append(("", w.phrase(words.STANDS) % words.hand(t.game, f[CODE])))
    elif kind == records.R_ALARM:
        t.note("alarm", _event_words(f, w), seq, "alarm")
    elif kind in (records.R_CLEAR, records.R_FINDING):
        t.note("alarm" if kind == records.R_FINDING else "", _event_words(f, w), seq)
    elif kind in (records.R_RECOVERY, records.R_BOOT):
        t.note("alarm" if f[CONDITION] else "power", _event_words(f, w), seq, "power")
    elif kind != records.R_RELEASE:
        t.note("", _event_words(f, w), seq)


def _card(t, record, w):
    f = record.fields
    card, disposition, condition = f[CARD], f[DISPOSITION], f[CONDITION]
    t.out = max(t.out, f[POSITION])
    if card == cards.STOP:
        t.stop = record
        t.marks.append((t.x(), "stop", "%s (%s)" % (w["legend_stop"], w["card_n"] % f[POSITION])))
        t.lines().append(("stop", "%s · %s · seq %d" % (w["legend_stop"], w["card_n"] % f[POSITION], record.seq)))
    if condition:
        mark = "forced" if condition == records.FORCED else "double"
        t.note("alarm", "%s %s" % (cards.name(card), w.of(words.CONDITIONS, condition)), record.seq, mark)
    if disposition == records.DEALT and condition != records.FORCED:
        t.dealt += 1
        if t.coup:
            t.coup.cards.append((unpack_hand(f[CODE]), card))
        else:
            t.stop_after = t.stop_after or t.stop is not None
            t.note("alarm", cards.name(card), record.seq)
    elif card != cards.STOP:
        t.burned += 1
        if not condition:
            t.burn(card)


def stop_check(t):
    """(text key, position, cards behind it, cards expected) of a taille's stop card (S-STOPPOS)."""
    expected = games.GAMES[t.game][games.STOP_BEFORE] if t.game < len(games.GAMES) else 0
    if t.stop is None:
        return "stop_none", t.out, None, expected
    position = t.stop.fields[POSITION]
    behind = games.shoe_size(t.game) - position if t.game < len(games.GAMES) else 0
    return ("stop_ok" if behind == expected else "stop_bad"), position, behind, expected
