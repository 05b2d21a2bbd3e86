"""What a journal shows of the rules (H-VERIFY): re-derived from the card records on the host, independently
of the controller that wrote them, so a controller that broke a rule cannot also hide it."""

from firmware import cards, games
from firmware.cards import STOP
from firmware.records import (
    DEALT,
    DOUBLE_FEED,
    FORCED,
    R_CARD,
    R_COUP_END,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RECOVERY,
    R_RESULT,
    R_SEANCE,
    R_STAND,
)
from firmware.tableau import NONE, OPTIONAL, Coup
from sabot.journalfile import CARD, CODE, CONDITION, DISPOSITION, POSITION, SEQ, TIME, TYPE, Finding

GAME_IDS = ("G-CF", "G-DTL", "G-DTO")
ARTICLES = {
    "G-CF": "Article 58", "G-DTL": "Article 58", "G-DTO": "Article 61", "S-ONE": "Article 58",
    "S-LOCK": "Article 58", "S-FORCED": "Article 58", "S-BURN": "Article 58", "S-STOP": "Article 58",
    "S-STOPPOS": "Article 58", "S-COUNT": "Article 58", "S-IDENT": "Article 58",
    # The journal's own requirements serve the approval of the shoe's model (Article 58, "modèle agréé").
    "J-EVERY": "Article 58", "J-DURABLE": "Article 58", "J-TAMPER": "Article 58", "J-EVENTS": "Article 58",
    # A card drawn against the tableau is a "faux tirage" (Article 60); the tableaux' results, Article 62.
    "T-CF": "Article 60", "T-DT": "Article 60",
}
HAND_NAMES = (("ponte", "banque"), ("tableau 1", "tableau 2", "banque"))


