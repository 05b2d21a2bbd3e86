"""The shoe as the records so far show it, which each record family's module (cards, coups, alarms, seances)
reads and moves, their functions taking it as `s`; and a segment header's snapshot of it (J-DURABLE)."""

from firmware.records import ALARM_FORCED, R_LOAD, R_NO_MORE_BETS, R_SEANCE
from sabot.journalfile import Finding
from sabot.rules.games import COUP_MAX, COUP_MIN, DECKS, HAND_NAMES, HANDS, STOP_BEFORE, TABLEAU_IDS
from sabot.rules.layout import _SNAPSHOT_COUNTS, _SNAPSHOT_FIELDS, _SNAPSHOT_HANDS
from sabot.tableau_oracle import Hands


class State:
    """What the rules hold between two records; findings collects what breaks a rule."""

    def __init__(self):
        self.findings = []
        self.seances = []  # (time in ms, table, seq) of each séance opened: for the checks across journals
        self.elements = []  # (seq, counter, count, why) of each R_ELEMENT: for the checkpoints' check (alarms.py)
        self.authorities = []  # (seq, time, what, who, before, after) of each authority change (authority.py)
        self.asked = []  # the authority change being read: its first record's seq and time, what, then its values
        self.types = (1 << 64) - 1  # every record type (Reader.picked's mask)
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
        # Banque ouverte (sabot.rules.ouverte): the casino day of its last séance, that séance's rank in it, whether
        # it is open, when it closed (ms, -1: not yet), the break journalled with it (min), the candidates for the bank.
        self.o_day = self.o_rank = self.o_break = 0
        self.o_open = False
        self.o_closed = -1
        self.candidates = []

    def _game(self, game):
        """The game's numbers, held apart: they are read at every card."""
        self.game = game
        self.decks = DECKS[game]
        self.stop_before = STOP_BEFORE[game]
        self.coup_min = COUP_MIN[game]
        self.coup_max = COUP_MAX[game]

    def resume(self, snapshot):
        """Start from a segment header's controller snapshot (docs/journal-format.md), for a journal read from
        a segment after the first."""
        (self.seance, self.table, self.taille, self.tailles_in_seance, game, self.coup, in_coup, self.coup_dealt,
         self.position, stop_seen, alarm, phase, self.release) = [int.from_bytes(snapshot[a:b], "little")
                                                                   for a, b in _SNAPSHOT_FIELDS]
        self._game(game if game < len(DECKS) else 0)
        self.in_coup = bool(in_coup)
        self.stop_seen = bool(stop_seen)
        self.alarms = alarm << 1
        self.loaded = phase != 0
        self.closed = phase == 3
        self.dealing = phase == 2
        self.seance_open = self.seance > 0
        self.counts[:] = snapshot[_SNAPSHOT_COUNTS:_SNAPSHOT_HANDS]
        hands = self.hands
        hands.start(HANDS[self.game])
        at = _SNAPSHOT_HANDS
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
        theirs = tuple(snapshot[a] | (snapshot[a + 1] << 8 if b - a == 2 else 0) for a, b in _SNAPSHOT_FIELDS[:10])
        phase = 3 if self.closed else (2 if self.dealing else (1 if self.loaded else 0))
        alarm, their_phase, release = snapshot[15] | snapshot[16] << 8, snapshot[17], snapshot[18]
        hands = self.hands
        at = _SNAPSHOT_HANDS
        if (mine != theirs or their_phase != phase or release != self.release or alarm != self.alarms >> 1
                or snapshot[_SNAPSHOT_COUNTS:at] != self.counts
                or snapshot[at:at + 12] != hands.cards + hands.total + hands.third + hands.stood
                or snapshot[at + 12] != hands.followed):
            self._find("J-DURABLE", seq, "segment %d's header holds a shoe state the records before it do not give "
                       "(séance, table, taille, tailles, game, coup, in a coup, cards, position, stop card: %s, phase "
                       "%d, alarms %#x, release %d; the journal gives %s, phase %d, alarms %#x, release %d; or the "
                       "card counts, or the coup's hands)" % (
                           number, theirs, their_phase, alarm, release, tuple(int(v) for v in mine), phase,
                           self.alarms >> 1, self.release))

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
        got_seance, got_taille, got_coup, got_position = f.seance, f.taille, f.coup, f.position
        if got_seance != seance or got_taille != taille or got_coup != coup or got_position != position:
            self._find("J-EVERY", f.seq, "record in séance %d, taille %d, coup %d, position %d where the journal "
                       "stands at %d, %d, %d, %d" % (got_seance, got_taille, got_coup, got_position, seance, taille,
                                                     coup, position))
        self.seance, self.taille, self.coup, self.position = got_seance, got_taille, got_coup, got_position

    def _find(self, rid, seq, message):
        self.findings.append(Finding(rid, seq, message))

    def _pop(self, rtype):
        """Whether the record was expected (and is taken off the list)."""
        expect = self.expect
        if expect and expect[0][0] == rtype:
            del expect[0]
            return True
        return False

    def _alarm_id(self):
        """What an uncleared alarm breaks: the forced card's rule, or the fail-safe's for a fault."""
        return "S-FORCED" if self.alarms >> ALARM_FORCED & 1 else "S-FAILSAFE"

    def _tableau_id(self):
        return TABLEAU_IDS[HANDS[self.game]]

    def _hand_name(self, hand):
        names = HAND_NAMES[HANDS[self.game]]
        return names[hand] if 0 <= hand < len(names) else "hand %d" % hand
