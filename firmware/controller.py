"""The shoe's states and a card's path through them, as pure logic: events in, device commands and journal records
out; the rules of the other inputs are firmware/rules.py's, the base class.

Every change of the shoe's lasting state is a journal record, applied through _apply() both live and when the board
replays the journal at power-up: the journal is the state, and nothing is known that it lacks. step() allocates
nothing, so a board may run it right after its sensor interrupt has closed the gate.
"""

from firmware import events as ev
from firmware import games
from firmware import records as rec
from firmware.cards import KINDS, STOP, UNKNOWN
from firmware.compat import const
from firmware.journal import pack_body
from firmware.layout import BODY_SIZE
from firmware.records import (
    ALARM_FORCED,
    BURNED,
    DEALT,
    DOUBLE_FEED,
    END_MAXIMUM,
    END_TABLEAU,
    F_FOREIGN_CARD,
    F_STOP_POSITION,
    FAULT_DOUBLE_FEED,
    FORCED,
    NORMAL,
    R_CARD,
    R_CLOSED,
    R_COUP_END,
    R_FINDING,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RELEASE,
    R_SEANCE,
    REL_BURN,
    REL_DEAL,
    REL_NONE,
    STOP_CARD,
    pack_hand,
)
from firmware.rules import Rules, stop_position
from firmware.tableau import NONE, Coup
from firmware.ticks import ticks_diff

# The names a card's path reads are imported, a global being cheaper than a module attribute; the others are read as
# ev. and rec.: on the MicroPython VM each imported name is one more global in the heap (H-SIM: a shoe in 65 KB).

# Phases. The gate is locked in all but DEALING, and in DEALING too while any alarm is raised.
IDLE = const(0)  # no shoe loaded
BETS = const(1)  # bets open, or a coup paused by a fault or a power cut
DEALING = const(2)  # coup open: card requests are honoured, one card per release
CLOSED = const(3)  # the stop card's coup is over: no other coup until a new shoe (S-STOP)
JAM_MS = const(3000)  # a release with no card by then is a jam (S-ONE)
_SETTLE_MS = const(60)  # a second card this soon after a release's card came with it: double feed (S-ONE)
_MAX_CMDS = const(8)
_MAX_RECS = const(8)
# The cable's burst answered busy (protocol.py's EV_BURST) journalled as record_names.py's R_BURST, by number.
_EV_BURST = const(19)
_R_BURST = const(23)

# What an input needs of the shoe before its own rule, checked in this order after its argument, each with the reason
# it is refused for (firmware/events.py's REF_*): first no release under way (REF_BUSY; a release request's own rule
# before it: the last card's settling time over), then the bits of its row of _NEEDS, by _admits().
_CALM = const(1)  # no alarm or fault standing: REF_ALARM
_SHOE = const(2)  # a shoe loaded (REF_NO_SHOE), not closed after its stop card's coup (S-STOP): REF_CLOSED
_DEALING = const(4)  # a coup open for cards (S-LOCK): REF_LOCKED
_NOT_DEALING = const(8)  # no coup open for cards: REF_IN_COUP
_BETWEEN = const(16)  # no coup under way, even one paused by a fault or a power cut: REF_IN_COUP
_IN_COUP = const(32)  # a coup under way: REF_NOT_IN_COUP
_SEANCE = const(64)  # a séance open (S-IDENT): REF_NO_SEANCE
_NO_SEANCE = const(128)  # no séance open (P-AUTHORITY): REF_SEANCE_OPEN

# Each event's needs by its number (firmware/events.py), a byte of the bits above in one bytes constant (the table
# built at import took 256 B more of a shoe's smallest heap: H-SIM). An event with 0 is never refused for the shoe's
# state (a card has left whatever the state; a fault, the firmware's check, the element and a tick are facts).
_NEEDS = (
    b"\x00"
    b"\x00"  # EV_POWER_UP
    b"\x10"  # EV_SEANCE: _BETWEEN
    b"\x51"  # EV_LOAD: _CALM | _BETWEEN | _SEANCE, then two tailles a séance where the game says so (G-DTO)
    b"\x0b"  # EV_NO_MORE_BETS: _CALM | _SHOE | _NOT_DEALING
    b"\x20"  # EV_COUP_END: _IN_COUP
    b"\x13"  # EV_BURN: _CALM | _SHOE | _BETWEEN (S-BURN: between coups only)
    b"\x07"  # EV_DRAW: _CALM | _SHOE | _DEALING
    b"\x00"  # EV_CARD
    b"\x00"  # EV_TICK
    b"\x00"  # EV_CLEAR
    b"\x00"  # EV_FAULT
    b"\x20"  # EV_STAND: _IN_COUP, then the tableau's choice this hand's to make
    b"\x00"  # EV_FIRMWARE
    b"\x50"  # EV_SEANCE_CLOSE: _BETWEEN | _SEANCE
    b"\x10"  # EV_CANDIDATE: _BETWEEN, then a séance of banque ouverte's rules (firmware/ouverte.py)
    b"\x10"  # EV_ADJUDICATE: _BETWEEN, likewise
    b"\x00"  # EV_ELEMENT
    b"\x81"  # EV_AUTHORITY: _CALM | _NO_SEANCE, a new number or casino key (the clock is set at any time)
    b"\x00"  # EV_BURST
)


