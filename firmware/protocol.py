"""The protocol a production shoe speaks instead of a REPL (docs/protocol.md): frames of bounded length, checked by
CRC-32, each command a code and fixed fields, answered by a status and a payload; nothing is ever evaluated as code.
Commands that change the shoe's state carry an HMAC-SHA256 under the casino's key over the frame and a challenge the
shoe issued, used once. The codec (Framer, frame) serves both ends; Protocol is the shoe's side, given its shell,
its clock (ticks in ms) and its random source, and answering through firmware/remote.py's functions. No machine
import: the board feeds it the bytes it reads and sends what it writes."""

from firmware.compat import const
from firmware.format.commands import (
    ARGS,
    AUTHENTICATED,
    C_CASINO_KEY,
    C_FIRMWARE,
    CHEAP,
    E_AUTH,
    E_BUSY,
    E_CHALLENGE,
    E_INTERNAL,
    E_LENGTH,
    E_NO_KEY,
    E_UNKNOWN,
    E_VERSION,
    OK,
    fits,
)
from firmware.frames import (  # noqa: F401 - the codec, re-exported: host and tests take it from here
    ANSWER,
    CHALLENGE_MS,
    CRC_SIZE,
    DOMAIN,
    FRAME_MAX,
    FRAME_TIMEOUT_MS,
    HEADER,
    MAGIC,
    NONCE_SIZE,
    PAYLOAD_MAX,
    TAG_SIZE,
    VERSION,
    WRAP,
    Framer,
    authenticator,
    frame,
)
from firmware.ticks import ticks_diff

# What one pass of the loop answers at most (docs/protocol.md, "One pass, bounded"): one expensive request (a read of
# the journal, a receipt, the firmware challenge, the element, a state-changing command), CHEAP_MAX cheap ones
# (status, challenge, a refusal); every other frame of the pass is answered E_BUSY. Busy answers a burst gives, one
# after the other with no gap of BURST_GAP_MS, are counted as one burst, journalled (record_names.R_BURST, the bursts
# since power-up) at the first pass between coups after it began, BURST_RECORD_MS apart at least: a flood repeated
# every few seconds writes a record a minute, the bursts between counted in the next.
CHEAP_MAX = const(4)
# The bytes a pass of the loop reads from the cable (boards/mcu/service.py, boards/vboard/board.py): a few requests'
# worth (the longest a shoe takes, a casino key with its tag, is 75 bytes); the framer keeps a frame's start for the
# next pass. A flood of 523 bytes a pass (a whole frame's maximum), each read and answered, made the pass
# 93 ms on the emulated Pico (issue 38).
READ_MAX = const(128)
BURST_GAP_MS = const(2000)
BURST_RECORD_MS = const(60000)
# The controller's event for a burst (firmware/controller.py's _EV_BURST; not in firmware/events.py, which the sim
# board loads: H-SIM); arg: the bursts since power-up, journalled as record_names.R_BURST.
EV_BURST = const(19)
# A pass whose controller step already took this long (a checkpoint's file written, a segment's flash erased) does
# nothing for the cable: no job's step, no byte read (they wait in the port for the next pass). Under a flood, a
# checkpoint's last poll of 98 ms followed by a receipt's step made passes of 109 ms (issue 34). A receipt's signature
# is itself polled for a pass at a time (firmware/receipt.py's Signing): a flood's receipts on every coup's signed
# opening made passes of 423 ms when the receipt was signed in one.
SLOW_PASS_MS = const(50)


