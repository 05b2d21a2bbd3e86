"""Article 61 at banque ouverte, on the controller alone: two séances a casino day, the break between them, the
bank drawn by lot. The wall clock is the controller's `seconds`, as the shell sets it for a séance's events.

Runs under pytest on CPython and under tests/mp_runner.py on the MicroPython VM.
"""

import struct

from firmware import controller as c
from firmware import events as ev
from firmware import games
from firmware import records as rec
from firmware.layout import BODY, SNAPSHOT_SIZE
from tests.core.req import covers

DTO = games.DEUX_TABLEAUX_OUVERTE
NOON = 218203200  # 2026-11-30T12:00:00Z, seconds since 2020
MINUTE = 60


def step(ctl, event, arg=0, seconds=None):
    if seconds is not None:
        ctl.seconds = seconds
    ctl.step(event, arg, 0)
    return [struct.unpack(BODY, ctl.recs[i]) for i in range(ctl.n_recs)]


def opened(ctl, seconds, game=DTO):
    return step(ctl, ev.EV_SEANCE, rec.pack_seance(1, game, 42), seconds)


@covers("O-SEANCES", "O-BREAK")
def test_two_seances_a_day_with_the_break_between_then_a_third_is_refused_and_journalled():
    ctl = c.Controller()
    first = opened(ctl, NOON)
    assert [(r[0], r[-1]) for r in first] == [(rec.R_SEANCE, 1), (rec.R_OUVERTE, 1)]
    assert first[1][8] == rec.BREAK_MIN  # the break in force, in its disposition
    step(ctl, ev.EV_SEANCE_CLOSE, 0, NOON + 3 * 3600)
    early = opened(ctl, NOON + 3 * 3600 + 59 * MINUTE)  # the dinner is not over
    assert ctl.refused == ev.REF_BREAK
    assert [(r[0], r[7], r[-1]) for r in early] == [(rec.R_REFUSAL, DTO, ev.REF_BREAK)]
    second = opened(ctl, NOON + 4 * 3600 + 1)
    assert ctl.refused == 0 and [(r[0], r[-1]) for r in second] == [(rec.R_SEANCE, 1), (rec.R_OUVERTE, 2)]
    step(ctl, ev.EV_SEANCE_CLOSE, 0, NOON + 8 * 3600)
    third = opened(ctl, NOON + 10 * 3600)  # 22:00 UTC: the same casino day
    assert ctl.refused == ev.REF_SEANCES and [(r[0], r[-1]) for r in third] == [(rec.R_REFUSAL, ev.REF_SEANCES)]
    tomorrow = opened(ctl, NOON + 19 * 3600)  # 07:00 UTC the next morning: a new casino day
    assert ctl.refused == 0 and tomorrow[1][0] == rec.R_OUVERTE and tomorrow[1][-1] == 1


@covers("O-BREAK")
def test_the_break_is_the_casinos_and_counts_from_the_first_seances_close():
    ctl = c.Controller()
    ctl.break_min = 90
    opened(ctl, NOON)
    opened(ctl, NOON + 5 * 3600)
    assert ctl.refused == ev.REF_BREAK  # the first never closed: no break
    step(ctl, ev.EV_SEANCE_CLOSE, 0, NOON + 5 * 3600)
    opened(ctl, NOON + 6 * 3600 + 29 * MINUTE)
    assert ctl.refused == ev.REF_BREAK
    assert opened(ctl, NOON + 6 * 3600 + 31 * MINUTE)[1][8] == 90 and ctl.refused == 0


@covers("O-SEANCES")
def test_other_games_seances_are_not_counted_nor_journalled_more():
    ctl = c.Controller()
    for hour in range(4):
        assert [r[0] for r in opened(ctl, NOON + hour * 3600, games.CHEMIN_DE_FER)] == [rec.R_SEANCE]


