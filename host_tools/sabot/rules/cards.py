"""Cards and releases (S-ONE, S-BURN, S-LOCK, S-STOP, S-STOPPOS, S-COUNT, S-FORCED, J-EVERY, J-DURABLE): each card
record against the release before it, the stop card and the counts of the shoe, and each dealt card against the
tableau's next hand (T-CF, T-DT)."""

from firmware.cards import STOP, UNKNOWN, name
from firmware.records import (
    ALARM_FORCED,
    BURNED,
    DEALT,
    DOUBLE_FEED,
    END_MAXIMUM,
    END_TABLEAU,
    F_FOREIGN_CARD,
    F_NO_STOP,
    F_STOP_POSITION,
    FAULT_DOUBLE_FEED,
    FORCED,
    NORMAL,
    R_ALARM,
    R_CLOSED,
    R_FINDING,
    R_RELEASE,
    REL_BURN,
    REL_DEAL,
    STOP_CARD,
)
from sabot.rules.coups import coup_must_end
from sabot.rules.games import GAME_IDS
from sabot.tableau_oracle import OVER


def _locked_why(s, kind):
    """Why the specified shoe refuses a release of this kind now (docs/requirements.md), or None."""
    if s.alarms:
        return s._alarm_id(), "an alarm or fault uncleared"
    if not s.loaded:
        return "S-LOCK", "no shoe loaded"
    if s.closed:
        return "S-STOP", "the stop card's coup is over"
    if kind == REL_DEAL and not s.dealing:
        return "S-LOCK", "the shoe locked (bets open, or the coup paused)"
    if kind == REL_BURN and s.in_coup:
        return "S-BURN", "a coup under way: burns only between coups"
    return None


def on_release(s, f):
    """An intent the reader did not fold into the next record (Reader.picked): one to look at closely."""
    s._fields(f, R_RELEASE)
    if f.card or f.disposition or f.condition:
        s._find("J-EVENTS", f.seq, "a release with card %d, disposition %d, condition %d, which it does not "
                "use" % (f.card, f.disposition, f.condition))
    release_state(s, f.seq, f.code)


def release_state(s, seq, kind):
    """A release intent, its own record or folded into the next row: one at a time (S-ONE), and only where the
    specified shoe opens its gate to that kind."""
    if kind != REL_DEAL and kind != REL_BURN:
        s._find("J-EVENTS", seq, "release of unknown kind %d" % kind)
    elif s.release:
        s._find("S-ONE", seq, "a release while another was under way")
    elif s.alarms or not s.loaded or s.closed or (s.in_coup if kind == REL_BURN else not s.dealing):
        why = _locked_why(s, kind)
        if why is not None:
            s._find(why[0], seq, "the gate opened to %s with %s" % ("deal" if kind == REL_DEAL else "burn", why[1]))
    s.release = kind
    s.released_card = False


