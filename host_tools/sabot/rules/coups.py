"""Coups (S-LOCK, G-CF, G-DTL, G-DTO, T-CF, T-DT, S-STOP): no more bets, a coup's end and the records that must
come before it (the shoe's finding of a short coup, the result), a stand, the shoe closed after the stop card."""

from firmware.cards import STOP, name
from firmware.records import (
    END_MAXIMUM,
    END_TABLEAU,
    F_FOREIGN_CARD,
    F_SHORT_COUP,
    F_STOP_POSITION,
    R_CLOSED,
    R_COUP_END,
    R_FINDING,
    R_RESULT,
)
from sabot.rules.games import GAME_IDS, HANDS
from sabot.rules.layout import _ANY
from sabot.tableau_oracle import CHOOSES, OVER


def on_no_more_bets(s, f):
    seq = f.seq
    if s.release:
        s._find("S-ONE", seq, "no more bets while a release was under way")
    if s.alarms:
        s._find(s._alarm_id(), seq, "a coup opened with an alarm or fault uncleared")
    if s.closed:
        s._find("S-STOP", seq, "a coup opened after the stop card's coup")
    elif not s.loaded:
        s._find("S-LOCK", seq, "a coup opened with no shoe loaded")
    elif s.dealing:
        s._find("S-LOCK", seq, "no more bets in a coup already open")
    if not s.seance_open:
        s._find("S-IDENT", seq, "a coup opened outside an open séance")
    if not s.in_coup:
        s.coup_dealt = 0
        s.hands.start(HANDS[s.game])
    s.in_coup = True
    s.dealing = True


def on_coup_end(s, f):
    seq, how = f.seq, f.code
    hands = s.hands
    if how == END_TABLEAU and not (s.in_coup and hands.followed and hands.next() == OVER):
        s._find(s._tableau_id(), seq, "coup ended by the tableau while a hand could still draw")
    elif how == END_MAXIMUM and not (s.in_coup and s.coup_dealt >= s.coup_max):
        s._find(GAME_IDS[s.game], seq, "coup ended by the maximum after %d cards" % s.coup_dealt)
    elif how > END_TABLEAU:
        s._find("J-EVENTS", seq, "coup end of unknown code %d" % how)
    if not s._pop(R_COUP_END):  # no finding nor result before it: the croupier's button
        if not s.in_coup:
            s._find("S-LOCK", seq, "coup end with no coup open")
        elif s.release:
            s._find("S-ONE", seq, "coup end while a release was under way")
        if s.in_coup and hands.followed and hands.dealt():
            s._find(s._tableau_id(), seq, "the coup ended with no result record")
        if s.in_coup and s.coup_dealt < s.coup_min:
            s._find(GAME_IDS[s.game], seq, "the shoe recorded no finding of its short coup")
    if s.in_coup and s.coup_dealt < s.coup_min:
        s._find(GAME_IDS[s.game], seq, "coup of %d cards, under the minimum of %d" % (
            s.coup_dealt, s.coup_min))
    s.in_coup = False
    s.dealing = False
    if s.stop_seen:
        s.expect.append((R_CLOSED, 0, "S-STOP"))


def coup_must_end(s, how):
    """The records that end a coup, in the shoe's order (docs/journal-format.md)."""
    rid = s._tableau_id() if how == END_TABLEAU else GAME_IDS[s.game]
    expect = s.expect
    if s.coup_dealt < s.coup_min:
        expect.append((R_FINDING, F_SHORT_COUP, GAME_IDS[s.game]))
    if s.hands.followed and s.hands.dealt():
        expect.append((R_RESULT, _ANY, s._tableau_id()))
    expect.append((R_COUP_END, how, rid))


def on_result(s, f):
    """The shoe's result record against the hands re-dealt here."""
    seq = f.seq
    hands = s.hands
    if not s._pop(R_RESULT):
        if not s.in_coup or not hands.followed or not hands.dealt():
            s._find(s._tableau_id(), seq, "a result record where no coup can have one")
            return
        _button_end_follows(s)
    if not hands.followed:
        return
    if f.code != hands.result_code() or f.disposition != hands.count or f.card != hands.counts_code():
        s._find(s._tableau_id(), seq, "the result recorded does not match the cards dealt (%s)" % (
            ", ".join(["%s %d" % (s._hand_name(h), hands.total[h]) for h in range(hands.count)])))


def _button_end_follows(s):
    s.expect.append((R_COUP_END, _ANY, "S-LOCK"))


def on_finding(s, f):
    seq, code = f.seq, f.code
    if f.card != (STOP if code == F_STOP_POSITION else (s.last_card if code == F_FOREIGN_CARD else 0)):
        s._find("J-EVENTS", seq, "the shoe's finding %d names card %s" % (code, name(f.card)))
    if s._pop(R_FINDING):
        return
    if code == F_SHORT_COUP and s.in_coup and s.coup_dealt < s.coup_min:
        if s.hands.followed and s.hands.dealt():
            s.expect.append((R_RESULT, _ANY, s._tableau_id()))
        _button_end_follows(s)
    else:
        s._find("J-EVENTS", seq, "the shoe recorded finding %d where nothing shows it" % code)


def on_stand(s, f):
    seq, hand = f.seq, f.code
    hands = s.hands
    if not s.in_coup or s.release:
        s._find(s._tableau_id(), seq, "a stand announced with no coup dealing")
    elif not hands.followed:
        s._find(s._tableau_id(), seq, "a stand announced where the tableau cannot be followed")
    elif (hand >= hands.count or hands.cards[hand] != 2 or hands.stood[hand] or hands.choice(hand) != CHOOSES
          or hands.dealt() < 2 * hands.count):
        s._find(s._tableau_id(), seq, "%s stood where the tableau leaves no choice" % (
            s._hand_name(hand)))
    if hand < 3:
        hands.stood[hand] = 1
    if s.in_coup and hands.followed and hands.next() == OVER:
        coup_must_end(s, END_TABLEAU)


def on_closed(s, f):
    if not s._pop(R_CLOSED):
        s._find("S-STOP", f.seq, "the shoe closed with no stop card's coup over")
    s.closed = True
    s.dealing = False
