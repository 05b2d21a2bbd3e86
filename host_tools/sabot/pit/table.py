"""What a table's screen shows (docs/pit.md), folded from its shoe's verified records in order: the séance and its
table, the coup under way or the last one card by card and hand by hand, its result as the croupier announces it,
the séance's roadmap (the winner of each coup), the cards before the stop card, and the shoe's state. Pure data
(JSON for the page); the words are the journal's own (firmware/format/words.py) and the report's (cards)."""

from firmware import cards, games, records
from firmware.format import words
from firmware.record_names import unpack_hand, unpack_totals, unpack_winners
from sabot.journalfile import CARD, CODE, CONDITION, COUP, DISPOSITION, POSITION, SEANCE, SEQ, TIME, TYPE
from sabot.report.cardwords import full, is_red, short

# The shoe's state, as a croupier reads it from two metres (the page's words and colours, docs/pit.md).
LOCKED, OPEN, ALARM, CLOSED = "verrouillé", "ouvert pour un coup", "alarme", "fermé"
_ROAD = {records.WIN_BANQUE: "B", records.WIN_PONTE: "P", records.WIN_EGALITE: "E"}  # a roadmap cell's letter


class Table:
    """A shoe's records folded one by one (feed), its screen's state read at any time (state())."""

    def __init__(self, sabot):
        self.sabot = sabot
        self.table = self.seance = None
        self.game = games.CHEMIN_DE_FER
        self.coup = None  # the coup on the screen: {"number", "cards", "result", "open"}
        self.road = []  # the séance's coups: {"coup", "winners": letters}
        self.out = 0  # items out of the shoe in this taille, the stop card counted
        self.stop_out = False
        self.alarms = set()  # codes raised and not cleared
        self.closed = False
        self.seq = 0
        self.last_ms = None
        self.forced = []  # {"seq", "card", "coup"} of every card forced past the locked gate

    def feed(self, row):
        kind = row[TYPE]
        self.seq, self.last_ms = row[SEQ], row[TIME]
        if kind == records.R_SEANCE:
            self.table, self.seance, self.game = row[CODE], row[SEANCE], row[CARD]
            self.road, self.coup, self.closed = [], None, False
        elif kind == records.R_SEANCE_CLOSE:
            self.closed = True
        elif kind == records.R_LOAD:
            self.game, self.out, self.stop_out, self.closed = row[CODE], 0, False, False
        elif kind == records.R_NO_MORE_BETS:
            if not self.coup or self.coup["number"] != row[COUP] or not self.coup["open"]:
                self.coup = {"number": row[COUP], "cards": [], "result": None, "open": True}
        elif kind == records.R_CARD:
            self._card(row)
        elif kind == records.R_RESULT and self.coup:
            self.coup["result"] = _result(row, self.game)
            self.road.append({"coup": self.coup["number"], "winners": self.coup["result"]["road"]})
        elif kind == records.R_COUP_END and self.coup:
            self.coup["open"] = False
        elif kind == records.R_ALARM:
            self.alarms.add(row[CODE])
        elif kind == records.R_CLEAR:
            self.alarms.discard(row[CODE])
        elif kind == records.R_CLOSED:
            self.closed = True

    def _card(self, row):
        self.out = max(self.out, row[POSITION])
        card = row[CARD]
        if card == cards.STOP:
            self.stop_out = True
            return
        if row[CONDITION] == records.FORCED:
            self.forced.append({"seq": row[SEQ], "card": short(card, "fr"), "coup": row[COUP]})
        if row[DISPOSITION] == records.DEALT and row[CONDITION] != records.FORCED and self.coup:
            hand = unpack_hand(row[CODE])
            self.coup["cards"].append({"hand": words.hand(self.game, hand), "card": short(card, "fr"),
                                       "name": full(card, "fr"), "red": is_red(card), "seq": row[SEQ],
                                       "time_ms": row[TIME]})

    def state(self):
        """The screen's state: JSON."""
        behind = games.GAMES[self.game][games.STOP_BEFORE]
        before_stop = 0 if self.stop_out else max(0, games.shoe_size(self.game) - behind - self.out)
        said = (ALARM if self.alarms else CLOSED if self.closed else
                OPEN if self.coup and self.coup["open"] else LOCKED)
        return {"sabot": self.sabot, "table": self.table, "seance": self.seance,
                "game": words.said(words.GAMES, self.game, words.FR) if self.game in words.GAMES else None,
                "hands": list(words.HANDS[self.game != games.CHEMIN_DE_FER]), "state": said,
                "alarms": [words.said(words.ALARMS, code, words.FR) for code in sorted(self.alarms)],
                "coup": self.coup, "road": self.road, "before_stop": before_stop, "stop_out": self.stop_out,
                "seq": self.seq, "last_ms": self.last_ms, "forced": self.forced}


def _result(row, game):
    hands = row[DISPOSITION] or (2 if game == games.CHEMIN_DE_FER else 3)
    won = unpack_winners(row[CODE], hands)
    names = words.HANDS[hands == 3]
    return {"totals": dict(zip(names, unpack_totals(row[CODE], hands))),
            "winners": [words.said(words.WINNERS, w, words.FR) for w in won],
            "bank": [words.said(words.BANK, w, words.FR) for w in won],
            "road": "".join(_ROAD.get(w, "?") for w in won),
            "said": words.result(row[CODE], hands, words.FR)}
