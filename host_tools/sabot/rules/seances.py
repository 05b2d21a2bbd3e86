"""Séances and tailles (S-IDENT, G-DTL, G-DTO): a séance opened and closed at its table, and a shoe loaded within
it, between coups."""

from sabot.rules import ouverte
from sabot.rules.games import GAME_IDS, LIMITEE, OUVERTE, TAILLES


def on_load(s, f):
    seq, game = f.seq, f.code
    if game >= len(GAME_IDS):
        s._find("J-EVENTS", seq, "shoe loaded for unknown game code %d" % game)
        game = s.game
    if s.release:
        s._find("S-ONE", seq, "shoe loaded while a release was under way")
    if s.alarms:
        s._find(s._alarm_id(), seq, "shoe loaded with an alarm or fault uncleared")
    if s.in_coup:
        s._find("S-LOCK", seq, "shoe loaded in the middle of a coup")
    if not s.seance_open:
        s._find("S-IDENT", seq, "shoe loaded outside an open séance")
    s._game(game)
    s.loaded = True
    s.in_coup = s.dealing = s.closed = s.stop_seen = False
    s.coup_dealt = 0
    for i in range(54):
        s.counts[i] = 0
    s.tailles_in_seance += 1
    if game == LIMITEE and s.tailles_in_seance > 1:
        s._find("G-DTL", seq, "a second shoe loaded in one séance: new cards each séance at deux tableaux")
    if TAILLES[game] and s.tailles_in_seance > TAILLES[game]:
        s._find(GAME_IDS[game], seq, "taille %d in one séance: at most %d at banque ouverte" % (
            s.tailles_in_seance, TAILLES[game]))


def _between_coups(s, f, what):
    if s.release:
        s._find("S-ONE", f.seq, "%s while a release was under way" % what)
    if s.in_coup:
        s._find("S-LOCK", f.seq, "%s in the middle of a coup" % what)


def on_seance(s, f):
    _between_coups(s, f, "séance opened")
    s.seance_open = True
    s.table = f.code
    s.tailles_in_seance = 0
    s.loaded = s.closed = False  # a séance starts with a shoe of its own
    s.seances.append((f.time, f.code, f.seq))
    ouverte.on_seance(s, f, OUVERTE)


def on_seance_close(s, f):
    _between_coups(s, f, "séance closed")
    if not s.seance_open:
        s._find("S-IDENT", f.seq, "séance closed when none was open")
    elif f.code != s.table:
        s._find("S-IDENT", f.seq, "séance of table %d closed as table %d" % (s.table, f.code))
    s.seance_open = False
    s.table = 0  # no séance open
    s.loaded = s.closed = False
    ouverte.on_seance_close(s, f)