def on_card(s, f):
    """A card out of the shoe against the release before it, the stop card, the counts and the coup."""
    seq, card, disposition, condition, code = f.seq, f.card, f.disposition, f.condition, f.code
    position = s.position + 1
    got_seance, got_taille, got_coup, got_position = f.seance, f.taille, f.coup, f.position
    if got_position != position:
        s._find("J-EVERY", seq, "card at position %d after position %d: %s" % (
            got_position, s.position, "cards without a record" if got_position > position else
            "a position given twice"))
    if got_seance != s.seance or got_taille != s.taille or got_coup != s.coup:
        s._find("J-EVERY", seq, "card in séance %d, taille %d, coup %d where the journal stands at %d, %d, %d"
                % (got_seance, got_taille, got_coup, s.seance, s.taille, s.coup))
    s.seance, s.taille, s.coup, s.position = got_seance, got_taille, got_coup, got_position
    s.last_card = card
    if card > UNKNOWN:
        s._find("J-EVERY", seq, "card code %d is no card" % card)
    if (disposition == STOP_CARD) != (card == STOP) or disposition > STOP_CARD:
        s._find("J-EVERY", seq, "card %s with disposition %d: the stop card's is 2, and only its" % (
            name(card), disposition))
    kind = s.release
    if condition == NORMAL:
        if not kind:
            if s.released_card:
                s._find("S-ONE", seq, "a second card out of one release, not recorded as a double feed")
            else:
                s._find("J-DURABLE", seq, "card %s came out with no release before it: the gate opened "
                        "without a durable intent" % name(card))
        elif disposition != (STOP_CARD if card == STOP else (BURNED if kind == REL_BURN else DEALT)):
            s._find("S-BURN" if kind == REL_BURN else "J-EVERY", seq, "card %s %s out of a %s release" % (
                name(card), ("dealt", "burned", "stop card")[disposition] if disposition < 3 else
                "disposition %d" % disposition, "burn" if kind == REL_BURN else "deal"))
        s.released_card = kind != 0
    else:
        if kind:
            s._find("J-EVERY", seq, "card %s marked %s during a release" % (
                name(card), "forced" if condition == FORCED else "double feed"))
        if condition == FORCED:
            if disposition == DEALT:
                s._find("S-FORCED", seq, "a card forced past the locked gate was dealt, not burned")
            else:
                s._find("S-FORCED", seq, "card %s forced past the locked gate (burned)" % name(card))
            s.expect.append((R_ALARM, ALARM_FORCED, "S-FORCED"))
        elif condition == DOUBLE_FEED:
            s._find("S-ONE", seq, "double feed: card %s came out with the one before" % name(card))
            if not s.released_card:
                s._find("S-ONE", seq, "a double feed with no released card before it")
            if disposition == DEALT:
                s._find("S-ONE", seq, "a double-fed card was dealt, not burned")
            s.expect.append((R_ALARM, FAULT_DOUBLE_FEED, "S-ONE"))
        else:
            s._find("J-EVERY", seq, "card with unknown condition %d" % condition)
        s.released_card = False
    s.release = 0
    expect = s.expect
    if card != STOP and not s.stop_seen and f.position >= s.decks * 52 + 1 - s.stop_before:
        # The virtual cut card (S-STOP): no stop card by the position where it must come out; the coup
        # finishes, then the shoe closes as after the stop card.
        s._find("S-STOP", seq, "no stop card by position %d, where it must come out: the shoe closes after "
                "this coup" % f.position)
        expect.append((R_FINDING, F_NO_STOP, "S-STOP"))
        if not s.in_coup:
            expect.append((R_CLOSED, 0, "S-STOP"))
        s.stop_seen = True
    if card == STOP:
        behind = s.decks * 52 + 1 - f.position
        if behind != s.stop_before:
            s._find("S-STOPPOS", seq, "stop card with %d cards behind it, not %d" % (
                behind, s.stop_before))
            expect.append((R_FINDING, F_STOP_POSITION, "S-STOPPOS"))
        s.stop_seen = True
        if not s.in_coup:
            expect.append((R_CLOSED, 0, "S-STOP"))
    elif card < STOP:
        counts = s.counts
        counts[card] += 1
        if counts[card] > s.decks:
            s._find("S-COUNT", seq, "%s seen %d times in a shoe of %d decks: a foreign card" % (
                name(card), counts[card], s.decks))
            expect.append((R_FINDING, F_FOREIGN_CARD, "S-COUNT"))
    hands = s.hands
    if disposition == DEALT and condition == NORMAL:
        if s.closed:
            s._find("S-STOP", seq, "card dealt after the stop card's coup")
        elif not s.in_coup:
            s._find("S-LOCK", seq, "card dealt while the shoe was locked (bets open)")
        elif not s.dealing:
            s._find("S-LOCK", seq, "card dealt while the coup was paused (an alarm or a power-up)")
        if hands.followed:
            _deal(s, seq, card, code - 1)
        elif code:
            s._find(s._tableau_id(), seq, "card given to a hand where the tableau could not be followed")
        s.coup_dealt += 1
        if s.coup_dealt > s.coup_max:
            s._find(GAME_IDS[s.game], seq, "card %d of a coup: the maximum is %d" % (
                s.coup_dealt, s.coup_max))
    elif code:
        s._find("J-EVERY", seq, "a card not dealt given to hand %d" % (code - 1))
    if s.in_coup:
        # The shoe locks by itself when no hand may draw (T-CF, T-DT) or the coup's maximum is reached (S-LOCK).
        if hands.followed and hands.next() == OVER:
            coup_must_end(s, END_TABLEAU)
        elif s.coup_dealt >= s.coup_max:
            coup_must_end(s, END_MAXIMUM)


def _deal(s, seq, card, hand):
    """A dealt card, read and given to a hand, against the tableau's next hand."""
    hands = s.hands
    expected = hands.next()
    if hand < 0 and expected != OVER:
        s._find(s._tableau_id(), seq, "card %s dealt to no hand while the tableau was followed" % (
            name(card)))
    elif expected != hand:
        _misdrawn(s, seq, card, hand, expected)
    if card >= STOP or hand < 0 or hand >= hands.count or hands.cards[hand] >= 3:
        hands.followed = False  # an unread card: the tableau cannot be followed, the maxima still are
    else:
        hands.give(hand, card)


def _misdrawn(s, seq, card, hand, expected):
    if expected == OVER:
        s._find(s._tableau_id(), seq, "%s drawn to %s after the tableau had closed the coup" % (
            name(card), s._hand_name(hand)))
    else:
        s._find(s._tableau_id(), seq, "%s drawn to %s; the tableau gives the next card to %s" % (
            name(card), s._hand_name(hand), s._hand_name(expected)))