class Rules:
    """Folds records one at a time; findings collects what breaks a rule."""

    def __init__(self):
        self.findings = []
        self._game(games.CHEMIN_DE_FER)
        self.tailles_in_seance = 0
        self.seances = []  # (time in ms, table, seq) of each séance opened: for the checks across journals
        self._by_type = {R_CARD: self._card, R_NO_MORE_BETS: self._no_more_bets, R_COUP_END: self._coup_end,
                         R_LOAD: self._load, R_SEANCE: self._seance, R_STAND: self._stand, R_RESULT: self._result,
                         R_RECOVERY: self._recovery}
        self.types = sum(1 << t for t in self._by_type)  # the records read, as a mask for Reader.row_lists()
        self._new_shoe()

    def _game(self, game):
        self.game = game
        self.row = games.GAMES[game]
        self.decks = self.row[games.DECKS]  # the two read at every card
        self.coup_max = self.row[games.COUP_MAX]

    def _new_shoe(self):
        self.coup = Coup()  # the hands of the coup under way, re-dealt from the card records
        self.in_coup = False
        self.coup_dealt = 0
        self.stop_seen = False
        self.closed = False
        self.counts = [0] * cards.KINDS

    def _find(self, rid, seq, message):
        self.findings.append(Finding(rid, seq, message))

    def feed(self, f):
        """One record's row (journalfile's SEQ, TYPE, TIME ... CODE); the types not in self.types tell nothing."""
        fold = self._by_type.get(f[TYPE])
        if fold is not None:
            fold(f)

    def fold(self, rows):
        """Feeds rows of the types in self.types only (Reader.row_lists): the verifier's loop, a call a record."""
        by_type = self._by_type
        for f in rows:
            if f[TYPE] == R_CARD:  # most records
                self._card(f)
            else:
                by_type[f[TYPE]](f)

    def _no_more_bets(self, f):
        if self.closed:
            self._find("S-STOP", f[SEQ], "a coup opened after the stop card's coup")
        if not self.in_coup:
            self.coup_dealt = 0
            self.coup.start(self.game != games.CHEMIN_DE_FER)
        self.in_coup = True

    def _coup_end(self, f):
        if self.coup_dealt < self.row[games.COUP_MIN]:
            self._find(GAME_IDS[self.game], f[SEQ], "coup of %d cards, under the minimum of %d" % (
                self.coup_dealt, self.row[games.COUP_MIN]))
        self.in_coup = False
        self.closed = self.stop_seen

    def _load(self, f):
        seq = f[SEQ]
        if f[CODE] < len(games.GAMES):
            self._game(f[CODE])
        self._new_shoe()
        self.tailles_in_seance += 1
        limit = self.row[games.TAILLES_PER_SEANCE]
        if self.game == games.DEUX_TABLEAUX_LIMITEE and self.tailles_in_seance > 1:
            self._find("G-DTL", seq, "a second shoe loaded in one séance: new cards each séance at deux tableaux")
        if limit and self.tailles_in_seance > limit:
            self._find(GAME_IDS[self.game], seq, "taille %d in one séance: at most %d at banque ouverte" % (
                self.tailles_in_seance, limit))

    def _seance(self, f):
        self.tailles_in_seance = 0
        self.seances.append((f[TIME], f[CODE], f[SEQ]))

    def _stand(self, f):
        hand = f[CODE]
        if self.coup.known and (hand >= self.coup.hands or self.coup.rule(hand) != OPTIONAL):
            self._find(self._tableau_id(), f[SEQ], "%s stood where the tableau leaves no choice" % (
                self._hand_name(hand)))
        elif hand < 3:
            self.coup.stood[hand] = 1

    def _recovery(self, f):
        if f[CONDITION]:
            self._find("J-DURABLE", f[SEQ], "a release was under way at a power cut: whether a card left is "
                       "unknown")

    def _card(self, f):
        seq, card, disposition, condition = f[SEQ], f[CARD], f[DISPOSITION], f[CONDITION]
        if condition == FORCED:
            if disposition == DEALT:
                self._find("S-FORCED", seq, "a card forced past the locked gate was dealt, not burned")
            else:
                self._find("S-FORCED", seq, "card %s forced past the locked gate (burned)" % cards.name(card))
        elif condition == DOUBLE_FEED:
            self._find("S-ONE", seq, "double feed: card %s came out with the one before" % cards.name(card))
        if card < STOP:
            counts = self.counts
            counts[card] += 1
            if counts[card] > self.decks:
                self._find("S-COUNT", seq, "%s seen %d times in a shoe of %d decks: a foreign card" % (
                    cards.name(card), counts[card], self.decks))
        elif card == STOP:
            behind = self.decks * 52 + 1 - f[POSITION]
            if behind != self.row[games.STOP_BEFORE]:
                self._find("S-STOPPOS", seq, "stop card with %d cards behind it, not %d" % (
                    behind, self.row[games.STOP_BEFORE]))
            self.stop_seen = True
            self.closed = self.closed or not self.in_coup
        if disposition == DEALT and condition != FORCED:
            # The tableau: the card must go to the hand the rules give the next card to.
            coup = self.coup
            hand = f[CODE] - 1
            if hand < 0 or card >= STOP or not coup.known:
                coup.known = False  # an unread card: the tableau cannot be followed, the maxima still are
            else:
                expected = coup.next_hand()
                if expected != hand:
                    self._misdrawn(seq, card, hand, expected)
                if hand < coup.hands and coup.counts[hand] < 3:
                    coup.add(hand, card)
            if self.closed:
                self._find("S-STOP", seq, "card dealt after the stop card's coup")
            elif not self.in_coup:
                self._find("S-LOCK", seq, "card dealt while the shoe was locked (bets open)")
            self.coup_dealt += 1
            if self.coup_dealt > self.coup_max:
                self._find(GAME_IDS[self.game], seq, "card %d of a coup: the maximum is %d" % (
                    self.coup_dealt, self.coup_max))

    def _misdrawn(self, seq, card, hand, expected):
        if expected == NONE:
            self._find(self._tableau_id(), seq, "%s drawn to %s after the tableau had closed the coup" % (
                cards.name(card), self._hand_name(hand)))
        else:
            self._find(self._tableau_id(), seq, "%s drawn to %s; the tableau gives the next card to %s" % (
                cards.name(card), self._hand_name(hand), self._hand_name(expected)))

    def _tableau_id(self):
        return "T-CF" if self.game == games.CHEMIN_DE_FER else "T-DT"

    def _hand_name(self, hand):
        names = HAND_NAMES[self.game != games.CHEMIN_DE_FER]
        return names[hand] if hand < len(names) else "hand %d" % hand

    def _result(self, f):
        """The shoe's result record against the hands re-dealt here."""
        seq = f[SEQ]
        coup = self.coup
        if not coup.known:
            return
        if f[CODE] != coup.packed_result() or f[DISPOSITION] != coup.hands:
            self._find(self._tableau_id(), seq, "the result recorded does not match the cards dealt (%s)" % (
                ", ".join("%s %d" % (self._hand_name(h), coup.totals[h]) for h in range(coup.hands))))


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
