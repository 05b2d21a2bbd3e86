"""Baccara à banque ouverte, Article 61 (O-SEANCES, O-BREAK, O-DRAW): at most two séances in a casino day, the
break the shoe journalled between them, and the bank's draw by lot redone from the candidates and the random value
journalled. Its own reckoning of the day and the break, from the records' times, not the controller's."""

from firmware.article61 import DAY, DAY_FROM, DAY_OPEN, DAY_UNCLOSED
from firmware.events import REF_BREAK, REF_SEANCES
from firmware.records import R_OUVERTE

_MS = 1000
_SLACK_MS = 1000  # the shoe reads its clock a moment before the journal stamps the refusal


def _day(time_ms):
    return (time_ms // _MS - DAY_FROM) // DAY


def _rank(s, time_ms):
    """The rank a séance at banque ouverte opened now would have in its casino day."""
    return s.o_rank + 1 if s.o_rank and _day(time_ms) == s.o_day else 1


def _break_over(s, time_ms, slack):
    return s.o_closed >= 0 and time_ms - s.o_closed + slack >= s.o_break * 60 * _MS


def expect_ouverte(s, f):
    """At an R_SEANCE opened for banque ouverte: its R_OUVERTE must follow."""
    s.expect.append((R_OUVERTE, -1, "O-SEANCES"))


def on_ouverte(s, f):
    seq, time_ms, rank = f.seq, f.time, f.code
    if s.expect and s.expect[0][0] == R_OUVERTE:
        del s.expect[0]
    else:
        s._find("J-EVENTS", seq, "a banque ouverte record after no séance opened for it")
    mine = _rank(s, time_ms)
    if rank != mine:
        s._find("O-SEANCES", seq, "séance of rank %d in its casino day where the journal gives %d" % (rank, mine))
    if mine > 2:
        s._find("O-SEANCES", seq, "séance %d at banque ouverte in one casino day: two at most" % mine)
    elif mine == 2 and s.o_closed < 0:
        s._find("O-BREAK", seq, "the day's second séance at banque ouverte with the first never closed")
    elif mine == 2 and not _break_over(s, time_ms, 0):
        s._find("O-BREAK", seq, "the day's second séance at banque ouverte %d s after the first closed: the break "
                "is %d min" % ((time_ms - s.o_closed) // _MS, s.o_break))
    s.o_day, s.o_rank, s.o_open, s.o_closed = _day(time_ms), mine, True, -1
    s.o_break = f.disposition
    del s.candidates[:]


def on_day(s, f):
    """R_OUVERTE_DAY, the shoe's restatement of the day at a segment's start: against this reckoning, or taken as
    it when the journal is read from a segment after the day's séances."""
    card, at = f.card, f.code | f.disposition << 16 | f.condition << 24
    day, rank, is_open = _day(at * _MS), card & 3, card & DAY_OPEN != 0
    closed = -1 if card & DAY_UNCLOSED else at * _MS
    if not s.o_rank:
        s.o_day, s.o_rank, s.o_open, s.o_closed = day, rank, is_open, closed
        return
    mine = s.o_closed if s.o_closed < 0 else s.o_closed // _MS * _MS
    if (day, rank, is_open) != (s.o_day, s.o_rank, s.o_open) or not (closed == mine or 0 < mine - closed <= _SLACK_MS):
        s._find("O-SEANCES", f.seq, "the banque ouverte day restated as %d séance(s), %s, where the journal gives %d, "
                "%s" % (rank, _last(is_open, closed), s.o_rank, _last(s.o_open, s.o_closed)))


def _last(is_open, closed):
    return "the last open" if is_open else "the last never closed" if closed < 0 else "the last closed"


def on_refusal(s, f):
    seq, time_ms, why = f.seq, f.time, f.code
    rank = _rank(s, time_ms)
    if why == REF_SEANCES and rank <= 2 or why == REF_BREAK and (rank != 2 or _break_over(s, time_ms, -_SLACK_MS)):
        s._find("O-SEANCES" if why == REF_SEANCES else "O-BREAK", seq, "a séance refused without the cause it gives")
    elif why != REF_SEANCES and why != REF_BREAK:
        s._find("J-EVENTS", seq, "a séance refused for unknown cause %d" % why)


def on_candidate(s, f):
    seq, who = f.seq, f.code
    if not s.o_open or s.in_coup:
        s._find("O-DRAW", seq, "a candidate for the bank outside a séance at banque ouverte, or in a coup")
    if who in s.candidates or not 1 <= who <= 255 or len(s.candidates) >= 8:
        s._find("O-DRAW", seq, "candidate %d: each player once, numbers 1-255, 8 at most" % who)
    s.candidates.append(who)


def on_draw(s, f):
    seq, drawn, n, winner = f.seq, f.code, f.card, f.disposition
    candidates = s.candidates
    if not s.o_open or s.in_coup or len(candidates) < 2 or n != len(candidates):
        s._find("O-DRAW", seq, "a draw among %d candidates where the journal names %d (two at least, in a séance at "
                "banque ouverte, between coups)" % (n, len(candidates)))
    elif candidates[drawn % n] != winner:
        s._find("O-DRAW", seq, "the bank drawn to player %d: the random value %d among %s gives player %d" % (
            winner, drawn, candidates, candidates[drawn % n]))
    s.candidates = []


def on_seance_close(s, f):
    if s.o_open:
        s.o_open = False
        s.o_closed = f.time


def on_seance(s, f, ouverte):
    s.o_open = False
    s.candidates = []
    if f.card == ouverte:
        expect_ouverte(s, f)