class Controller(Rules):
    def __init__(self):
        self.cmds = bytearray(2 * _MAX_CMDS)
        self.n_cmds = 0
        self.recs = [bytearray(BODY_SIZE) for _ in range(_MAX_RECS)]
        self.n_recs = 0
        self.refused = 0
        self.counts = bytearray(KINDS)  # identities seen in this taille (S-COUNT)
        self.hands = Coup()  # the coup's hands, by the tableau
        self.now = 0
        self.phase = IDLE
        self.game = 0
        self.seance = 0
        self.table = 0
        self.taille = 0
        self.tailles_in_seance = 0
        self.coup = 0
        self.in_coup = False
        self.coup_cards = 0
        self.position = 0  # cards out of the current shoe, the stop card included
        self.stop_seen = False
        self._stop_at = stop_position(self.game)  # where the stop card comes out (S-STOPPOS), set with the game
        self.alarms = 0  # the alarms and faults raised, as bits: code n is 1 << n - 1; each clears by its own rule
        self._files_ok = False  # this boot's firmware check found the approved files (EV_FIRMWARE): not journalled
        self.releasing = REL_NONE
        self._release_at = 0  # ticks (firmware/ticks.py): now is time.ticks_ms(), wrapping every 2**30 ms
        self._card_at = -1  # ticks of a release's card while a second one would be a double feed, else -1
        self._shown = -1
        # Article 61 at banque ouverte. seconds: the wall clock (since 2020) the shell reads for a séance's events.
        self.seconds = 0
        self.break_min = rec.BREAK_MIN  # the casino's break between the day's two séances (config.json)
        self.ouverte = None  # firmware/ouverte.py's Day, from the shoe's first séance or record of banque ouverte
        self.asked = bytearray(12)  # EV_AUTHORITY's who, before and after (records.R_AUTHORITY), filled before it

    # The board's side: feed an event, then read cmds/n_cmds and recs/n_recs and carry them out in order.

    def step(self, event, arg, now):
        self.n_cmds = 0
        self.n_recs = 0
        self.refused = 0
        self.now = now
        if event == ev.EV_CARD:  # first: the card at the mouth is what must be fast
            self._on_card(arg)
        elif event == ev.EV_DRAW:
            self._on_release_request(REL_DEAL)
        elif event == ev.EV_TICK:
            self._on_tick()
        elif event == ev.EV_NO_MORE_BETS:
            self._on_no_more_bets()
        elif event == ev.EV_COUP_END:
            self._on_coup_end()
        elif event == ev.EV_BURN:
            self._on_release_request(REL_BURN)
        elif event == ev.EV_STAND:
            self._on_stand(arg)
        elif event == ev.EV_CLEAR:
            self._on_clear()
        elif event == ev.EV_LOAD:
            self._on_load(arg)
        elif event == ev.EV_SEANCE:
            self._on_seance(arg)
        elif event == ev.EV_SEANCE_CLOSE:
            self._on_seance_close()
        elif event == ev.EV_CANDIDATE or event == ev.EV_ADJUDICATE:
            self._on_bank(event, arg)
        elif event == ev.EV_POWER_UP:
            self._on_power_up(arg)
        elif event == ev.EV_FIRMWARE:
            self._on_firmware(arg)
        elif event == ev.EV_FAULT:
            self._on_fault(arg)
        elif event == ev.EV_ELEMENT:
            self._on_element(arg)
        elif event == ev.EV_AUTHORITY:
            self._on_authority(arg)
        elif event == _EV_BURST:
            self._emit(_R_BURST, 0, 0, 0, arg)  # a fact of the cable: no state changes
        day = self.ouverte
        if day is not None and day.restate:
            day.restate_in(self.seconds)
        self._show()

    def deadline(self, now):
        """Milliseconds from now (ticks) until the board must send EV_TICK (0: at once), or -1 when no timer is
        needed: a release's jam timer, or the end of its card's double-feed window."""
        if self.releasing:
            left = JAM_MS - ticks_diff(now, self._release_at)
        elif self._card_at >= 0:
            left = _SETTLE_MS - ticks_diff(now, self._card_at)
        else:
            return -1
        return left if left > 0 else 0

    def locked(self):
        return self.phase != DEALING or self.alarms != 0

    # A card's path: its release's request, the card, the timers.

    def _on_tick(self):
        if self.releasing and ticks_diff(self.now, self._release_at) >= JAM_MS:
            self._cmd(ev.CMD_GATE_CLOSE, 0)
            self._raise(rec.FAULT_JAM)
        elif self._card_at >= 0 and ticks_diff(self.now, self._card_at) >= _SETTLE_MS:
            self._card_at = -1  # closed by the timer: no wrap of the ticks can reopen it

    def _on_release_request(self, kind):
        if self._settling():  # its card's twin may be coming yet: a release now would call it a second release's
            return self._refuse(ev.REF_BUSY)
        if not self._admits(ev.EV_DRAW if kind == REL_DEAL else ev.EV_BURN):
            return
        self._emit(R_RELEASE, 0, 0, 0, kind)  # the intent is durable before the gate opens
        self._release_at = self.now
        self._cmd(ev.CMD_GATE_OPEN, 0)

    def _on_card(self, card):
        if card < 0 or card >= KINDS:
            card = UNKNOWN  # a code no card has (a reader's error): a card left all the same, its face not read
        # Whatever happens, the gate shuts first (S-ONE, S-FAILSAFE); the board's interrupt already did.
        self._cmd(ev.CMD_GATE_CLOSE, 0)
        kind = self.releasing
        if kind:
            self._card_at = self.now
            disposition = STOP_CARD if card == STOP else (BURNED if kind == REL_BURN else DEALT)
            hand = self.hands.next_hand() if disposition == DEALT and self.hands.known else NONE
            self._emit(R_CARD, card, disposition, NORMAL, pack_hand(hand))
        elif self._settling():
            # A second card out of one release (S-ONE): it cannot be played, so it is burned.
            self._emit(R_CARD, card, STOP_CARD if card == STOP else BURNED, DOUBLE_FEED, 0)
            self._raise(FAULT_DOUBLE_FEED)
        else:
            # Pulled past the locked gate: burned, never returned to the shoe (S-FORCED, Article 58).
            self._emit(R_CARD, card, STOP_CARD if card == STOP else BURNED, FORCED, 0)
            self._raise(ALARM_FORCED)
        if card != STOP and not self.stop_seen and self.position >= self._stop_at:
            # S-STOP: the virtual cut card. No stop card where it must have come out: the coup finishes, then
            # the shoe closes as after the stop card.
            self._emit(R_FINDING, 0, 0, 0, rec.F_NO_STOP)
            if not self.in_coup:
                self._emit(R_CLOSED, 0, 0, 0, 0)
        if card == STOP:
            if self.position != self._stop_at:
                self._emit(R_FINDING, STOP, 0, 0, F_STOP_POSITION)  # S-STOPPOS
            if not self.in_coup:
                self._emit(R_CLOSED, 0, 0, 0, 0)  # S-STOP: no other coup
        elif card != UNKNOWN and self.counts[card] > games.GAMES[self.game][games.DECKS]:
            self._emit(R_FINDING, card, 0, 0, F_FOREIGN_CARD)  # S-COUNT
        if not self.in_coup:
            return
        if self.hands.known and self.hands.next_hand() == NONE:
            self._end_coup(END_TABLEAU)  # T-CF, T-DT: no hand may draw: lock without waiting for coup end
        elif self.coup_cards >= games.GAMES[self.game][games.COUP_MAX]:
            self._end_coup(END_MAXIMUM)  # S-LOCK: the coup's maximum locks the shoe

    def _settling(self):
        return self._card_at >= 0 and ticks_diff(self.now, self._card_at) < _SETTLE_MS

    def _admits(self, event):
        """Whether the shoe meets what the event needs (a free gate, then its row of _NEEDS); if not, the input is
        refused for the first need unmet."""
        needs = _NEEDS[event]
        phase = self.phase
        why = 0
        if self.releasing:
            why = ev.REF_BUSY
        elif needs & _CALM and self.alarms:
            why = ev.REF_ALARM
        elif needs & _SHOE and (phase == IDLE or phase == CLOSED):
            why = ev.REF_NO_SHOE if phase == IDLE else ev.REF_CLOSED
        elif needs & _DEALING and phase != DEALING:
            why = ev.REF_LOCKED
        elif needs & _NOT_DEALING and phase == DEALING or needs & _BETWEEN and self.in_coup:
            why = ev.REF_IN_COUP
        elif needs & _IN_COUP and not self.in_coup:
            why = ev.REF_NOT_IN_COUP
        elif needs & _SEANCE and not self.table:
            why = ev.REF_NO_SEANCE
        elif needs & _NO_SEANCE and self.table:
            why = ev.REF_SEANCE_OPEN
        if why:
            self._refuse(why)
        return not why

    def _show(self):
        if self.alarms:
            shown = ev.IND_ALARM
        elif self.phase == DEALING:
            shown = ev.IND_DEALING
        elif self.phase == CLOSED:
            shown = ev.IND_CLOSED
        else:
            shown = ev.IND_LOCKED
        if shown != self._shown:
            self._shown = shown
            self._cmd(ev.CMD_INDICATOR, shown)

    def _cmd(self, command, arg):
        i = 2 * self.n_cmds
        self.cmds[i] = command
        self.cmds[i + 1] = arg
        self.n_cmds += 1

    # Records: the only way lasting state changes.

    def _emit(self, rtype, card, disposition, condition, code):
        seance = self.seance
        taille = self.taille
        coup = self.coup
        position = self.position
        if rtype == R_CARD:
            position += 1
        elif rtype == R_SEANCE:
            seance += 1
        elif rtype == R_LOAD:
            taille += 1
            coup = 0
            position = 0
        elif rtype == R_NO_MORE_BETS and not self.in_coup:
            coup += 1
        pack_body(self.recs[self.n_recs], rtype, seance, taille, coup, position, card, disposition, condition, code)
        self.n_recs += 1
        self._apply(rtype, seance, taille, coup, position, card, disposition, condition, code)

    def _apply(self, rtype, seance, taille, coup, position, card, disposition, condition, code):
        self.seance = seance
        self.taille = taille
        self.coup = coup
        self.position = position
        if rtype == R_CARD:
            self.releasing = REL_NONE
            if card < STOP:
                self.counts[card] += 1
            if card == STOP:
                self.stop_seen = True
            elif disposition == DEALT:
                self.coup_cards += 1
                if code:
                    self.hands.add(code - 1, card)
                elif card == UNKNOWN or condition:
                    self.hands.known = False
        elif rtype == R_NO_MORE_BETS:
            if not self.in_coup:
                self.coup_cards = 0
                self.hands.start(self.game != games.CHEMIN_DE_FER)
            self.in_coup = True
            self.phase = DEALING
        elif rtype == R_COUP_END:
            self.in_coup = False
            self.phase = BETS
        elif rtype == R_CLOSED:
            self.phase = CLOSED
        elif rtype == R_RELEASE:
            self.releasing = code
        elif rtype == rec.R_STAND:
            self.hands.stood[code] = 1
        elif rtype == rec.R_ALARM:
            self.releasing = REL_NONE  # whatever was under way, the gate is shut
            self.alarms |= 1 << code - 1  # a fault never replaces an alarm
            if code == rec.FAULT_ROLLBACK:
                # What the journal lost is unknown (a stop card's coup, a closed shoe): no other coup from this
                # shoe; a new one, loaded after the supervisor's clear, starts from known state.
                self.in_coup = False
                if self.phase != IDLE:
                    self.phase = CLOSED
            elif self.phase == DEALING:
                self.phase = BETS  # the coup pauses; "no more bets" resumes it after the clear
        elif rtype == rec.R_CLEAR:
            self.alarms &= ~(1 << code - 1)
        elif rtype == R_FINDING:
            if code == rec.F_NO_STOP:
                self.stop_seen = True  # the virtual cut card came out
        elif rtype == R_LOAD:
            self.game = code
            self._stop_at = stop_position(code)
            self.phase = BETS
            self.in_coup = False
            self.coup_cards = 0
            self.stop_seen = False
            self.tailles_in_seance += 1
            for i in range(KINDS):
                self.counts[i] = 0
        elif rtype == R_SEANCE:
            self.table = code
            self.tailles_in_seance = 0
            self.phase = IDLE  # a séance starts with a shoe of its own (new cards at deux tableaux)
            if self.ouverte is not None:
                self.ouverte.apply(rtype, self.seconds, card, disposition, condition, code)
        elif rtype == rec.R_SEANCE_CLOSE:
            self.table = 0
            self.phase = IDLE  # no load, no coup outside a séance
            if self.ouverte is not None:
                self.ouverte.apply(rtype, self.seconds, card, disposition, condition, code)
        elif rec.R_OUVERTE <= rtype <= rec.R_OUVERTE_DAY:
            self._day().apply(rtype, self.seconds, card, disposition, condition, code)
        elif rtype == rec.R_RECOVERY:
            self.releasing = REL_NONE
        elif rtype == rec.R_BOOT:
            if self.phase == DEALING:
                self.phase = BETS  # S-FAILSAFE: power-up never resumes dealing by itself