class Protocol:
    """The shoe's side: feed() the bytes read, write(bytes) sends each answer. casino: the casino's Key enrolled at
    commissioning (None: no state-changing command is accepted); random(n): n unpredictable bytes; board: the board
    module whose set_clock the clock command calls; element: the secure element's driver (boards/mcu/atecc.py), or
    None; enrolment: the Key of the code on the shoe's label (startup.ENROLMENT_KEY), which alone authenticates a
    first casino key, and is spent by it (None: no first enrolment is taken). After a clock set or a new number,
    restart is True: the board restarts once the answer is out, and its boot record is stamped by the clock or opens
    the new number's journal."""

    def __init__(self, shell, now, write, random, casino=None, board=None, element=None, enrolment=None):
        self.shell = shell
        self.now = now
        self.write = write
        self.random = random
        self.casino = casino
        self.enrolment = enrolment  # the factory's one-time code (its label) as a Key: a first casino key's only way in
        self.board = board
        self.element = element
        self.framer = Framer(self._frame)
        self.refused = 0  # well-framed requests refused: unknown, malformed, unauthenticated
        self.nonce = None
        self.nonce_at = 0
        self.used_nonce = None  # the challenge the last state-changing command was checked against
        self.restart = False
        self.spent = False  # this pass's expensive request answered (or a challenge's slice hashed)
        self.cheap = 0  # this pass's cheap answers
        self.busy = 0  # requests answered E_BUSY
        self.bursts = 0
        self.busy_at = 0  # ticks of the last busy answer
        self.in_burst = False
        self.burst_said = 0  # the bursts journalled so far (R_BURST), and when the last was
        self.burst_said_at = 0
        self.job = None  # an answer worked on a pass at a time: [its step(state), command, seq, state] (work())
        self.files = None  # (another journal on flash, the kept journals' numbers): the status's, read once a boot
        self.cached = None  # (seed, answer): the last challenge's answer, its next index answered from it
        self.longest = 0  # the longest pass of the loop serving it (after_pass), ms
        self._received = _unheard  # the board's port: listen()

    def feed(self, data):
        """The bytes one pass read: its frames answered within the pass's budget, which then starts again."""
        self.framer.feed(data, self.now())
        self.spent = False
        self.cheap = 0

    def listen(self, received):
        """The board's port, heard between the loop's passes: received() gives what came since (bytes, maybe none).
        The board then runs its Runtime with this protocol as its cable (firmware/runtime.py), until one of its
        commands (a clock set, a new number) asks the board to restart."""
        self._received = received

    def after_pass(self, held, began):
        """Runtime's loop calls it after each pass (began: its start, ticks; held: a checkpoint under way, the element
        the controller's, so no request begins meanwhile). A card released and not out yet: the cable waits. The card
        reader's line comes a few ms before the card breaks the beam, and the loop parses it (idle) for the beam's
        handler to take: a pass that answered a request meanwhile (a receipt signed in one pass, once: some 220 ms)
        journalled the card unknown, its identity then the next card's."""
        shell = self.shell
        now = self.now
        if not shell.ctl.releasing and ticks_diff(now(), began) < SLOW_PASS_MS:
            # One signature or erase a pass: the controller's (a pass whose step took SLOW_PASS_MS does nothing for
            # the cable: its bytes wait in the port), then no request's; none while its checkpoint is under way (a
            # receipt's run would hold the chip it waits for).
            points = shell.checkpoints
            self.work(held or points is not None and points.job is not None)
            data = self._received()
            if data:
                self.feed(data)
        took = ticks_diff(now(), began)
        if took > self.longest:
            self.longest = took

    def work(self, slow=False):
        """Once a pass before feed(), slow when the pass has spent its expensive work already (a checkpoint signed, a
        segment erased): a job in progress takes its next step (the pass's expensive request: a challenge hashes its
        next slice, a receipt's element is polled), and a burst with no busy answer for BURST_GAP_MS is over."""
        self.spent = slow
        if self.bursts != self.burst_said and not slow:
            self._say_bursts()
        job = self.job
        if job is not None:
            self.spent = True
            try:
                answer = job[0](self, job[3])
            except Exception:  # noqa: BLE001 - as _frame(): the request fails, answered so, the gate locked
                self.shell.gate.close()
                answer = E_INTERNAL, b""
            if answer is not None:
                self.job = None
                self._answer(job[1], job[2], *answer)
        if self.in_burst and ticks_diff(self.now(), self.busy_at) > BURST_GAP_MS:
            self.in_burst = False

    def _say_bursts(self):
        """The bursts begun since the last R_BURST, journalled between coups (a coup's records stay the coup's;
        after_pass() calls work() with no card released, so a burn's intent is followed by its card) and with no job
        under way (a receipt answers with the journal's end it took when asked), a minute after the last at the soonest.
        The record, and the drain between coups after it, are the pass's expensive work: work() asks for none in a pass
        already slow, and begins none after it (nor a job's step, so the pass that answers a receipt journals nothing
        after it)."""
        shell = self.shell
        now = self.now()
        if shell.ctl.in_coup or self.job is not None or (
                self.burst_said and ticks_diff(now, self.burst_said_at) < BURST_RECORD_MS):
            return
        self.burst_said = self.bursts
        self.burst_said_at = now
        self.spent = True
        shell.handle(EV_BURST, self.bursts if self.bursts < 0xFFFF else 0xFFFF, shell.ctl.now)

    def counters(self):
        return {"bad_frames": self.framer.bad, "refused": self.refused, "busy": self.busy, "bursts": self.bursts,
                "longest_pass": self.longest}

    def _busy(self, command, seq):
        self.busy += 1
        self.busy_at = self.now()
        if not self.in_burst:
            self.in_burst = True
            self.bursts += 1
        self._answer(command, seq, E_BUSY)

    def _answer(self, command, seq, status, data=b""):
        self.write(frame(command | ANSWER, seq, bytes((status,)) + data))

    def _frame(self, view):
        command = view[2]
        seq = view[3] | view[4] << 8
        if command & ANSWER:
            self.framer.bad += 1  # an answer, another shoe's or echoed: answering it could ping-pong for ever
            return
        if command in CHEAP or command not in ARGS or view[1] != VERSION:
            if self.cheap >= CHEAP_MAX:
                self._busy(command, seq)
                return
            self.cheap += 1
        elif self.spent or self.job is not None:
            if command != C_FIRMWARE or not self._cached(view):
                self._busy(command, seq)
                return
        elif command != C_FIRMWARE or not self._cached(view):
            self.spent = True
        if view[1] != VERSION:
            self.refused += 1
            self._answer(command, seq, E_VERSION)
            return
        payload = bytes(view[HEADER:])
        try:
            status, data = self._carried_out(command, seq, payload)
        except Exception:  # noqa: BLE001 - a command that failed answers so, the gate locked; never the REPL's
            self.shell.gate.close()
            status, data = E_INTERNAL, b""
        if status is None:
            return  # answered by work(), passes later
        if OK < status <= E_AUTH:
            self.refused += 1  # malformed, unknown or unauthenticated: counted, status reports it
        self._answer(command, seq, status, data)

    def _cached(self, view):
        """A challenge whose seed the last one's answer was for: answered from it, no expensive work."""
        cached = self.cached
        return cached is not None and len(view) == HEADER + 34 and bytes(view[HEADER:HEADER + 32]) == cached[0]

    def _carried_out(self, command, seq, payload):
        """The command's handler (firmware/commands.py) on its arguments, a state-changing one's once its tag is
        checked against the challenge issued last, which is then spent whatever the outcome."""
        from firmware.commands import HANDLERS

        key = None
        if command & AUTHENTICATED:
            nonce = self.nonce
            self.nonce = None
            if command not in ARGS:
                return E_UNKNOWN, b""
            if not fits(command, len(payload) - TAG_SIZE):
                return E_LENGTH, b""
            key = self.casino
            if key is None and command == C_CASINO_KEY:  # the first enrolment, at commissioning: under the code on
                key = self.enrolment  # the shoe's label, never a stranger's key
            if key is None:
                return E_NO_KEY, b""
            if nonce is None or ticks_diff(self.now(), self.nonce_at) > CHALLENGE_MS:
                return E_CHALLENGE, b""
            payload, tag = payload[:-TAG_SIZE], payload[-TAG_SIZE:]
            if not _same(authenticator(key, nonce, command, seq, payload), tag):
                return E_AUTH, b""
            self.used_nonce = nonce  # a new casino key is unwrapped with it
        elif command not in ARGS:
            return E_UNKNOWN, b""
        elif not fits(command, len(payload)):
            return E_LENGTH, b""
        try:
            return HANDLERS[command](self, command, payload, seq, key)
        finally:
            self.used_nonce = None  # spent with its command: no challenge kept past it


def _unheard():
    """A port not listened to yet: nothing came."""
    return None


def _same(a, b):
    """Equal, in a time that does not say where they differ."""
    differ = len(a) ^ len(b)
    for x, y in zip(a, b):
        differ |= x ^ y
    return differ == 0
