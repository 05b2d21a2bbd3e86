"""The state machine's one dispatch: each record, in the journal's order, first against what every record owes
(the records the shoe had to write next, the séance, taille, coup and position it carries, the fields its type
leaves 0), then through its type's transition in TRANSITIONS, one family module's function each."""

from firmware.record_names import R_BURST
from firmware.records import (
    R_ALARM,
    R_AUTHORITY,
    R_BOOT,
    R_CANDIDATE,
    R_CARD,
    R_CLEAR,
    R_CLOSED,
    R_COUP_END,
    R_DRAW,
    R_ELEMENT,
    R_FINDING,
    R_LOAD,
    R_NO_MORE_BETS,
    R_OUVERTE,
    R_OUVERTE_DAY,
    R_RECOVERY,
    R_REFUSAL,
    R_RELEASE,
    R_RESULT,
    R_SEANCE,
    R_SEANCE_CLOSE,
    R_STAND,
)
from sabot.rules import alarms, authority, cards, coups, ouverte, seances
from sabot.rules.cards import on_card, release_state
from sabot.rules.layout import (
    _ANY,
    _NO_CODE,
    _RELEASED,
    _RELEASED_SHIFT,
    _USES_CARD,
    _USES_CONDITION,
    _USES_DISPOSITION,
    _WORDS,
)
from sabot.rules.row import Row
from sabot.rules.state import State


def _unknown(s, f):
    s._find("J-EVENTS", f.seq, "record of unknown type %d" % (f.type & (_RELEASED - 1)))


_ON = {  # each record type's transition (docs/journal-format.md, "What the shoe writes")
    R_CARD: cards.on_card, R_RELEASE: cards.on_release,
    R_NO_MORE_BETS: coups.on_no_more_bets, R_STAND: coups.on_stand, R_FINDING: coups.on_finding,
    R_RESULT: coups.on_result, R_COUP_END: coups.on_coup_end, R_CLOSED: coups.on_closed,
    R_ALARM: alarms.on_alarm, R_CLEAR: alarms.on_clear, R_BOOT: alarms.on_boot, R_RECOVERY: alarms.on_recovery,
    R_SEANCE: seances.on_seance, R_LOAD: seances.on_load, R_SEANCE_CLOSE: seances.on_seance_close,
    R_OUVERTE: ouverte.on_ouverte, R_REFUSAL: ouverte.on_refusal, R_CANDIDATE: ouverte.on_candidate,
    R_DRAW: ouverte.on_draw, R_OUVERTE_DAY: ouverte.on_day, R_ELEMENT: alarms.on_element,
    R_AUTHORITY: authority.on_authority, R_BURST: alarms.on_burst,
}
TRANSITIONS = tuple(_ON.get(rtype, _unknown) for rtype in range(_RELEASED))  # by record type


class Rules(State):
    """Folds records one at a time, in the journal's order; findings collects what breaks a rule."""

    def __init__(self):
        super().__init__()
        self.row = Row()  # the record being folded

    def feed(self, fields):
        """One record's row (journalfile's SEQ, TYPE, TIME ... CODE)."""
        self.row.set(fields)
        self._record(self.row)

    def fold(self, rows):
        """Feeds a list of rows."""
        for fields in rows:
            self.feed(fields)

    def fold_frames(self, data, picks):
        """The verifier's loop: the records of a segment's data whose frames sabot._frames.scan picked
        (Reader.picked; picks as unsigned ints), each read into the one Row."""
        row = self.row
        for i in range(len(picks)):
            row.read(data, picks[i])
            self._record(row)

    def finish(self, seq):
        """What the journal's end shows (seq: its last record's)."""
        if self.expect:
            self._find(self.expect[0][2], seq, "the journal ends before %s: cut, or the power lost between the "
                       "records of one step" % _WORDS.get(self.expect[0][0], "the next record"))
        if self.release:
            self._find("J-DURABLE", seq, "the journal ends on a release: whether a card left is unknown (power "
                       "lost before the pull, or the journal cut)")

    def _record(self, f):
        rtype = f.type
        if rtype >= _RELEASED:  # a release intent the reader folded into this record's pick (Reader.picked)
            kind = rtype >> _RELEASED_SHIFT
            rtype &= _RELEASED - 1
            if self.expect:
                self._expected(R_RELEASE, kind, f.seq - 1)
            release_state(self, f.seq - 1, kind)
            self.last = R_RELEASE
        if self.expect:
            self._expected(rtype, f.code, f.seq)
        if rtype == R_CARD:  # most rows: a C call when compiled, not the table's Python call to the same function
            on_card(self, f)
            self.last = rtype
            return
        if rtype != R_RELEASE:  # which checks its fields itself, as on_card does
            self._fields(f, rtype)
            if ((f.card and not _USES_CARD >> rtype & 1) or (f.disposition and not _USES_DISPOSITION >> rtype & 1)
                    or (f.condition and not _USES_CONDITION >> rtype & 1)):
                self._find("J-EVENTS", f.seq, "a record of type %d with card %d, disposition %d, condition %d, "
                           "which it does not use" % (rtype, f.card, f.disposition, f.condition))
            if f.code and _NO_CODE >> rtype & 1:
                self._find("J-EVENTS", f.seq, "a record of type %d with code %d, where its code is 0" % (
                    rtype, f.code))
        TRANSITIONS[rtype](self, f)
        self.last = rtype

    def _expected(self, rtype, got, seq):
        """The records the shoe must write after a card, a stand or at a coup's end, in their order (docs/
        journal-format.md, "What the shoe writes"); a power-up may cut them short."""
        if rtype == R_BOOT:
            del self.expect[:]
            return
        want, code, rid = self.expect[0]
        if want == rtype and (code == _ANY or code == got):
            return  # the record's own check pops it
        del self.expect[:]
        self._find(rid, seq, "the shoe wrote no record of %s%s before this one" % (
            _WORDS.get(want, "type %d" % want), "" if code == _ANY else " (code %d)" % code))
