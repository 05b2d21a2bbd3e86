"""The checkpoints' hook in the shell of a board with a secure element (firmware/checkpoints.py's Checkpoints.attach
registers it as Shell.hook): its power-up checks the journal's end against the last signed checkpoint and the
element's counter, and writes one; its steps write one between coups, and a coup's opening is signed before its gate
unlocks (J-TAMPER, issue 37). Apart from the checkpoints' entries, which the host's readers load (sabot/checkpoints.py)
without a shell or a controller."""

from firmware import layout
from firmware.compat import const
from firmware.events import EV_AUTHORITY, EV_ELEMENT, EV_NO_MORE_BETS
from firmware.format.checkpoint import OPENING
from firmware.records import R_BOOT, R_ELEMENT, R_NO_MORE_BETS
from firmware.ticks import ticks_diff

# The housekeeping's pieces (a drain's, an erase: 45 ms each, 120 at worst with a littlefs compaction) begin this
# long after the last step: a croupier's quick presses (a burn right after the shoe's load, a coup's draws) never
# land on one; a press after a quiet spell waits for one piece at most.
TIDY_QUIET_MS = const(200)


class CheckpointHook:
    """What the checkpoints add to a shell, each method named after the shell's (firmware/shell.py) that calls it:
    the power-up's recovery watched and judged, then its checkpoint (recover, rolled_back, boot); a step's checkpoint,
    a coup's opening signed before its gate unlocks (carry_out); one under way finished before the next step
    (handle); the housekeeping taken over (tidy); and the loop's job (work: the checkpoint under way polled, then the
    flash's housekeeping a piece a pass)."""

    def __init__(self, points, shell):
        self.points = points  # the shoe's Checkpoints
        self.shell = shell
        self.booting = False  # no checkpoint after each step: the power-up's, or the element's own records
        self._watch = None
        self._cut = 0
        self._recovered = 0  # the journal's seq once recovered, before the power-up's records
        self._in_coup = False  # the controller's before the step being handled (handle)
        self._alarms = 0
        self._held = None  # a coup's opening being signed: (its commands' count, the alarms before it)
        self._tidy_due = False  # the housekeeping after a checkpoint under way
        self._at = 0  # ticks of the last poll of a checkpoint under way
        self._stepped = 0  # ticks of the last step: the housekeeping waits for a quiet loop

    def recover(self):
        """The power-up's recovery (Shell.recover), watched: the last checkpoint's place read first, the last segment
        replayed into a Tail that notes what came after it. The bytes of a torn tail cut. From here to boot(), the
        power-up's steps write no checkpoint each."""
        self.booting = True
        self._cut = 0
        shell = self.shell
        journal = shell.journal
        watch = self._watch = self.points.watch()
        tail = self.points.tail = Tail(shell.ctl, journal, watch[1] if watch else -1)
        self._cut = journal.recover(tail, watch)
        self._recovered = journal.seq
        return self._cut

    def rolled_back(self):
        """Whether the journal was cut or put back while the shoe was off, by the element's counter (Shell.boot)."""
        return self.points.rolled_back(self.shell.journal, self._watch)

    def boot(self):
        """After the power-up's records (Shell.boot): its one checkpoint, unless quiet."""
        self.booting = False
        self.points.booted(self, self._cut, self._quiet())

    def _quiet(self):
        """Whether the last checkpoint still vouches for all but boot records (issue 38): since it, the journal holds
        power-ups alone, each seen by the recovery in the same segment, and this one wrote its boot record and
        nothing more. A restart then spends no count of the element; a cut, a card, an alarm, a new segment do."""
        watch = self._watch
        tail = self.points.tail
        journal = self.shell.journal
        if watch is None or tail is None or tail.other or journal.segment != watch[0]:
            return False
        seen = self._recovered == watch[1] or 0 <= tail.start <= watch[1]
        return seen and journal.seq == self._recovered + 1

    def handle(self, now):
        """Before a step (Shell.handle's, the gate locked if it raises: from the loop, the protocol, or a
        technician's), a checkpoint under way finished first: no record comes between a step and its entry. The
        controller as the step finds it."""
        self._stepped = now
        if self.points.job is not None:
            self.points.finish()
            self._opened(now)
        ctl = self.shell.ctl
        self._in_coup = ctl.in_coup
        self._alarms = ctl.alarms

    def carry_out(self, event, arg, now):
        """The step's records and commands as the shell carries them out (Shell.carry_out), then the checkpoint it
        calls for (after the controller as handle() found it). A step that opens a coup ("no more bets") has
        its opening counted up and signed by the element once its records are durable and before its commands unlock
        the gate (issue 37): a coup is under a signature from its first card on. The element failing leaves the gate
        locked, in its fault. Between coups alone: no element traffic on a card's path. Under a loop, signed over its
        passes (work)."""
        shell = self.shell
        ctl = shell.ctl
        in_coup = self._in_coup  # read first: a step the element's fault nests below changes them
        alarms = self._alarms
        if self.booting:
            shell.carry_out(event, arg, now)
            return
        if event == EV_NO_MORE_BETS and not in_coup and ctl.in_coup:
            self._open(event, arg, now)
            return
        shell.carry_out(event, arg, now)
        if not ctl.n_recs or not in_coup and ctl.in_coup:
            return
        points = self.points
        reason = points.due(ctl, event, in_coup, alarms)
        if not reason:
            return
        # An authority change is signed before it takes effect (firmware/remote.py): waited for.
        if event != EV_AUTHORITY and points.polled and points.start(shell.journal, reason):
            self._at = now
        else:
            points.write(shell.journal, reason)

    def _open(self, event, arg, now):
        """A coup's opening: its records made durable, its commands held back until the element signed it."""
        shell = self.shell
        ctl = shell.ctl
        held = ctl.n_cmds
        alarms = ctl.alarms
        ctl.n_cmds = 0  # the gate's opening held back until the opening is signed
        shell.carry_out(event, arg, now)
        if shell.journal.broken or ctl.alarms != alarms:
            return  # its records not written: the fault's own step ran instead
        self._held = (held, alarms)
        points = self.points
        if points.polled and points.start(shell.journal, OPENING):
            self._at = now
            return
        points.write(shell.journal, OPENING)
        self._opened(now)

    def _opened(self, now):
        """A coup's opening signed: its commands carried out (the gate unlocked), unless the element's fault was
        raised meanwhile (its gate stays locked)."""
        held = self._held
        self._held = None
        ctl = self.shell.ctl
        if held is not None and ctl.alarms == held[1]:
            ctl.n_cmds = held[0]
            self.shell.command(now)

    def tidy(self):
        """Whether the flash's housekeeping between coups is taken over (Shell._tidy): under a loop, after the
        checkpoint under way, a flash operation a pass (work: a drain of one littlefs block, an erase ahead; a drain
        of two and an erase in one made a pass of 340 ms on the emulated Pico)."""
        if self.points.polled:
            self._tidy_due = True
            return True
        return False

    def _tidy_piece(self):
        """A flash operation of the housekeeping (a drain's few entries, an erase ahead): whether there was one."""
        try:
            return self.shell.journal.tidy(True)
        except OSError:
            return False  # a drain the archive refuses leaves the records in the ring (Shell._tidy)

    def work(self, now, spare):
        """The loop's poll (Shell.job, firmware/runtime.py's Runtime.step): True while a checkpoint is under way (its
        element's run polled, or its file's append), the events then waiting in the queue; in a pass spared (no event
        queued), the flash's housekeeping after it a piece a pass between coups, True when there was one: a
        croupier's button waits for one piece at most, never a whole drain."""
        points = self.points
        points.polled = True
        if points.job is not None:
            ms = ticks_diff(now, self._at)
            self._at = now
            if not points.poll(ms if ms > 0 else 1):
                self._opened(now)
            return True
        if spare and self._tidy_due and ticks_diff(now, self._stepped) >= TIDY_QUIET_MS:
            ctl = self.shell.ctl
            if not ctl.in_coup and ctl.deadline(now) < 0 and self._tidy_piece():
                return True
            self._tidy_due = False  # done, or a coup began: a drain under way goes on after its end
        return False

    def said(self, counter, count, why):
        """Counter values spent with no entry journalled (EV_ELEMENT: the last one, how many, why, records.EL_*), no
        checkpoint after its step: the element just failed one, or the power-up's follows."""
        booting = self.booting
        self.booting = True
        shell = self.shell
        try:
            shell.handle(EV_ELEMENT, counter | (count if count < 7 else 7) << 21 | why << 24, shell.ctl.now)
        finally:
            self.booting = booting