@covers("O-DRAW")
def test_the_bank_is_drawn_among_the_candidates_with_the_boards_random_value():
    ctl = c.Controller()
    step(ctl, ev.EV_CANDIDATE, 5)
    assert ctl.refused == ev.REF_NOT_OUVERTE  # Article 61 is banque ouverte's
    opened(ctl, NOON)
    step(ctl, ev.EV_CANDIDATE, 5)
    step(ctl, ev.EV_ADJUDICATE, 1234)
    assert ctl.refused == ev.REF_CANDIDATES  # no competition, no draw
    step(ctl, ev.EV_CANDIDATE, 5)
    assert ctl.refused == ev.REF_CANDIDATES  # one chance each
    for who in (9, 200):
        assert step(ctl, ev.EV_CANDIDATE, who)[0][-1] == who
    drawn = step(ctl, ev.EV_ADJUDICATE, 0x10004)  # 16 bits kept: 4, among 3 candidates: index 1
    assert [(r[0], r[7], r[8], r[-1]) for r in drawn] == [(rec.R_DRAW, 3, 9, 4)]
    step(ctl, ev.EV_ADJUDICATE, 7)
    assert ctl.refused == ev.REF_CANDIDATES  # the draw took the candidates


@covers("O-SEANCES", "O-BREAK")
def test_the_days_seance_and_its_close_come_back_from_the_journal_at_power_up():
    live = c.Controller()
    bodies = []
    for event, arg, seconds in ((ev.EV_SEANCE, rec.pack_seance(1, DTO, 0), NOON), (ev.EV_CANDIDATE, 3, None),
                                (ev.EV_CANDIDATE, 4, None), (ev.EV_SEANCE_CLOSE, 0, NOON + 3600)):
        step(live, event, arg, seconds)
        for i in range(live.n_recs):
            body = bytearray(live.recs[i])
            struct.pack_into("<I", body, 1, live.seconds)  # the journal's stamp
            bodies.append(bytes(body))
    restored = c.Controller()
    for body in bodies:
        restored.restore(body)
    opened(restored, NOON + 3600 + 30 * MINUTE)
    assert restored.refused == ev.REF_BREAK
    opened(restored, NOON + 2 * 3600 + 1)
    assert restored.refused == 0 and restored.recs[1][0] == rec.R_OUVERTE and restored.recs[1][18] == 2


def _segment_begins(ctl, event, arg=0, seconds=None):
    """A step right after a segment's header took the controller's snapshot, as the journal's rotation does."""
    ctl.snapshot(bytearray(SNAPSHOT_SIZE))
    return step(ctl, event, arg, seconds)


@covers("O-SEANCES", "O-BREAK")
def test_a_new_segment_restates_the_day_so_a_power_up_that_reads_it_alone_still_counts_the_seances():
    live = c.Controller()
    opened(live, NOON)
    step(live, ev.EV_SEANCE_CLOSE, 0, NOON + 3600)
    restated = _segment_begins(live, ev.EV_POWER_UP, 0, NOON + 3600 + 5)
    day = [r for r in restated if r[0] == rec.R_OUVERTE_DAY]
    assert [(r[7], r[10] | r[8] << 16 | r[9] << 24) for r in day] == [(1, NOON + 3600)]  # one séance, its close
    alone = c.Controller()  # what a power-up that reads the new segment alone knows
    for body in restated:
        alone.restore(struct.pack(BODY, *body))
    opened(alone, NOON + 3600 + 30 * MINUTE)
    assert alone.refused == ev.REF_BREAK
    opened(alone, NOON + 2 * 3600 + 1)
    assert alone.refused == 0
    again = c.Controller()
    for body in _segment_begins(alone, ev.EV_POWER_UP, 0, NOON + 3 * 3600):  # the day's second séance open
        again.restore(struct.pack(BODY, *body))
    opened(again, NOON + 9 * 3600)
    assert again.refused == ev.REF_SEANCES


@covers("O-SEANCES")
def test_the_day_is_restated_only_at_banque_ouverte_and_until_its_casino_day_ends():
    ctl = c.Controller()
    opened(ctl, NOON, games.CHEMIN_DE_FER)
    assert [r[0] for r in _segment_begins(ctl, ev.EV_POWER_UP, 0)] == [rec.R_BOOT]
    opened(ctl, NOON)
    assert [r[0] for r in _segment_begins(ctl, ev.EV_POWER_UP, 0, NOON + 60)] == [rec.R_BOOT, rec.R_OUVERTE_DAY]
    assert [r[0] for r in _segment_begins(ctl, ev.EV_POWER_UP, 0, NOON + 19 * 3600)] == [rec.R_BOOT]  # a new day
