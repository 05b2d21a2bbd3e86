"""Article 61 at banque ouverte, in the shoe: two séances a casino day, separated by a break the casino configures,
and the bank drawn by lot among its candidates. Its own state, which the controller makes at the first séance or
record of banque ouverte: a shoe that never deals it loads none of this (the sim's whole shoe fits a 65 KB heap)."""

from firmware import article61 as a61
from firmware import events as ev
from firmware import records as rec


class Day:
    """The casino day at banque ouverte, as the journal says it: the last séance's day, its rank in it, whether it is
    open and when it closed; the candidates for the bank until the draw. Records go out through the controller's
    emit(rtype, card, disposition, condition, code)."""

    def __init__(self, emit):
        self._emit = emit
        self.day = -1
        self.rank = 0
        self.open = False
        self.closed = -1  # when the last séance closed, seconds since 2020: the break runs from there
        self.candidates = bytearray(a61.CANDIDATES_MAX)
        self.n = 0
        self.restate = False  # a segment began: the step restates the day in it

    def opening(self, game, seconds, break_min):
        """A séance of game (banque ouverte) opens now (seconds): its rank, or minus the refusal (journalled). One
        int, as a tuple would allocate on the decision's path."""
        rank = self.rank + 1 if _day(seconds) == self.day else 1
        why = 0
        if rank > 2:
            why = ev.REF_SEANCES
        elif rank == 2 and (self.closed < 0 or seconds - self.closed <= break_min * 60):
            why = ev.REF_BREAK  # a second more than the break: the journal stamps its records after this
        if why:
            self._emit(rec.R_REFUSAL, game, 0, 0, why)
            return -why
        return rank

    def ask(self, event, arg):
        """A candidate for the bank, or the draw among them (arg: the board's random value): a refusal, or 0."""
        if not self.open:
            return ev.REF_NOT_OUVERTE
        n = self.n
        if event == ev.EV_CANDIDATE:
            if arg < 1 or arg > 255 or n >= a61.CANDIDATES_MAX:
                return ev.REF_CANDIDATES
            for i in range(n):
                if self.candidates[i] == arg:
                    return ev.REF_CANDIDATES  # one chance each
            self._emit(rec.R_CANDIDATE, 0, 0, 0, arg)
        elif n < 2:
            return ev.REF_CANDIDATES
        else:
            arg &= 0xFFFF
            self._emit(rec.R_DRAW, n, self.candidates[arg % n], 0, arg)
        return 0

    def restate_in(self, seconds):
        """The day, if under way, into the new segment (R_OUVERTE_DAY): a power-up reads that one only."""
        self.restate = False
        day = self.day
        if day < 0 or _day(seconds) != day:
            return
        at = self.closed
        card = self.rank
        if at < 0:
            at = day * a61.DAY + a61.DAY_FROM
            card |= a61.DAY_UNCLOSED
        if self.open:
            card |= a61.DAY_OPEN
        self._emit(rec.R_OUVERTE_DAY, card, at >> 16 & 0xFF, at >> 24, at & 0xFFFF)

    def apply(self, rtype, seconds, card, disposition, condition, code):
        """A record of the day's, live or replayed at power-up (the controller's _apply)."""
        if rtype == rec.R_SEANCE:
            self.open = False  # until its R_OUVERTE says it is one at banque ouverte
            self._drawn()
        elif rtype == rec.R_SEANCE_CLOSE:
            if self.open:
                self.open = False
                self.closed = seconds
        elif rtype == rec.R_OUVERTE:
            self.day = _day(seconds)
            self.rank = code
            self.open = True
            self.closed = -1
            self.restate = False  # it says the day itself
        elif rtype == rec.R_OUVERTE_DAY:
            at = code | disposition << 16 | condition << 24
            self.day = _day(at)
            self.rank = card & 3
            self.open = card & a61.DAY_OPEN != 0
            self.closed = -1 if card & a61.DAY_UNCLOSED else at
        elif rtype == rec.R_CANDIDATE:
            self.candidates[self.n] = code
            self.n += 1
        elif rtype == rec.R_DRAW:
            self._drawn()

    def _drawn(self):
        for i in range(self.n):
            self.candidates[i] = 0
        self.n = 0


def _day(seconds):
    return (seconds - a61.DAY_FROM) // a61.DAY
