"""Signed checkpoints and the secure element's counter: how the shoe knows at power-up that its journal was not cut or
put back while it was off (J-TAMPER, docs/journal-format.md "Checkpoints", docs/keys.md).

Between coups (a coup's end, a séance, an alarm raised), at each power-up and before a pull, the shoe counts the
element's monotonic counter 0 up by one and appends to journal/checkpoints.sbc an entry naming that counter and the
journal's end (segment, sequence number, chain value), signed by the element's private key, which never leaves it.
At power-up the last entry's counter must be the element's, and the journal recovered must reach the entry's end:
otherwise the shell raises FAULT_ROLLBACK, unless the counter is a few values ahead of an intact last entry that the
journal reaches with records after it, ending on a step that writes a checkpoint or holding a coup's opening (whose
entry, signed before the gate unlocks, is written with the coup's end): a power cut during that checkpoint or that
coup, which the boot journals (R_ELEMENT) before its own. A signature that fails after the driver's retries is
signed again with the same counter value; one that still fails journals the value spent (R_ELEMENT) and locks the
shoe in FAULT_ELEMENT. Nothing here imports machine: the board passes its element's driver in (boards/mcu/atecc.py,
or the virtual board's link to its model); the sim board has none and writes no checkpoint.
"""

import os
import struct
from binascii import crc32
from hashlib import sha256

from firmware import layout
from firmware.compat import const
from firmware.events import EV_AUTHORITY, EV_SEANCE, EV_SEANCE_CLOSE
from firmware.format import checkpoint as fmt
from firmware.power_up import judged
from firmware.records import EL_CUT, EL_FAULT, FAULT_DEVKEY

ATTEST_SLOT = const(1)  # the element's key that signs only what the chip built (boards/mcu/atecc.py)
_COUNTER = const(0)  # the element's counter 0 counts the checkpoints; counter 1 is left free
_SPENT = const(2097151)  # the counter's last value (boards/mcu/atecc.py's COUNTER_MAX): no checkpoint after it
SIGN_TRIES = const(2)  # one entry signed twice at most, the same counter value, after the driver's 3 resubmissions:
# 6 Signs at most, 4.4 s at the slowest clock (M2: 665 ms each, with its Nonce and GenDig), within the 5 s watchdog


def journal_key(element):
    """(chip, public key): how element vouches for a journal and with which key (X || Y). chip: the configuration
    bytes its own messages carry when its ATTEST_SLOT key signs internal messages alone (ATECC.attestation), that
    key's then; None for a part without one, slot 0's key then, which signs digests. OSError: no element."""
    chip = element.attestation()
    return chip, element.public_key(0 if chip is None else ATTEST_SLOT)


class ElementKey:
    """What vouches for a board's journal: its secure element, named in each segment header by its public key's id.
    It holds no secret: the private key never leaves the element. public None: no element answers, its id unknown
    (the journal recovered keeps its own, firmware/journal.py)."""

    def __init__(self, public):
        self.id = None if public is None else sha256(fmt.ELEMENT_ID + public).digest()[:8]

    def tag(self, message, size=32):
        """No HMAC: a board's receipts are the element's (firmware/receipt.py), and with none answering, none."""
        raise OSError(19)


