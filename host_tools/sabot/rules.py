"""What a journal shows of the rules (H-VERIFY): the shoe's whole state machine re-derived from the records on the
host, written from docs/requirements.md, docs/tableau.md and docs/journal-format.md ("What the shoe writes"),
never from the controller, so that a controller that broke a rule cannot also hide it. Every journal the
specified controller could not have written gets a finding with its requirement's ID."""

from firmware.cards import STOP, UNKNOWN, name
from firmware.layout import SNAPSHOT_FIXED, SNAPSHOT_HANDS
from firmware.record_names import SNAPSHOT_FIELDS
from firmware.records import (
    ALARM_FORCED,
    ALARM_MAX,
    BURNED,
    DEALT,
    DOUBLE_FEED,
    END_MAXIMUM,
    END_TABLEAU,
    F_FOREIGN_CARD,
    F_NO_STOP,
    F_SHORT_COUP,
    F_STOP_POSITION,
    FAULT_DEVKEY,
    FAULT_DOUBLE_FEED,
    FAULT_FIRMWARE,
    FAULT_JAM,
    FAULT_ROLLBACK,
    FORCED,
    NO_CODE,
    NORMAL,
    R_ALARM,
    R_BOOT,
    R_CARD,
    R_CLEAR,
    R_CLOSED,
    R_COUP_END,
    R_FINDING,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RECOVERY,
    R_RELEASE,
    R_RESULT,
    R_SEANCE,
    R_SEANCE_CLOSE,
    R_STAND,
    REL_BURN,
    REL_DEAL,
    STOP_CARD,
    USES_CARD,
    USES_CONDITION,
    USES_DISPOSITION,
)
from sabot._frames import RELEASED_SHIFT
from sabot.journalfile import (
    CARD,
    CODE,
    CONDITION,
    COUP,
    DISPOSITION,
    POSITION,
    SEANCE,
    SEQ,
    TAILLE,
    TIME,
    TYPE,
    Finding,
)
from sabot.tableau_oracle import CHOOSES, OVER, Hands

# The games as docs/requirements.md states them (G-CF, G-DTL, G-DTO): decks, cards behind the stop card, fewest
# and most cards in a coup, tailles per séance (0: no limit). Indexed by R_LOAD's code.
GAME_IDS = ("G-CF", "G-DTL", "G-DTO")
_DECKS = (6, 3, 6)
_STOP_BEFORE = (7, 10, 10)
_COUP_MIN = (4, 6, 6)
_COUP_MAX = (6, 9, 9)
_TAILLES = (0, 0, 2)
_LIMITEE = 1
ARTICLES = {
    "G-CF": "Article 58", "G-DTL": "Article 58", "G-DTO": "Article 61", "S-ONE": "Article 58",
    "S-LOCK": "Article 58", "S-FAILSAFE": "Article 58", "S-FORCED": "Article 58", "S-BURN": "Article 58",
    "S-STOP": "Article 58", "S-STOPPOS": "Article 58", "S-COUNT": "Article 58", "S-IDENT": "Article 58",
    # The journal's own requirements serve the approval of the shoe's model (Article 58, "modèle agréé").
    "J-EVERY": "Article 58", "J-DURABLE": "Article 58", "J-TAMPER": "Article 58", "J-EVENTS": "Article 58",
    "J-TIME": "Article 58", "H-FIRMWARE": "Article 58", "H-VERIFY": "Article 58",
    # A card drawn against the tableau is a "faux tirage" (Article 60); the tableaux' results, Article 62.
    "T-CF": "Article 60", "T-DT": "Article 60",
}
HAND_NAMES = (("ponte", "banque"), ("tableau 1", "tableau 2", "banque"))
_WORDS = {  # what an expected record is, for the finding that says it is missing
    R_ALARM: "its alarm", R_FINDING: "its finding", R_CLOSED: "the shoe closed (S-STOP)", R_RESULT: "the coup's result",
    R_COUP_END: "the coup's end", R_RECOVERY: "the recovery record",
}
_ANY = -1  # an expected record's code that may be anything
_RELEASED = 1 << RELEASED_SHIFT