class Tail:
    """The controller as the power-up's recovery replays the last segment into it: also the last record's type, and
    the highest counter value the element's records after the last checkpoint (seq after) say was spent."""

    def __init__(self, ctl, journal, after):
        self.ctl = ctl
        self.journal = journal
        self.after = after
        self.type = 0
        self.spent = 0  # the highest value said spent
        self.start = -1  # the seq before the first record replayed
        self.other = False  # a record after the last checkpoint other than a power-up's boot record
        self.opened = False  # a coup opened after the last checkpoint: its opening's entry, held, lost in a cut
        self._in_coup = False  # the segment's header began it in a coup

    def load_snapshot(self, buf):
        self.ctl.load_snapshot(buf)
        self._in_coup = self.ctl.in_coup

    def snapshot(self, buf):
        self.ctl.snapshot(buf)

    def restore(self, body):
        self.ctl.restore(body)
        rtype = self.type = body[0]
        seq = self.journal.seq
        if self.start < 0:
            self.start = seq - 1
            if self._in_coup and self.start >= self.after:
                self.opened = True  # the coup under way when the segment began, opened after the last checkpoint
        if seq > self.after and rtype != R_BOOT:
            self.other = True
            if rtype == R_NO_MORE_BETS:
                self.opened = True
        if rtype == R_ELEMENT and self.journal.seq > self.after:
            spent = body[layout.BODY_CODE] | body[layout.BODY_CODE + 1] << 8 | body[layout.BODY_CARD + 1] << 16
            if spent > self.spent:
                self.spent = spent
