"""The journal as the report tells it: séances, tailles, their coups and what happened between them, in the
report's words (text.Words). Built record by record (Story.feed), so that a journal of a million cards is never
held whole: a taille that ends clean (no incident, no finding, its stop card in place) keeps its counts alone and
is condensed to one line; every other keeps each coup."""

from firmware import cards, games, records
from firmware.format import words
from firmware.record_names import R_BURST, unpack_authority, unpack_employee, unpack_hand
from sabot.journalfile import CARD, CODE, CONDITION, COUP, DISPOSITION, POSITION, SEANCE, TAILLE, TIME, TYPE
from sabot.report.cardwords import short
from sabot.report.findings_fr import french


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
    def __init__(self, number, game, record, seq_n="seq %d"):
        self.number = number
        self.seq_n = seq_n  # a record's number in the report's words
        self.game = game
        self.time_ms = record.fields[TIME]
        self.seq = record.seq
        self.items = []  # PlayedCoup and Between, in the order they came
        self.coup = None  # the coup open now
        self.last_coup = 0
        self.coups = 0
        self.out = 0  # items out of the shoe
        self.dealt = 0
        self.burned = 0
        self.stop = None  # the stop card's fields
        self.stop_after = False  # a coup opened or a card dealt after the stop card's coup (S-STOP)
        self.findings = []
        self.incidents = 0
        self.marks = []  # chart markers: (x in coup slots, kind, tooltip)
        self.condensed = False  # ended clean: its coups were not kept

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
        if css in INCIDENTS:
            self.incidents += 1
        if mark:
            self.marks.append((self.x(), mark, "%s (%s)" % (text, self.seq_n % seq)))
        self.lines().append((css, "%s · %s" % (text, self.seq_n % seq)))

    def burn(self, card):
        lines = self.lines()
        if not lines or lines[-1][0] != "burn":
            lines.append(("burn", []))
        lines[-1][1].append(card)

    def clean(self):
        return not (self.findings or self.incidents or self.stop_after) and stop_check(self)[0] == "stop_ok"

    def condense(self):
        self.items, self.marks, self.coup, self.condensed = [], [], None, True


class Seance:
    def __init__(self, number, table, employee, game, time_ms):
        self.number = number
        self.table = table
        self.employee = employee
        self.game = game
        self.time_ms = time_ms
        self.closed_ms = None  # when its close record came; None: still open where the journal ends
        self.tailles = []


class Story:
    """Fed the journal's records in order, with the verifier's findings known: the séances and tailles, the lines
    before any taille, the first and last record's times, and the fields of the records findings stand at."""

    def __init__(self, findings, w):
        self.w = w
        self.by_seq = {}
        for f in findings:
            self.by_seq.setdefault(f.seq, []).append(f)
        self.seances, self.preamble = [], []
        self.seance = self.taille = None
        self.located = {}  # seq: fields, for each record a finding stands at
        self.said = {}  # id(finding): its words in the report's language
        self.first_ms = self.last_ms = None
        self.boots = 0
        self.authorities, self.asked = [], []  # P-AUTHORITY: each change said once, at its last record

    def feed(self, record):
        f = record.fields
        kind = f[TYPE]
        w = self.w
        if self.first_ms is None:
            self.first_ms = f[TIME]
        self.last_ms = f[TIME]
        if kind == records.R_BOOT:
            self.boots += 1
        if kind == records.R_SEANCE_CLOSE and self.seance is not None:
            self.seance.closed_ms = f[TIME]
        if kind == records.R_SEANCE:
            self._end_taille()
            self.seance = Seance(f[SEANCE], f[CODE], unpack_employee(f[DISPOSITION], f[CONDITION]), f[CARD], f[TIME])
            self.seances.append(self.seance)
        elif kind == records.R_LOAD:
            self._end_taille()
            if self.seance is None:
                self.seance = Seance(f[SEANCE], None, 0, f[CODE], f[TIME])
                self.seances.append(self.seance)
            self.taille = Taille(f[TAILLE], f[CODE], record, w["seq_n"])
            self.seance.tailles.append(self.taille)
        elif kind == records.R_AUTHORITY:
            self._authority(f, record.seq)
        elif self.taille is not None:
            _feed(self.taille, record, w, self.boots > 1)
        elif kind not in (records.R_RELEASE, records.R_NO_MORE_BETS):
            self.preamble.append("%s · %s" % (_event_words(f, w, self.boots > 1), w["seq_n"] % record.seq))
        found = self.by_seq.get(record.seq)
        if found:
            self.located[record.seq] = f
            game = self.taille.game if self.taille else games.CHEMIN_DE_FER
            for finding in found:
                text = french(finding, f, game) if w.lang == "fr" else finding.message
                self.said[id(finding)] = text
                if self.taille is not None:
                    self.taille.findings.append(finding)
                    self.taille.note("finding", "%s — %s" % (finding.id, text), record.seq, "finding")

    def _authority(self, f, seq):
        """An authority change's records (who asked, before, after), said once they are all read."""
        what, part, value = unpack_authority(f[CARD], f[DISPOSITION], f[CONDITION], f[CODE])
        self.asked = (self.asked if part else []) + [value]
        if part == 2 and len(self.asked) == 3:
            text = "%s · %s" % (words.authority(what, *self.asked, lang=self.w.index), self.w["seq_n"] % seq)
            self.authorities.append(text)
            if self.taille is not None:
                self.taille.note("alarm" if what == records.AU_CLOCK_FORCED else "", text, seq)

    def finish(self):
        self._end_taille()
        for found in self.by_seq.values():  # findings at no record: a segment header's
            for finding in found:
                if id(finding) not in self.said:
                    self.said[id(finding)] = french(finding, None, 0) if self.w.lang == "fr" else finding.message
        return self

    def _end_taille(self):
        t = self.taille
        if t is not None and t.clean():
            t.condense()
        self.taille = None