class Rules:
    """Folds records one at a time, in the journal's order; findings collects what breaks a rule."""

    def __init__(self):
        self.findings = []
        self.seances = []  # (time in ms, table, seq) of each séance opened: for the checks across journals
        self.types = (1 << 64) - 1  # every record type (Reader.row_lists's mask)
        self.hands = Hands()  # the coup under way, re-dealt from the card records
        self.expect = []  # (type, code, requirement) of the records the shoe must write next, in order
        self.counts = bytearray(54)
        self.last = 0  # the previous record's type (0 before the first)
        self.seance = self.taille = self.coup = self.position = 0  # in force after the last record
        self.seance_open = False
        self.table = 0
        self.tailles_in_seance = 0
        self._game(0)
        self.loaded = False
        self.in_coup = False
        self.dealing = False  # in a coup, and not paused by an alarm or a power-up
        self.closed = False  # the stop card's coup is over (S-STOP)
        self.stop_seen = False
        self.coup_dealt = 0
        self.alarms = 0  # the alarms and faults raised and not cleared, bit c for code c
        self.firmware_unchecked = False  # the firmware fault raised, and no power-up since to find the files again
        self.release = 0  # the release under way: REL_DEAL, REL_BURN or 0
        self.released_card = False  # the last card came out of a release, and no release since (S-ONE)
        self.started = False  # whether a segment header was read
        self.last_card = 0  # the last card record's card

    def _game(self, game):
        """The game's numbers, held apart: they are read at every card."""
        self.game = game
        self.decks = _DECKS[game]
        self.stop_before = _STOP_BEFORE[game]
        self.coup_min = _COUP_MIN[game]
        self.coup_max = _COUP_MAX[game]

    def resume(self, snapshot):
        """Start from a segment header's controller snapshot (docs/journal-format.md), for a journal read from
        a segment after the first."""
        (self.seance, self.table, self.taille, self.tailles_in_seance, game, self.coup, in_coup, self.coup_dealt,
         self.position, stop_seen, alarm, phase, self.release) = [int.from_bytes(snapshot[a:b], "little")
                                                                   for a, b in SNAPSHOT_FIELDS]
        self._game(game if game < 3 else 0)
        self.in_coup = bool(in_coup)
        self.stop_seen = bool(stop_seen)
        self.alarms = alarm << 1
        self.loaded = phase != 0
        self.closed = phase == 3
        self.dealing = phase == 2
        self.seance_open = self.seance > 0
        self.counts[:] = snapshot[SNAPSHOT_FIXED:SNAPSHOT_HANDS]
        hands = self.hands
        hands.start(3 if self.game else 2)
        at = SNAPSHOT_HANDS
        for h in range(3):
            hands.cards[h] = snapshot[at + h]
            hands.total[h] = snapshot[at + 3 + h]
            hands.third[h] = snapshot[at + 6 + h]
            hands.stood[h] = snapshot[at + 9 + h]
        hands.followed = bool(snapshot[at + 12])

    def header(self, number, snapshot, seq):
        """A segment header's controller snapshot (docs/journal-format.md) against the state the records before it
        give: the shoe restores that state at power-up, so a snapshot the journal does not give is a boot that
        would restore another shoe (J-DURABLE). The first segment read of a journal cut short gives the state."""
        if not self.started and number != 1:
            self.resume(snapshot)
        self.started = True
        mine = (self.seance, self.table, self.taille, self.tailles_in_seance, self.game, self.coup, self.in_coup,
                self.coup_dealt, self.position, self.stop_seen)
        theirs = tuple(snapshot[a] | (snapshot[a + 1] << 8 if b - a == 2 else 0) for a, b in SNAPSHOT_FIELDS[:10])
        phase = 3 if self.closed else (2 if self.dealing else (1 if self.loaded else 0))
        alarm, their_phase, release = [int.from_bytes(snapshot[a:b], "little") for a, b in SNAPSHOT_FIELDS[10:]]
        hands = self.hands
        at = SNAPSHOT_HANDS
        if (mine != theirs or their_phase != phase or release != self.release or alarm != self.alarms >> 1
                or snapshot[SNAPSHOT_FIXED:at] != self.counts
                or snapshot[at:at + 12] != hands.cards + hands.total + hands.third + hands.stood
                or snapshot[at + 12] != hands.followed):
            self._find("J-DURABLE", seq, "segment %d's header holds a shoe state the records before it do not give "
                       "(séance, table, taille, tailles, game, coup, in a coup, cards, position, stop card: %s, phase "
                       "%d, alarms %#x, release %d; the journal gives %s, phase %d, alarms %#x, release %d; or the "
                       "card counts, or the coup's hands)" % (
                           number, theirs, their_phase, alarm, release, tuple(int(v) for v in mine), phase,
                           self.alarms >> 1, self.release))

    def _find(self, rid, seq, message):
        self.findings.append(Finding(rid, seq, message))

    def feed(self, f):
        """One record's row (journalfile's SEQ, TYPE, TIME ... CODE)."""
        self._record(f)

    def fold(self, rows):
        """Feeds a list of rows (Reader.row_lists): the verifier's loop."""
        for f in rows:
            self._record(f)

    def finish(self, seq):
        """What the journal's end shows (seq: its last record's)."""
        if self.expect:
            self._find(self.expect[0][2], seq, "the journal ends before %s: cut, or the power lost between the "
                       "records of one step" % _WORDS.get(self.expect[0][0], "the next record"))
        if self.release:
            self._find("J-DURABLE", seq, "the journal ends on a release: whether a card left is unknown (power "
                       "lost before the pull, or the journal cut)")

    def _record(self, f):
        rtype = f[TYPE]
        if rtype >= _RELEASED:  # a release intent the reader folded into this row (Reader.row_lists, merge)
            kind = rtype >> RELEASED_SHIFT
            rtype &= _RELEASED - 1
            if self.expect:
                self._expected(R_RELEASE, kind, f[SEQ] - 1)
            self._release_state(f[SEQ] - 1, kind)
            self.last = R_RELEASE
        if self.expect:
            self._expected(rtype, f[CODE], f[SEQ])
        if rtype == R_CARD:
            self._card(f)
        elif rtype == R_RELEASE:
            self._release(f)
        else:
            self._fields(f, rtype)
            if ((f[CARD] and not USES_CARD >> rtype & 1) or (f[DISPOSITION] and not USES_DISPOSITION >> rtype & 1)
                    or (f[CONDITION] and not USES_CONDITION >> rtype & 1)):
                self._find("J-EVENTS", f[SEQ], "a record of type %d with card %d, disposition %d, condition %d, "
                           "which it does not use" % (rtype, f[CARD], f[DISPOSITION], f[CONDITION]))
            if f[CODE] and NO_CODE >> rtype & 1:
                self._find("J-EVENTS", f[SEQ], "a record of type %d with code %d, where its code is 0" % (
                    rtype, f[CODE]))
            if rtype == R_NO_MORE_BETS:
                self._no_more_bets(f)
            elif rtype == R_COUP_END:
                self._coup_end(f)
            elif rtype == R_RESULT:
                self._result(f)
            elif rtype == R_FINDING:
                self._finding(f)
            elif rtype == R_STAND:
                self._stand(f)
            elif rtype == R_ALARM:
                self._alarm(f)
            elif rtype == R_CLEAR:
                self._clear(f)
            elif rtype == R_CLOSED:
                self._closed(f)
            elif rtype == R_LOAD:
                self._load(f)
            elif rtype == R_SEANCE:
                self._seance(f)
            elif rtype == R_SEANCE_CLOSE:
                self._seance_close(f)
            elif rtype == R_BOOT:
                self._boot(f)
            elif rtype == R_RECOVERY:
                self._recovery(f)
            else:
                self._find("J-EVENTS", f[SEQ], "record of unknown type %d" % rtype)
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

    def _pop(self, rtype):
        """Whether the record was expected (and is taken off the list)."""
        expect = self.expect
        if expect and expect[0][0] == rtype:
            del expect[0]
            return True
        return False

    def _fields(self, f, rtype):
        """Every record carries the séance, taille, coup and position in force after it (J-EVERY)."""
        seance, taille, coup, position = self.seance, self.taille, self.coup, self.position
        if rtype == R_SEANCE:
            seance += 1
        elif rtype == R_LOAD:
            taille += 1
            coup = 0
            position = 0
        elif rtype == R_NO_MORE_BETS and not self.in_coup:
            coup += 1
        got_seance, got_taille, got_coup, got_position = f[SEANCE], f[TAILLE], f[COUP], f[POSITION]
        if got_seance != seance or got_taille != taille or got_coup != coup or got_position != position:
            self._find("J-EVERY", f[SEQ], "record in séance %d, taille %d, coup %d, position %d where the journal "
                       "stands at %d, %d, %d, %d" % (got_seance, got_taille, got_coup, got_position, seance, taille,
                                                     coup, position))
        self.seance, self.taille, self.coup, self.position = got_seance, got_taille, got_coup, got_position

    def _alarm_id(self):
        """What an uncleared alarm breaks: the forced card's rule, or the fail-safe's for a fault."""
        return "S-FORCED" if self.alarms >> ALARM_FORCED & 1 else "S-FAILSAFE"

    def _locked_why(self, kind):
        """Why the specified shoe refuses a release of this kind now (docs/requirements.md), or None."""
        if self.alarms:
            return self._alarm_id(), "an alarm or fault uncleared"
        if not self.loaded:
            return "S-LOCK", "no shoe loaded"
        if self.closed:
            return "S-STOP", "the stop card's coup is over"
        if kind == REL_DEAL and not self.dealing:
            return "S-LOCK", "the shoe locked (bets open, or the coup paused)"
        if kind == REL_BURN and self.in_coup:
            return "S-BURN", "a coup under way: burns only between coups"
        return None

    def _release(self, f):
        """An intent the reader did not fold into the next row (Reader.row_lists): one to look at closely."""
        self._fields(f, R_RELEASE)
        if f[CARD] or f[DISPOSITION] or f[CONDITION]:
            self._find("J-EVENTS", f[SEQ], "a release with card %d, disposition %d, condition %d, which it does not "
                       "use" % (f[CARD], f[DISPOSITION], f[CONDITION]))
        self._release_state(f[SEQ], f[CODE])

    def _release_state(self, seq, kind):
        if kind != REL_DEAL and kind != REL_BURN:
            self._find("J-EVENTS", seq, "release of unknown kind %d" % kind)
        elif self.release:
            self._find("S-ONE", seq, "a release while another was under way")
        elif self.alarms or not self.loaded or self.closed or (self.in_coup if kind == REL_BURN else not self.dealing):
            why = self._locked_why(kind)
            if why is not None:
                self._find(why[0], seq, "the gate opened to %s with %s" % ("deal" if kind == REL_DEAL else "burn",
                                                                          why[1]))
        self.release = kind
        self.released_card = False

    def _card(self, f):
        seq, card, disposition, condition, code = f[SEQ], f[CARD], f[DISPOSITION], f[CONDITION], f[CODE]
        position = self.position + 1
        got_seance, got_taille, got_coup, got_position = f[SEANCE], f[TAILLE], f[COUP], f[POSITION]
        if got_position != position:
            self._find("J-EVERY", seq, "card at position %d after position %d: %s" % (
                got_position, self.position, "cards without a record" if got_position > position else
                "a position given twice"))
        if got_seance != self.seance or got_taille != self.taille or got_coup != self.coup:
            self._find("J-EVERY", seq, "card in séance %d, taille %d, coup %d where the journal stands at %d, %d, %d"
                       % (got_seance, got_taille, got_coup, self.seance, self.taille, self.coup))
        self.seance, self.taille, self.coup, self.position = got_seance, got_taille, got_coup, got_position
        self.last_card = card
        if card > UNKNOWN:
            self._find("J-EVERY", seq, "card code %d is no card" % card)
        if (disposition == STOP_CARD) != (card == STOP) or disposition > STOP_CARD:
            self._find("J-EVERY", seq, "card %s with disposition %d: the stop card's is 2, and only its" % (
                name(card), disposition))
        kind = self.release
        if condition == NORMAL:
            if not kind:
                if self.released_card:
                    self._find("S-ONE", seq, "a second card out of one release, not recorded as a double feed")
                else:
                    self._find("J-DURABLE", seq, "card %s came out with no release before it: the gate opened "
                               "without a durable intent" % name(card))
            elif disposition != (STOP_CARD if card == STOP else (BURNED if kind == REL_BURN else DEALT)):
                self._find("S-BURN" if kind == REL_BURN else "J-EVERY", seq, "card %s %s out of a %s release" % (
                    name(card), ("dealt", "burned", "stop card")[disposition] if disposition < 3 else
                    "disposition %d" % disposition, "burn" if kind == REL_BURN else "deal"))
            self.released_card = kind != 0
        else:
            if kind:
                self._find("J-EVERY", seq, "card %s marked %s during a release" % (
                    name(card), "forced" if condition == FORCED else "double feed"))
            if condition == FORCED:
                if disposition == DEALT:
                    self._find("S-FORCED", seq, "a card forced past the locked gate was dealt, not burned")
                else:
                    self._find("S-FORCED", seq, "card %s forced past the locked gate (burned)" % name(card))
                self.expect.append((R_ALARM, ALARM_FORCED, "S-FORCED"))
            elif condition == DOUBLE_FEED:
                self._find("S-ONE", seq, "double feed: card %s came out with the one before" % name(card))
                if not self.released_card:
                    self._find("S-ONE", seq, "a double feed with no released card before it")
                if disposition == DEALT:
                    self._find("S-ONE", seq, "a double-fed card was dealt, not burned")
                self.expect.append((R_ALARM, FAULT_DOUBLE_FEED, "S-ONE"))
            else:
                self._find("J-EVERY", seq, "card with unknown condition %d" % condition)
            self.released_card = False
        self.release = 0
        expect = self.expect
        if card != STOP and not self.stop_seen and f[POSITION] >= self.decks * 52 + 1 - self.stop_before:
            # The virtual cut card (S-STOP): no stop card by the position where it must come out; the coup
            # finishes, then the shoe closes as after the stop card.
            self._find("S-STOP", seq, "no stop card by position %d, where it must come out: the shoe closes after "
                       "this coup" % f[POSITION])
            expect.append((R_FINDING, F_NO_STOP, "S-STOP"))
            if not self.in_coup:
                expect.append((R_CLOSED, 0, "S-STOP"))
            self.stop_seen = True
        if card == STOP:
            behind = self.decks * 52 + 1 - f[POSITION]
            if behind != self.stop_before:
                self._find("S-STOPPOS", seq, "stop card with %d cards behind it, not %d" % (
                    behind, self.stop_before))
                expect.append((R_FINDING, F_STOP_POSITION, "S-STOPPOS"))
            self.stop_seen = True
            if not self.in_coup:
                expect.append((R_CLOSED, 0, "S-STOP"))
        elif card < STOP:
            counts = self.counts
            counts[card] += 1
            if counts[card] > self.decks:
                self._find("S-COUNT", seq, "%s seen %d times in a shoe of %d decks: a foreign card" % (
                    name(card), counts[card], self.decks))
                expect.append((R_FINDING, F_FOREIGN_CARD, "S-COUNT"))
        hands = self.hands
        if disposition == DEALT and condition == NORMAL:
            if self.closed:
                self._find("S-STOP", seq, "card dealt after the stop card's coup")
            elif not self.in_coup:
                self._find("S-LOCK", seq, "card dealt while the shoe was locked (bets open)")
            elif not self.dealing:
                self._find("S-LOCK", seq, "card dealt while the coup was paused (an alarm or a power-up)")
            if hands.followed:
                self._deal(seq, card, code - 1)
            elif code:
                self._find(self._tableau_id(), seq, "card given to a hand where the tableau could not be followed")
            self.coup_dealt += 1
            if self.coup_dealt > self.coup_max:
                self._find(GAME_IDS[self.game], seq, "card %d of a coup: the maximum is %d" % (
                    self.coup_dealt, self.coup_max))
        elif code:
            self._find("J-EVERY", seq, "a card not dealt given to hand %d" % (code - 1))
        if self.in_coup:
            # The shoe locks by itself when no hand may draw (T-CF, T-DT) or the coup's maximum is reached (S-LOCK).
            if hands.followed and hands.next() == OVER:
                self._coup_must_end(END_TABLEAU)
            elif self.coup_dealt >= self.coup_max:
                self._coup_must_end(END_MAXIMUM)

    def _deal(self, seq, card, hand):
        """A dealt card, read and given to a hand, against the tableau's next hand."""
        hands = self.hands
        expected = hands.next()
        if hand < 0 and expected != OVER:
            self._find(self._tableau_id(), seq, "card %s dealt to no hand while the tableau was followed" % (
                name(card)))
        elif expected != hand:
            self._misdrawn(seq, card, hand, expected)
        if card >= STOP or hand < 0 or hand >= hands.count or hands.cards[hand] >= 3:
            hands.followed = False  # an unread card: the tableau cannot be followed, the maxima still are
        else:
            hands.give(hand, card)

    def _coup_must_end(self, how):
        """The records that end a coup, in the shoe's order (docs/journal-format.md)."""
        rid = self._tableau_id() if how == END_TABLEAU else GAME_IDS[self.game]
        expect = self.expect
        if self.coup_dealt < self.coup_min:
            expect.append((R_FINDING, F_SHORT_COUP, GAME_IDS[self.game]))
        if self.hands.followed and self.hands.dealt():
            expect.append((R_RESULT, _ANY, self._tableau_id()))
        expect.append((R_COUP_END, how, rid))

    def _misdrawn(self, seq, card, hand, expected):
        if expected == OVER:
            self._find(self._tableau_id(), seq, "%s drawn to %s after the tableau had closed the coup" % (
                name(card), self._hand_name(hand)))
        else:
            self._find(self._tableau_id(), seq, "%s drawn to %s; the tableau gives the next card to %s" % (
                name(card), self._hand_name(hand), self._hand_name(expected)))

    def _tableau_id(self):
        return "T-DT" if self.game else "T-CF"

    def _hand_name(self, hand):
        names = HAND_NAMES[self.game != 0]
        return names[hand] if 0 <= hand < len(names) else "hand %d" % hand

    def _no_more_bets(self, f):
        seq = f[SEQ]
        if self.release:
            self._find("S-ONE", seq, "no more bets while a release was under way")
        if self.alarms:
            self._find(self._alarm_id(), seq, "a coup opened with an alarm or fault uncleared")
        if self.closed:
            self._find("S-STOP", seq, "a coup opened after the stop card's coup")
        elif not self.loaded:
            self._find("S-LOCK", seq, "a coup opened with no shoe loaded")
        elif self.dealing:
            self._find("S-LOCK", seq, "no more bets in a coup already open")
        if not self.seance_open:
            self._find("S-IDENT", seq, "a coup opened outside an open séance")
        if not self.in_coup:
            self.coup_dealt = 0
            self.hands.start(3 if self.game else 2)
        self.in_coup = True
        self.dealing = True

    def _coup_end(self, f):
        seq, how = f[SEQ], f[CODE]
        hands = self.hands
        if how == END_TABLEAU and not (self.in_coup and hands.followed and hands.next() == OVER):
            self._find(self._tableau_id(), seq, "coup ended by the tableau while a hand could still draw")
        elif how == END_MAXIMUM and not (self.in_coup and self.coup_dealt >= self.coup_max):
            self._find(GAME_IDS[self.game], seq, "coup ended by the maximum after %d cards" % self.coup_dealt)
        elif how > END_TABLEAU:
            self._find("J-EVENTS", seq, "coup end of unknown code %d" % how)
        if not self._pop(R_COUP_END):  # no finding nor result before it: the croupier's button
            if not self.in_coup:
                self._find("S-LOCK", seq, "coup end with no coup open")
            elif self.release:
                self._find("S-ONE", seq, "coup end while a release was under way")
            if self.in_coup and hands.followed and hands.dealt():
                self._find(self._tableau_id(), seq, "the coup ended with no result record")
            if self.in_coup and self.coup_dealt < self.coup_min:
                self._find(GAME_IDS[self.game], seq, "the shoe recorded no finding of its short coup")
        if self.in_coup and self.coup_dealt < self.coup_min:
            self._find(GAME_IDS[self.game], seq, "coup of %d cards, under the minimum of %d" % (
                self.coup_dealt, self.coup_min))
        self.in_coup = False
        self.dealing = False
        if self.stop_seen:
            self.expect.append((R_CLOSED, 0, "S-STOP"))

    def _result(self, f):
        """The shoe's result record against the hands re-dealt here."""
        seq = f[SEQ]
        hands = self.hands
        if not self._pop(R_RESULT):
            if not self.in_coup or not hands.followed or not hands.dealt():
                self._find(self._tableau_id(), seq, "a result record where no coup can have one")
                return
            self._button_end_follows()
        if not hands.followed:
            return
        if f[CODE] != hands.result_code() or f[DISPOSITION] != hands.count or f[CARD] != hands.counts_code():
            self._find(self._tableau_id(), seq, "the result recorded does not match the cards dealt (%s)" % (
                ", ".join("%s %d" % (self._hand_name(h), hands.total[h]) for h in range(hands.count))))

    def _button_end_follows(self):
        self.expect.append((R_COUP_END, _ANY, "S-LOCK"))

    def _finding(self, f):
        seq, code = f[SEQ], f[CODE]
        if f[CARD] != (STOP if code == F_STOP_POSITION else (self.last_card if code == F_FOREIGN_CARD else 0)):
            self._find("J-EVENTS", seq, "the shoe's finding %d names card %s" % (code, name(f[CARD])))
        if self._pop(R_FINDING):
            return
        if code == F_SHORT_COUP and self.in_coup and self.coup_dealt < self.coup_min:
            if self.hands.followed and self.hands.dealt():
                self.expect.append((R_RESULT, _ANY, self._tableau_id()))
            self._button_end_follows()
        else:
            self._find("J-EVENTS", seq, "the shoe recorded finding %d where nothing shows it" % code)

    def _stand(self, f):
        seq, hand = f[SEQ], f[CODE]
        hands = self.hands
        if not self.in_coup or self.release:
            self._find(self._tableau_id(), seq, "a stand announced with no coup dealing")
        elif not hands.followed:
            self._find(self._tableau_id(), seq, "a stand announced where the tableau cannot be followed")
        elif (hand >= hands.count or hands.cards[hand] != 2 or hands.stood[hand] or hands.choice(hand) != CHOOSES
              or hands.dealt() < 2 * hands.count):
            self._find(self._tableau_id(), seq, "%s stood where the tableau leaves no choice" % (
                self._hand_name(hand)))
        if hand < 3:
            hands.stood[hand] = 1
        if self.in_coup and hands.followed and hands.next() == OVER:
            self._coup_must_end(END_TABLEAU)

    def _alarm(self, f):
        seq, code = f[SEQ], f[CODE]
        expected = self._pop(R_ALARM)
        if code < 1 or code > ALARM_MAX:
            self._find("J-EVENTS", seq, "alarm of unknown code %d: it raises nothing and clears nothing" % code)
        elif not expected:
            if code == ALARM_FORCED:
                self._find("S-FORCED", seq, "a forced-extraction alarm with no forced card")
            elif code == FAULT_DOUBLE_FEED:
                self._find("S-ONE", seq, "a double-feed fault with no double-fed card")
            elif code == FAULT_JAM and not self.release:
                self._find("S-ONE", seq, "a jam with no release under way")
            elif code == FAULT_ROLLBACK:
                self._find("J-TAMPER", seq, "the shoe found its journal shorter than the head it kept at power-up: "
                           "records were cut or deleted on the shoe")
            elif code == FAULT_FIRMWARE:
                self._find("H-FIRMWARE", seq, "the shoe found firmware files that differ from the approved release")
            elif code == FAULT_DEVKEY:
                self._find("H-VERIFY", seq, "a board under the public development key: anyone can have written "
                           "its journal")
        if 0 < code <= ALARM_MAX:
            self.alarms |= 1 << code  # a set: a fault never replaces an alarm
        if code == FAULT_FIRMWARE:
            self.firmware_unchecked = True
        elif code == FAULT_ROLLBACK:
            # What the journal lost is unknown (a stop card's coup, a closed shoe): no other coup from this shoe.
            self.in_coup = False
            self.closed = self.loaded
        self.release = 0
        self.released_card = False
        self.dealing = False  # the coup pauses; "no more bets" resumes it once cleared

    def _clear(self, f):
        seq, code = f[SEQ], f[CODE]
        if code < 1 or code > ALARM_MAX or not self.alarms >> code & 1:
            self._find("S-FORCED" if self.alarms >> ALARM_FORCED & 1 else "J-EVENTS", seq,
                       "alarm %d cleared, which was not raised" % code)
            return
        if code == FAULT_DEVKEY:
            self._find("H-FIRMWARE", seq, "the development key's fault cleared: no key switch clears it, the shoe "
                       "needs a key of its own")
        elif code == FAULT_FIRMWARE and self.firmware_unchecked:
            self._find("H-FIRMWARE", seq, "the firmware fault cleared with no power-up since it was raised: only a "
                       "boot that finds the approved files again lets the supervisor clear it")
        self.alarms &= ~(1 << code)

    def _closed(self, f):
        if not self._pop(R_CLOSED):
            self._find("S-STOP", f[SEQ], "the shoe closed with no stop card's coup over")
        self.closed = True
        self.dealing = False

    def _load(self, f):
        seq, game = f[SEQ], f[CODE]
        if game >= 3:
            self._find("J-EVENTS", seq, "shoe loaded for unknown game code %d" % game)
            game = self.game
        if self.release:
            self._find("S-ONE", seq, "shoe loaded while a release was under way")
        if self.alarms:
            self._find(self._alarm_id(), seq, "shoe loaded with an alarm or fault uncleared")
        if self.in_coup:
            self._find("S-LOCK", seq, "shoe loaded in the middle of a coup")
        if not self.seance_open:
            self._find("S-IDENT", seq, "shoe loaded outside an open séance")
        self._game(game)
        self.loaded = True
        self.in_coup = self.dealing = self.closed = self.stop_seen = False
        self.coup_dealt = 0
        for i in range(54):
            self.counts[i] = 0
        self.tailles_in_seance += 1
        if game == _LIMITEE and self.tailles_in_seance > 1:
            self._find("G-DTL", seq, "a second shoe loaded in one séance: new cards each séance at deux tableaux")
        if _TAILLES[game] and self.tailles_in_seance > _TAILLES[game]:
            self._find(GAME_IDS[game], seq, "taille %d in one séance: at most %d at banque ouverte" % (
                self.tailles_in_seance, _TAILLES[game]))

    def _between_coups(self, f, what):
        if self.release:
            self._find("S-ONE", f[SEQ], "%s while a release was under way" % what)
        if self.in_coup:
            self._find("S-LOCK", f[SEQ], "%s in the middle of a coup" % what)

    def _seance(self, f):
        self._between_coups(f, "séance opened")
        self.seance_open = True
        self.table = f[CODE]
        self.tailles_in_seance = 0
        self.loaded = self.closed = False  # a séance starts with a shoe of its own
        self.seances.append((f[TIME], f[CODE], f[SEQ]))

    def _seance_close(self, f):
        self._between_coups(f, "séance closed")
        if not self.seance_open:
            self._find("S-IDENT", f[SEQ], "séance closed when none was open")
        elif f[CODE] != self.table:
            self._find("S-IDENT", f[SEQ], "séance of table %d closed as table %d" % (self.table, f[CODE]))
        self.seance_open = False
        self.table = 0  # no séance open
        self.loaded = self.closed = False

    def _boot(self, f):
        self.dealing = False  # S-FAILSAFE: power-up never resumes dealing by itself
        self.released_card = False
        self.firmware_unchecked = False  # this boot checked the files: raised again, or found approved
        if self.release:
            self.expect.append((R_RECOVERY, _ANY, "J-DURABLE"))

    def _recovery(self, f):
        seq, torn, uncertain = f[SEQ], f[CODE], f[CONDITION]
        self._pop(R_RECOVERY)
        if self.last != R_BOOT:
            # Live, a fault (interrupt events lost) closes an open release: its alarm follows, nothing is torn.
            if not uncertain or torn:
                self._find("J-DURABLE", seq, "a recovery record that does not follow a power-up")
            self.expect.append((R_ALARM, _ANY, "J-DURABLE"))
        if uncertain != self.release:
            self._find("J-DURABLE", seq, "recovery says release %d was under way; the journal says %d" % (
                uncertain, self.release))
        if uncertain:
            self._find("J-DURABLE", seq, "a release was under way %s: whether a card left is unknown" % (
                "at a power cut" if self.last == R_BOOT else "when events were lost"))
        if torn:
            self._find("J-DURABLE", seq, "%s%d torn bytes cut at power-up: a record being written when the power "
                       "failed is lost" % ("at least " if torn == 65535 else "", torn))
        elif not uncertain:
            self._find("J-EVENTS", seq, "a recovery record with nothing recovered")
        self.release = 0


def assignment_findings(journals, limit):
    """S-IDENT across journals: a shoe assigned to the same table in `limit` consecutive séances (Article 58:
    the same shoes must not systematically go to the same tables). journals: (label, sabot, seances)."""
    by_shoe = {}
    for order, (label, sabot, seances) in enumerate(journals):
        by_shoe.setdefault(sabot, []).extend((time, order, seq, table, label) for time, table, seq in seances)
    found = []
    for sabot, seances in sorted(by_shoe.items()):
        run = 0
        previous = None
        for _time, _order, seq, table, label in sorted(seances):  # same times: the journals' order given
            run = run + 1 if table == previous else 1
            previous = table
            if run == limit:
                found.append((label, Finding("S-IDENT", seq, "sabot %d assigned to table %d in %d consecutive "
                                             "séances" % (sabot, table, limit))))
    return found
