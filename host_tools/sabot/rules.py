"""What a journal shows of the rules (H-VERIFY): re-derived from the card records on the host, independently
of the controller that wrote them, so a controller that broke a rule cannot also hide it."""

from firmware import cards, games
from firmware.controller import (
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
from sabot.journalfile import CARD, CODE, CONDITION, DISPOSITION, POSITION, TYPE, Finding

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
        self.game = games.CHEMIN_DE_FER
        self.loaded = False
        self.tailles_in_seance = 0
        self.seances = []  # (time in ms, table, seq) of each séance opened: for the checks across journals
        self._new_shoe()

    def _new_shoe(self):
        self.coup = Coup()  # the hands of the coup under way, re-dealt from the card records
        self.in_coup = False
        self.coup_dealt = 0
        self.stop_seen = False
        self.closed = False
        self.counts = [0] * cards.KINDS

    def _find(self, rid, seq, message):
        self.findings.append(Finding(rid, seq, message))

    def feed(self, record):
        f = record.fields
        kind = f[TYPE]
        seq = record.seq
        row = games.GAMES[self.game]
        if kind == R_CARD:
            self._card(seq, f, row)
        elif kind == R_NO_MORE_BETS:
            if self.closed:
                self._find("S-STOP", seq, "a coup opened after the stop card's coup")
            if not self.in_coup:
                self.coup_dealt = 0
                self.coup.start(self.game != games.CHEMIN_DE_FER)
            self.in_coup = True
        elif kind == R_COUP_END:
            if self.coup_dealt < row[games.COUP_MIN]:
                self._find(GAME_IDS[self.game], seq, "coup of %d cards, under the minimum of %d" % (
                    self.coup_dealt, row[games.COUP_MIN]))
            self.in_coup = False
            self.closed = self.stop_seen
        elif kind == R_LOAD:
            self.game = f[CODE] if f[CODE] < len(games.GAMES) else self.game
            self.loaded = True
            self._new_shoe()
            self.tailles_in_seance += 1
            limit = games.GAMES[self.game][games.TAILLES_PER_SEANCE]
            if self.game == games.DEUX_TABLEAUX_LIMITEE and self.tailles_in_seance > 1:
                self._find("G-DTL", seq, "a second shoe loaded in one séance: new cards each séance at deux tableaux")
            if limit and self.tailles_in_seance > limit:
                self._find(GAME_IDS[self.game], seq, "taille %d in one séance: at most %d at banque ouverte" % (
                    self.tailles_in_seance, limit))
        elif kind == R_SEANCE:
            self.tailles_in_seance = 0
            self.seances.append((record.time_ms, f[CODE], seq))
        elif kind == R_STAND:
            hand = f[CODE]
            if self.coup.known and (hand >= self.coup.hands or self.coup.rule(hand) != OPTIONAL):
                self._find(self._tableau_id(), seq, "%s stood where the tableau leaves no choice" % (
                    self._hand_name(hand)))
            elif hand < 3:
                self.coup.stood[hand] = 1
        elif kind == R_RESULT:
            self._result(seq, f)
        elif kind == R_RECOVERY and f[CONDITION]:
            self._find("J-DURABLE", seq, "a release was under way at a power cut: whether a card left is unknown")

    def _card(self, seq, f, row):
        card, disposition, condition = f[CARD], f[DISPOSITION], f[CONDITION]
        if condition == FORCED:
            if disposition == DEALT:
                self._find("S-FORCED", seq, "a card forced past the locked gate was dealt, not burned")
            else:
                self._find("S-FORCED", seq, "card %s forced past the locked gate (burned)" % cards.name(card))
        elif condition == DOUBLE_FEED:
            self._find("S-ONE", seq, "double feed: card %s came out with the one before" % cards.name(card))
        if card == cards.STOP:
            behind = row[games.DECKS] * 52 + 1 - f[POSITION]
            if behind != row[games.STOP_BEFORE]:
                self._find("S-STOPPOS", seq, "stop card with %d cards behind it, not %d" % (
                    behind, row[games.STOP_BEFORE]))
            self.stop_seen = True
            self.closed = self.closed or not self.in_coup
        elif card < 52:
            self.counts[card] += 1
            if self.counts[card] > row[games.DECKS]:
                self._find("S-COUNT", seq, "%s seen %d times in a shoe of %d decks: a foreign card" % (
                    cards.name(card), self.counts[card], row[games.DECKS]))
        if disposition == DEALT and condition != FORCED:
            self._tableau(seq, f)
            if self.closed:
                self._find("S-STOP", seq, "card dealt after the stop card's coup")
            elif not self.in_coup:
                self._find("S-LOCK", seq, "card dealt while the shoe was locked (bets open)")
            self.coup_dealt += 1
            if self.coup_dealt > row[games.COUP_MAX]:
                self._find(GAME_IDS[self.game], seq, "card %d of a coup: the maximum is %d" % (
                    self.coup_dealt, row[games.COUP_MAX]))

    def _tableau_id(self):
        return "T-CF" if self.game == games.CHEMIN_DE_FER else "T-DT"

    def _hand_name(self, hand):
        names = HAND_NAMES[self.game != games.CHEMIN_DE_FER]
        return names[hand] if hand < len(names) else "hand %d" % hand

    def _tableau(self, seq, f):
        """A dealt card against the tableau: it must go to the hand the rules give the next card to."""
        coup = self.coup
        hand = f[CODE] - 1
        if hand < 0 or f[CARD] >= cards.STOP or not coup.known:
            coup.known = False  # an unread card: the tableau cannot be followed, the maxima still are
            return
        expected = coup.next_hand()
        if expected == NONE:
            self._find(self._tableau_id(), seq, "%s drawn to %s after the tableau had closed the coup" % (
                cards.name(f[CARD]), self._hand_name(hand)))
        elif expected != hand:
            self._find(self._tableau_id(), seq, "%s drawn to %s; the tableau gives the next card to %s" % (
                cards.name(f[CARD]), self._hand_name(hand), self._hand_name(expected)))
        if hand < coup.hands and coup.counts[hand] < 3:
            coup.add(hand, f[CARD])

    def _result(self, seq, f):
        """The shoe's result record against the hands re-dealt here."""
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