def _event_words(f, w, after_a_cut=False):
    kind, code = f[TYPE], f[CODE]
    word = w.of(words.RECORDS, kind)
    if kind == records.R_BOOT and code != records.BOOT_POWER:
        return w.of(words.BOOTS, code)  # a restart with the power on: no power cut
    if kind == records.R_BOOT and after_a_cut:
        return w.phrase(words.POWER_CUT)
    if kind in (records.R_ALARM, records.R_CLEAR):
        return w["colon"].join((word, w.of(words.ALARMS, code)))
    if kind == records.R_FINDING:
        return w.of(words.FINDINGS, code)
    if kind == records.R_RECOVERY:
        text = "%s, %s" % (word, w.phrase(words.TORN) % code)
        return text + ("; " + w.phrase(words.UNCERTAIN) if f[CONDITION] else "")
    if kind == records.R_ELEMENT:
        return w["colon"].join((word, words.element(f[CARD], f[DISPOSITION], f[CONDITION], code, w.index)))
    if kind == R_BURST:
        return words.BURSTS[w.index] % code
    ouverte = words.article61(kind, f[CARD], f[DISPOSITION], code, w.index)
    return w["colon"].join((word, ouverte)) if ouverte else word


def _feed(t, record, w, after_a_cut):
    f = record.fields
    kind, seq = f[TYPE], record.seq
    if kind == records.R_NO_MORE_BETS:
        if t.coup is None or t.coup.number != f[COUP]:
            t.coup = PlayedCoup(f[COUP])
            t.last_coup = f[COUP]
            t.coups += 1
            t.items.append(t.coup)
            t.stop_after = t.stop_after or t.stop is not None and t.stop[COUP] < f[COUP]
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
    elif kind == records.R_BOOT:  # inside the coup it cut, or between coups
        cut = f[CODE] == records.BOOT_POWER
        said = (w["power_cut_coup"] if cut else w["restart_coup"]) if t.coup else _event_words(f, w, after_a_cut)
        t.note("power", said, seq, "power")
    elif kind == records.R_RECOVERY:
        t.note("alarm" if f[CONDITION] else "power", _event_words(f, w), seq)
    elif kind == records.R_ELEMENT:
        t.note("power", _event_words(f, w), seq)
    elif kind != records.R_RELEASE:
        t.note("", _event_words(f, w), seq)


def _card(t, record, w):
    f = record.fields
    card, disposition, condition = f[CARD], f[DISPOSITION], f[CONDITION]
    t.out = max(t.out, f[POSITION])
    if card == cards.STOP:
        t.stop = f
        t.marks.append((t.x(), "stop", "%s (%s)" % (w["legend_stop"], w["card_n"] % f[POSITION])))
        t.lines().append(("stop", "%s · %s · %s" % (w["legend_stop"], w["card_n"] % f[POSITION],
                                                     w["seq_n"] % record.seq)))
    if condition:
        mark = "forced" if condition == records.FORCED else "double"
        t.note("alarm", "%s %s" % (short(card, w.lang), w.of(words.CONDITIONS, condition)), record.seq, mark)
    if disposition == records.DEALT and condition != records.FORCED:
        t.dealt += 1
        if t.coup:
            t.coup.cards.append((unpack_hand(f[CODE]), card))
        else:
            t.stop_after = t.stop_after or t.stop is not None
            t.note("alarm", short(card, w.lang), record.seq)
    elif card != cards.STOP:
        t.burned += 1
        if not condition:
            t.burn(card)


def stop_check(t):
    """(text key, position, cards behind it, cards expected) of a taille's stop card (S-STOPPOS)."""
    expected = games.GAMES[t.game][games.STOP_BEFORE] if t.game < len(games.GAMES) else 0
    if t.stop is None:
        return "stop_none", t.out, None, expected
    position = t.stop[POSITION]
    behind = games.shoe_size(t.game) - position if t.game < len(games.GAMES) else 0
    return ("stop_ok" if behind == expected else "stop_bad"), position, behind, expected
