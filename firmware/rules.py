"""The controller's rules for every input off a card's own path, in the base class firmware/controller.py's
Controller extends: the lasting state saved and replayed, the coup's "no more bets", stand and end, the séances and
shoes, the supervisor's clear and the board's facts (power-up, the firmware's check, a fault, the secure element, a
change of the casino's authority).

A card's path (its release's request, the card, the timers) and the records' effect on the state stay in
controller.py's own class, found first by the VM's method lookup; these are found one class further, a lookup a coup
or a séance rather than a card. self is the Controller: its state, _emit(), _cmd(), _admits() and _refuse().
"""

import struct

from firmware import events as ev
from firmware import games, layout
from firmware import records as rec
from firmware.compat import const
from firmware.tableau import NONE, OPTIONAL

# 0 to MicroPython's compiler, which drops the blocks it guards (no code on a board, no heap in the sim); true to mypy
# (typecheck/mypy.ini's always_true), which reads the Controller's names these rules use.
_TYPE_CHECKING = const(0)
if _TYPE_CHECKING:
    from firmware.ouverte import Day
    from firmware.tableau import Coup


class Rules:
    if _TYPE_CHECKING:  # the Controller's state and methods these rules use (firmware/controller.py), for mypy alone
        now: int
        phase: int
        game: int
        seance: int
        table: int
        taille: int
        tailles_in_seance: int
        coup: int
        in_coup: bool
        coup_cards: int
        position: int
        stop_seen: bool
        _stop_at: int
        alarms: int
        _files_ok: bool
        releasing: int
        refused: int
        counts: bytearray
        hands: Coup
        seconds: int
        break_min: int
        ouverte: Day | None
        asked: bytearray

        def _admits(self, event: int) -> bool:  # type: ignore[empty-body]
            ...

        def _cmd(self, command: int, arg: int) -> None: ...

        def _emit(self, rtype: int, card: int, disposition: int, condition: int, code: int) -> None: ...

        def _apply(self, rtype: int, seance: int, taille: int, coup: int, position: int, card: int, disposition: int,
                   condition: int, code: int) -> None: ...

    # The lasting state saved into a segment's header, and replayed from the journal at power-up.

    def restore(self, body):
        """Replay one journal record at power-up, before EV_POWER_UP."""
        fields = struct.unpack(layout.BODY, body)
        self.seconds = fields[1]
        self._apply(fields[0], fields[3], fields[4], fields[5], fields[6], fields[7], fields[8], fields[9],
                    fields[10])

    def snapshot(self, buf):
        """The lasting state into buf (layout.SNAPSHOT_SIZE bytes), for a segment header."""
        struct.pack_into(layout.SNAPSHOT, buf, 0, self.seance, self.table, self.taille, self.tailles_in_seance,
                         self.game, self.coup, self.in_coup, self.coup_cards, self.position, self.stop_seen,
                         self.alarms, self.phase, self.releasing)
        buf[layout.SNAPSHOT_FIXED:layout.SNAPSHOT_HANDS] = self.counts
        self.hands.save(buf, layout.SNAPSHOT_HANDS)
        if self.ouverte is not None:
            self.ouverte.restate = True  # a segment's header: the snapshot has no room for Article 61's day

    def load_snapshot(self, buf):
        (self.seance, self.table, self.taille, self.tailles_in_seance, self.game, self.coup, in_coup,
         self.coup_cards, self.position, stop_seen, self.alarms, self.phase, self.releasing) = struct.unpack_from(
            layout.SNAPSHOT, buf, 0)
        self.in_coup = bool(in_coup)
        self.stop_seen = bool(stop_seen)
        self.counts[:] = buf[layout.SNAPSHOT_FIXED:layout.SNAPSHOT_HANDS]
        self.hands.load(buf, layout.SNAPSHOT_HANDS, self.game != games.CHEMIN_DE_FER)
        self._stop_at = stop_position(self.game)

    # The coup: the croupier's "no more bets", the tableau's choice, its end.

    def _on_no_more_bets(self):
        if self._admits(ev.EV_NO_MORE_BETS):
            self._emit(rec.R_NO_MORE_BETS, 0, 0, 0, 0)

    def _on_stand(self, hand):
        hands = self.hands
        if not self._admits(ev.EV_STAND):
            return
        if (not hands.known or hand >= hands.hands or hands.next_hand() != hand or hands.counts[hand] != 2
                or hands.stood[hand] or hands.rule(hand) != OPTIONAL):
            return self._refuse(ev.REF_NOT_OPTIONAL)  # not this hand's turn, or the tableau leaves it no choice
        self._emit(rec.R_STAND, 0, 0, 0, hand)
        if hands.next_hand() == NONE:
            self._end_coup(rec.END_TABLEAU)

    def _on_coup_end(self):
        if self._admits(ev.EV_COUP_END):
            self._end_coup(rec.END_BUTTON)

    def _end_coup(self, how):
        if self.coup_cards < games.GAMES[self.game][games.COUP_MIN]:
            self._emit(rec.R_FINDING, 0, 0, 0, rec.F_SHORT_COUP)
        hands = self.hands
        if hands.known and hands.dealt():
            self._emit(rec.R_RESULT, rec.pack_counts(hands.counts), hands.hands, 0, hands.packed_result())
        self._emit(rec.R_COUP_END, 0, 0, 0, how)
        if self.stop_seen:
            self._emit(rec.R_CLOSED, 0, 0, 0, 0)  # S-STOP: the coup in progress was the last one

    # Séances and shoes (Article 58; Article 61 at banque ouverte).

    def _on_seance(self, arg):
        if not self._admits(ev.EV_SEANCE):
            return
        employee = rec.seance_employee(arg)
        game = rec.seance_game(arg)
        rank = 0
        if game == games.DEUX_TABLEAUX_OUVERTE:  # Article 61: two séances a day, separated by the dinner
            rank = self._day().opening(game, self.seconds, self.break_min)
            if rank < 0:
                return self._refuse(-rank)
        self._emit(rec.R_SEANCE, game, rec.employee_low(employee), rec.employee_high(employee),
                   rec.seance_table(arg))  # Article 58
        if rank:
            self._emit(rec.R_OUVERTE, 0, self.break_min, 0, rank)

    def _on_seance_close(self):
        if self._admits(ev.EV_SEANCE_CLOSE):  # S-IDENT: only the séance open closes, with its table
            self._emit(rec.R_SEANCE_CLOSE, 0, 0, 0, self.table)  # the table's 0 after it: no séance is open

    def _on_load(self, game):
        if game < 0 or game >= len(games.GAMES):
            return self._refuse(ev.REF_BAD_GAME)
        if not self._admits(ev.EV_LOAD):  # S-IDENT: every shoe is dealt within an open séance
            return
        limit = games.GAMES[game][games.TAILLES_PER_SEANCE]
        if limit and self.tailles_in_seance >= limit:
            return self._refuse(ev.REF_TAILLES)  # G-DTO: two tailles per séance (Article 61)
        self._emit(rec.R_LOAD, 0, 0, 0, game)

    def _on_bank(self, event, arg):
        """Article 61: "en cas de concurrence, la banque est adjugée par tirage au sort": the candidates, then the
        draw, whose arg is the board's hardware random value; the journal keeps both, so anyone can redo it."""
        if not self._admits(event):
            return
        why = ev.REF_NOT_OUVERTE if self.ouverte is None else self.ouverte.ask(event, arg)
        if why:
            self._refuse(why)

    def prepare(self, event, arg):
        """What step() will need allocated, made before it runs (step() allocates nothing): Article 61's day, at the
        opening of a séance of banque ouverte. The shell calls it outside the board's no-allocation guard."""
        if event == ev.EV_SEANCE and rec.seance_game(arg) == games.DEUX_TABLEAUX_OUVERTE:
            self._day()

    def _day(self):
        if self.ouverte is None:
            from firmware.ouverte import Day  # only a shoe that deals banque ouverte loads it

            self.ouverte = Day(self._emit)
        return self.ouverte

    # The supervisor's clear and the board's facts.

    def raised(self, code):
        return self.alarms >> code - 1 & 1

    def _on_clear(self):
        alarms = self.alarms
        if not alarms:
            return self._refuse(ev.REF_NO_ALARM)
        # Alarms no supervisor clears: the firmware's until a boot has found the approved files again (H-FIRMWARE),
        # the development key's never (a shoe needs its own key, and a journal of its own with it).
        kept = alarms & (1 << rec.FAULT_FIRMWARE - 1 | 1 << rec.FAULT_DEVKEY - 1)
        if self._files_ok:
            kept &= ~(1 << rec.FAULT_FIRMWARE - 1)  # the approved files are back: the supervisor may clear it now
        if kept == alarms:
            return self._refuse(ev.REF_FIRMWARE)  # H-FIRMWARE: no key switch makes unapproved firmware deal
        for code in range(1, rec.ALARM_MAX + 1):
            if (alarms & ~kept) >> code - 1 & 1:
                self._emit(rec.R_CLEAR, 0, 0, 0, code)

    def _on_power_up(self, arg):
        uncertain = self.releasing
        torn = arg & (1 << rec.CAUSE_SHIFT) - 1
        self._emit(rec.R_BOOT, 0, 0, 0, arg >> rec.CAUSE_SHIFT)
        if torn or uncertain:
            # J-DURABLE: say what was cut, and that a release's outcome is unknown, never hide it.
            self._emit(rec.R_RECOVERY, 0, 0, uncertain, rec.pack_torn(torn))
        if torn and not uncertain:
            # S-FORCED: the record torn while the gate was locked may have been a card forced past it; its alarm
            # stands until a supervisor has looked (a released card's loss is the uncertain release above).
            self._raise(rec.ALARM_FORCED)

    def _on_firmware(self, matches):
        self._files_ok = bool(matches)  # with the approved files back, the supervisor may clear the fault
        if not matches and not self.raised(rec.FAULT_FIRMWARE):
            self._cmd(ev.CMD_GATE_CLOSE, 0)
            self._raise(rec.FAULT_FIRMWARE)

    def _on_fault(self, code):
        if code < 1 or code > rec.ALARM_MAX:
            return self._refuse(ev.REF_BAD_FAULT)
        self._cmd(ev.CMD_GATE_CLOSE, 0)
        if self.releasing:
            # J-DURABLE: the events lost may have held the release's card: its outcome is unknown, never hidden.
            self._emit(rec.R_RECOVERY, 0, 0, self.releasing, 0)
        self._raise(code)

    def _on_element(self, arg):
        """Counter values of the secure element spent with no checkpoint, said (J-TAMPER): found at power-up, or the
        element failing to sign one, which locks the shoe in its fault (it can no longer vouch for its journal)."""
        why = arg >> 24
        self._emit(rec.R_ELEMENT, arg >> 21 & 7, arg >> 16 & 31, why, arg & 0xFFFF)
        if why == rec.EL_FAULT and not self.raised(rec.FAULT_ELEMENT):
            self._cmd(ev.CMD_GATE_CLOSE, 0)
            self._raise(rec.FAULT_ELEMENT)

    def _on_authority(self, what):
        """A change of the casino's authority (P-AUTHORITY), journalled before it takes effect: who asked, before,
        after. A new number or casino key waits for no alarm and no séance open (a forced card's alarm is not
        cleared by renumbering the shoe); the clock is set at any time."""
        if what < rec.AU_NUMBER or what > rec.AU_CLOCK_FORCED:
            return self._refuse(ev.REF_BAD_FAULT)
        if what <= rec.AU_KEY and not self._admits(ev.EV_AUTHORITY):
            return
        asked = self.asked
        for part in range(3):
            at = 4 * part
            self._emit(rec.R_AUTHORITY, asked[at + 2], asked[at + 3], what | part << 4, asked[at] | asked[at + 1] << 8)

    def _refuse(self, why):
        self.refused = why
        self._cmd(ev.CMD_BUZZER, ev.BUZZ_REFUSED)

    def _raise(self, code):
        self._emit(rec.R_ALARM, 0, 0, 0, code)
        self._cmd(ev.CMD_BUZZER, ev.BUZZ_ALARM)


def stop_position(game):
    """Where the game's stop card comes out: the shoe's items less the cards that stay behind it (S-STOPPOS)."""
    return games.shoe_size(game) - games.GAMES[game][games.STOP_BEFORE]