class Checkpoints:
    def __init__(self, folder, element, sabot):
        """folder: the journal's; element: the secure element's driver (counter, increment, sign), None when the
        board has none answering (every power-up is then a rollback: the shoe cannot tell)."""
        self.folder = folder
        self.path = folder + "/" + fmt.FILE
        self.element = element
        self.sabot = sabot
        self._last = None  # the last entry read at power-up, or None
        self._hook = None  # the shell's hook (firmware/checkpoint_hook.py) that journals what the element spent
        self._counted = None  # the counter value the entries reach (the last one's, or explained), None: unknown
        self._found = 0  # at power-up: the element's counter, a few values ahead of the last entry (a cut)
        self._spent = None  # the value the increment of the entry being written returned
        self._previous = bytes(32)  # SHA-256 of the last entry, whole: the next one holds it (zeros: none)
        self._opened = None  # the counter value of a coup's opening, the last entry written: its end counts nothing
        self._pending = None  # a coup's opening, counted up and signed before its gate unlocked: written with the next
        self.job = None  # a checkpoint under way, a pass at a time (start(), poll()): _appending()'s generator
        self._run = None  # the element's run it waits for, None: a pass, the chip free
        self.polled = False  # a loop polls its jobs (the hook's work, firmware/runtime.py): steps begin them
        self.tail = None  # the power-up's replay (checkpoint_hook.Tail), set by the hook's recover()
        self.keyless = False  # key() found no element answering
        self.chip = None  # key(): the configuration bytes the element's own messages carry, None: it signs externally
        self.version, self.size = fmt.EXTERNAL, fmt.EXTERNAL_SIZE  # the entries this element writes: key() says which

    def key(self):
        """The journal's key (firmware/journal.py's Journal): the element's; with no element answering, one of no id,
        the board then locked in the fault that says so (FAULT_DEVKEY, "no secure element answers": attach() gives
        the shell its boot_fault, on every board) as well as rolled back (rolled_back)."""
        try:
            if self.element is None:
                raise OSError(19)
            key = ElementKey(self.public_key())
        except OSError as e:
            print("checkpoints: the shoe has no key of its own:", e)
            key = ElementKey(None)
        self.keyless = key.id is None
        return key

    def public_key(self):
        """The public key that vouches for the journal (X || Y), what the casino enrols: the element's internal-sign
        key's (ATTEST_SLOT) when it has one, its entries then of fmt.VERSION, each signature the chip's own over its
        counter; slot 0's otherwise (a part without one), its entries of version fmt.EXTERNAL. OSError: no element."""
        self.chip, public = journal_key(self.element)
        if self.chip is not None and self._first() == fmt.EXTERNAL:  # a journal begun by a firmware that signed so
            self.chip, public = None, self.element.public_key(0)  # goes on so; its next journal is the chip's own
        self.version, self.size = (fmt.EXTERNAL, fmt.EXTERNAL_SIZE) if self.chip is None else (fmt.VERSION, fmt.SIZE)
        return public

    def _first(self):
        """The version byte of the file's first entry, None without one."""
        try:
            with open(self.path, "rb") as f:
                first = f.read(1)
        except OSError:
            return None
        return first[0] if first else None

    def attach(self, shell):
        """These checkpoints registered in the board's shell (firmware/shell.py): its hook (their part in its
        power-up and steps) and the loop's job; locked at every boot when key() found no element answering."""
        from firmware.checkpoint_hook import CheckpointHook  # here: the readers load these entries, not a shell

        hook = self._hook = shell.hook = CheckpointHook(self, shell)
        shell.checkpoints = self
        shell.job = hook.work
        if self.keyless:
            shell.boot_fault = FAULT_DEVKEY  # a casino shoe's journal is vouched for by its own element (docs/keys.md)
        return shell

    def last(self):
        """The last whole entry of the file (a torn one after it is not counted), b"" when there is none."""
        try:
            size = self.size
            whole = os.stat(self.path)[6] // size
            if not whole:
                return b""
            with open(self.path, "rb") as f:
                f.seek((whole - 1) * size)  # the last entry alone: the file grows by one a coup
                return f.read(size)
        except OSError:
            return b""

    def watch(self):
        """Read before the journal's recovery: [segment, seq, None, None] of the last entry, whose last items the
        recovery fills: the chain value it finds there, the last segment (Journal.recover); None without an entry."""
        entry = self._last = self.last()
        self._previous = sha256(entry).digest() if entry else bytes(32)
        self._pending = self._opened = self.job = None  # a power-up's: what a coup's opening held went with the power
        if len(entry) != self.size:
            return None
        fields = struct.unpack_from(fmt.ENTRY, entry, 0)
        return [fields[4], fields[5], None, None]

    def rolled_back(self, journal, watch):
        """After recovery: whether the journal was cut, deleted or put back since the last checkpoint, the element's
        counter read and judged against the last entry (firmware/power_up.py's judged())."""
        self._counted = None
        self._found = 0
        try:
            if self.element is None:
                raise OSError(19)
            counter = self.element.counter(_COUNTER)
        except OSError:
            print("checkpoints: no secure element answers: the journal's end cannot be checked")
            return True
        self._counted = counter  # a rollback's gap is the verifier's finding; what is spent after it is counted
        if counter >= _SPENT:
            print("checkpoints: the secure element's counter is spent: replace the element and enrol it again")
            return True  # no checkpoint can follow, so no later boot could tell a cut journal: locked at each one
        back, self._counted, self._found = judged(self._last, self.version, counter, journal, watch, self.tail)
        return back

    def booted(self, hook, cut, quiet=False):
        """After the power-up's records: the counter values a cut spent, said, then its checkpoint, a recovery's
        when it cut a torn tail; none when quiet (CheckpointHook._quiet: since the last checkpoint only boot records,
        so a shoe restarted again and again spends no count) and nothing was cut."""
        found = self._found
        if quiet and not found and not cut:
            return
        if found:
            self._found = 0
            hook.said(found, found - (self._counted or 0), EL_CUT)
            self._counted = found
        self.write(hook.shell.journal, fmt.RECOVERY if cut else fmt.BOOT)

    def due(self, ctl, event, in_coup, alarms):
        """After a step that wrote records (in_coup and alarms: the controller's before it): the reason of the
        checkpoint it calls for, 0 for none: one when it raised an alarm or a fault (the dealing stops), opened or
        closed a séance, ended a coup or changed the casino's authority; never in a coup that deals on, so never on a
        card's path (a signature takes up to 115 ms on the element). A coup's opening is the shell's own
        (fmt.OPENING: counted up and signed once its records are durable, before its gate unlocks, issue 37; its entry
        written with the next one, the coup's end, so that no erase of the file lies between "no more bets" and the
        gate: a power cut before then finds the counter one ahead and the coup's opening after the last entry, a cut
        that rolled_back() recognises and the power-up journals)."""
        if ctl.alarms & ~alarms:
            return fmt.ALARM
        if event == EV_SEANCE or event == EV_SEANCE_CLOSE:
            return fmt.SEANCE
        if in_coup and not ctl.in_coup:
            return fmt.COUP_END
        if event == EV_AUTHORITY:
            return fmt.AUTHORITY
        return 0

    def settle(self):
        """A checkpoint under way finished, and a coup's opening still held written alone: before the file is read
        or moved (firmware/remote.py)."""
        self.finish()
        if self._pending is not None:
            self._write(b"")

    def write(self, journal, reason):
        """A new checkpoint at the journal's end, once its records are durable, waited for (one under way finished
        first): the counter counted up first, then the entry appended and closed (durable on littlefs). Not written
        when the journal cannot be. A failure of the element (after its retries and append's) or of the file
        journals the counter values it spent with no entry and locks the shoe in FAULT_ELEMENT (failed()); with no
        element answering since the power-up, whose check was then a rollback fault, nothing more is said."""
        self.finish()
        if journal.broken:
            return
        try:
            self.append(reason, journal.segment, journal.seq, journal.chain)
        except OSError as e:
            self._lost(e)

    def _lost(self, e):
        print("checkpoints: not written:", e)
        self.failed()

    def failed(self):
        """An entry not written: the values spent since the last one (the increment's; none when the increment
        failed), journalled by the shell with the element's fault."""
        counted = self._counted
        hook = self._hook
        if counted is None or hook is None:
            return
        spent = self._spent  # None: the increment failed, which the driver's read-back says counted nothing
        if spent is None or spent < counted:
            spent = counted
        hook.said(spent, spent - counted, EL_FAULT)
        self._counted = spent

    def begin(self, sabot):
        """The first checkpoint of a journal begun empty (the old one kept aside, firmware/remote.py): segment 0,
        seq 0, the chain of nothing, so that the next power-up finds its journal legitimately new."""
        self.finish()
        self.sabot = sabot
        self._previous = bytes(32)  # the new journal's first entry follows none
        self._pending = self._opened = None  # the old journal's opening went with its file (settle())
        try:
            os.mkdir(self.folder)
        except OSError:
            pass  # there already
        self.public_key()  # the new journal's way: the chip's own signatures when it can, whatever the old one's
        self.append(fmt.BEGUN, 0, 0, bytes(layout.CHAIN_SIZE))

    def append(self, reason, segment, seq, chain):
        """The entry: the counter counted up once, then signed, again with the same value when the element fails
        (the driver has retried its own way first: a fault the datasheet says succeeds when resubmitted); waited for,
        the driver sleeping between its polls as cryptoauthlib does."""
        if self.element is None:
            raise OSError(19)
        self._drive(self._appending(reason, segment, seq, chain), None)

    def start(self, journal, reason):
        """write() begun, polled a pass at a time by the loop (poll()) so that no pass waits on the element's 160 ms of
        signing (issue 38); the shell holds the events meanwhile (firmware/checkpoint_hook.py): no record comes
        between a step and its entry. False when nothing was begun (the journal cannot be written)."""
        if journal.broken:
            return False
        if self.element is None:
            self.failed()
            return False
        self.job = self._appending(reason, journal.segment, journal.seq, journal.chain)
        self._run = None
        return True

    def poll(self, ms):
        """The job's next step, once a pass (ms since the last): True while it is under way. The element's run polled
        once; done, the next begun, or the entry written in a pass of its own. A failure is write()'s."""
        run = self._run
        if run is None:
            if self.element.busy():
                return True  # a receipt's signature under way: the chip is one, its owner polls it
        elif not run.done:
            try:
                run.poll(ms)
            except OSError:
                pass  # done: the job hears it
            if not run.done:
                return True
        job = self.job
        if job is None:
            return False
        try:
            self._run = next(job)
            return True
        except StopIteration:
            self.job = None
        except OSError as e:
            self.job = None
            self._lost(e)
        return False

    def finish(self):
        """A job under way driven to its end now (the driver sleeping between polls): before another step, or the
        file read, moved or written otherwise."""
        job = self.job
        if job is None:
            return
        self.job = None
        try:
            self._drive(job, self._run)
        except OSError as e:
            self._lost(e)

    def _drive(self, job, run):
        element = self.element
        while True:
            if run is not None:
                try:
                    element.finish(run)
                except OSError:
                    pass  # done: the job hears it
            try:
                run = next(job)
            except StopIteration:
                return

    def _appending(self, reason, segment, seq, chain):
        """append() as a generator: it yields each run of the element it waits for (None: a pass, the chip free), and
        reads its answer once the run is done."""
        element = self.element
        self._spent = None
        opened = self._opened
        self._opened = None
        if reason == fmt.COUP_END and opened is not None:
            counter = opened  # the coup's end, signed with its opening's value: nothing counted
        else:
            run = element.incrementing(_COUNTER, self._counted)  # no read before: the value known
            yield run
            counter = self._spent = run.poll(0)
        chip = self.chip
        entry = bytearray(self.size)
        struct.pack_into(fmt.ENTRY, entry, 0, self.version, reason, self.sabot, counter,
                         segment, seq, chain, self._previous)
        digest = sha256(fmt.LABEL)
        digest.update(memoryview(entry)[:fmt.SIGNED])
        digest = digest.digest()
        tries = SIGN_TRIES
        while True:
            try:
                if chip is None:
                    run = element.signing(digest)
                    yield run
                    entry[fmt.EXTERNAL_SIGNATURE_AT:fmt.EXTERNAL_CRC_AT] = run.poll(0)
                else:  # the chip's own message: its counter as it reads it, and the digest's first 20 bytes
                    run = element.attesting(digest[:20], ATTEST_SLOT, False)  # the value: the increment's
                    yield run
                    signed = run.poll(0)
                    entry[fmt.RAND_AT:fmt.CHIP_AT] = signed[:32]
                    entry[fmt.CHIP_AT:fmt.CHIP_AT + 5] = chip
                    entry[fmt.SIGNATURE_AT:fmt.CRC_AT] = signed[32:]
                break
            except OSError:
                tries -= 1
                if not tries:
                    raise
        at = self.size - 4
        struct.pack_into("<I", entry, at, crc32(memoryview(entry)[:at]))
        if reason == fmt.OPENING:
            self._pending = entry  # written with the coup's end: no file's erase before the gate unlocks
            self._opened = counter
        else:
            yield None  # the file's append (a littlefs block copied, erased) in a pass of its own
            self._write(entry)
        self._previous = sha256(entry).digest()
        self._counted = counter
        self._spent = None

    def _write(self, entry):
        """The entry after the file's last whole one, a coup's opening held before it, and the file closed (durable on
        littlefs, whose appends are whole or not at all): over the torn bytes of an append a power cut tore where the
        file keeps them (the host's files, the simulator's), so that every entry stays at its place (issue 37). The
        opening stays held when the write fails: the next entry, which follows it in the chain, writes it."""
        pending = self._pending
        if pending is not None:
            entry = pending + entry
        try:
            size = os.stat(self.path)[6]
        except OSError:
            size = 0
        if size % self.size:
            with open(self.path, "r+b") as f:
                f.seek(size - size % self.size)
                f.write(entry)  # longer than the torn bytes: none of them left after it
        else:
            with open(self.path, "ab") as f:
                f.write(entry)
        self._pending = None
