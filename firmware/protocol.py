"""The protocol a production shoe speaks instead of a REPL (docs/protocol.md): frames of bounded length, checked by
CRC-32, each command a code and fixed fields, answered by a status and a payload; nothing is ever evaluated as code.
Commands that change the shoe's state carry an HMAC-SHA256 under the casino's key over the frame and a challenge the
shoe issued, used once. The codec (Framer, frame) serves both ends; Protocol is the shoe's side, given its shell,
its clock (ticks in ms) and its random source, and answering through firmware/remote.py's functions. No machine
import: the board feeds it the bytes it reads and sends what it writes."""

import json
import struct

from firmware.compat import const
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
from firmware.mac import Key
from firmware.ticks import ticks_diff

# Commands (docs/protocol.md). Reads: below 0x40, never authenticated. 0x40 and above change the shoe's state: the
# authenticator ends their payload.
C_STATUS = const(0x01)
C_CHALLENGE = const(0x02)
C_SEGMENTS = const(0x10)
C_CHUNK = const(0x11)
C_RECEIPT = const(0x12)
C_ENROL = const(0x20)
C_FIRMWARE = const(0x21)
C_SEANCE_OPEN = const(0x40)
C_SEANCE_CLOSE = const(0x41)
C_CLOCK_SET = const(0x42)
C_CASINO_KEY = const(0x43)
C_NUMBER_SET = const(0x44)
C_CLOCK_FORCE = const(0x45)  # the clock set more than a day ahead of the journal's last record (`clock set --force`)
AUTHENTICATED = const(0x40)

# Statuses: an answer's first payload byte (docs/protocol.md's table, its words in host_tools/sabot/protocol.py).
# E_VERSION to E_AUTH refuse a malformed, unknown or unauthenticated request: they are counted.
OK = const(0)
E_VERSION = const(1)
E_UNKNOWN = const(2)
E_LENGTH = const(3)
E_ARGUMENT = const(4)
E_NO_KEY = const(5)
E_CHALLENGE = const(6)
E_AUTH = const(7)
E_REFUSED = const(8)
E_FAULT = const(9)
E_BEHIND = const(10)
E_NOT_FOUND = const(11)
E_NO_ELEMENT = const(12)
E_NO_MANIFEST = const(13)
E_INTERNAL = const(14)
E_BUSY = const(15)  # the pass's expensive request, or its cheap ones, already answered: ask again (a flood's answer)

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
# A pass whose controller step already took this long (a checkpoint signed by the secure element, a segment's flash
# erased) has spent its expensive request: it begins none (a job under way takes its small step). A receipt's signature
# is itself polled for a pass at a time (firmware/receipt.py's Signing): a flood's receipts on every coup's signed
# opening made passes of 423 ms when the receipt was signed in one.
SLOW_PASS_MS = const(50)

_SEGMENTS_PAGE = const(63)  # (4 + 4)-byte entries after the status and the count: 1 + 2 + 63 * 8 = 507 bytes
_CHUNK_MAX = const(508)  # a chunk's bytes after the status, a payload within PAYLOAD_MAX


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
        self.longest = 0  # the longest pass of serve()'s loop, ms

    def feed(self, data):
        """The bytes one pass read: its frames answered within the pass's budget, which then starts again."""
        self.framer.feed(data, self.now())
        self.spent = False
        self.cheap = 0

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
                answer = job[0](job[3])
            except Exception:  # noqa: BLE001 - as _frame(): the request fails, answered so, the gate locked
                self.shell.gate.close()
                answer = E_INTERNAL, b""
            if answer is not None:
                self.job = None
                self._answer(job[1], job[2], *answer)
        if self.in_burst and ticks_diff(self.now(), self.busy_at) > BURST_GAP_MS:
            self.in_burst = False

    def _say_bursts(self):
        """The bursts begun since the last R_BURST, journalled between coups (a coup's records stay the coup's; serve()
        calls work() with no card released, so a burn's intent is followed by its card) and with no job under way (a
        receipt answers with the journal's end it took when asked), a minute after the last at the soonest. The
        record, and the drain between coups after it, are the pass's expensive work: work() asks for none in a pass
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
        if command in _CHEAP or command not in _READS and command not in _WRITES or view[1] != VERSION:
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
            if command & AUTHENTICATED:
                status, data = self._authenticated(command, seq, payload)
            else:
                status, data = self._read(command, payload, seq)
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

    def _read(self, command, payload, seq=0):
        size = len(payload)
        if command == C_STATUS and size == 0:
            from firmware import remote

            files = self.files
            if files is None:  # the flash's directories, read once: only a restart changes what they say
                files = self.files = (remote.other_journal(), remote.kept_journals())
            answer = remote.status(self.shell, files[0])
            answer["protocol"] = VERSION
            answer["casino"] = _key_id(self.casino)
            answer["code"] = self.enrolment is not None and self.casino is None  # a first enrolment awaits its code
            answer["kept"] = files[1]
            answer.update(self.counters())
            return OK, _json(answer)
        if command == C_CHALLENGE and size == 0:
            self.nonce = self.random(NONCE_SIZE)
            self.nonce_at = self.now()
            return OK, self.nonce
        if command == C_SEGMENTS and (size == 2 or size == 4):  # then the kept journal's number, 0 the journal's
            return self._segments(payload[0] | payload[1] << 8, _kept(payload, 2))
        if command == C_CHUNK and (size == 10 or size == 12):
            segment, offset, count = struct.unpack("<IIH", payload[:10])
            return self._chunk(segment, offset, count, _kept(payload, 10))
        if command == C_RECEIPT and NONCE_SIZE <= size <= 32:
            from firmware import receipt

            points = self.shell.checkpoints
            if points is None or points.element is None:
                return OK, receipt.receipt(self.shell.journal, payload).encode()
            self.job = [self._signed, command, seq, receipt.Signing(self.shell.journal, payload, points)]
            return None, b""  # answered by work(), once the element has signed
        if command == C_ENROL and size == 0:
            if self.element is None:
                return E_NO_ELEMENT, b""
            from firmware.checkpoints import journal_key

            try:  # X || Y, the chip's own signing key when it has one, whatever the flash's files say: the registry's
                return OK, journal_key(self.element)[1]
            except OSError:  # the element did not answer
                return E_NO_ELEMENT, b""
        if command == C_FIRMWARE and size == 34:
            return self._firmware(payload[:32], payload[32] | payload[33] << 8, command, seq)
        return (E_LENGTH if command in _READS else E_UNKNOWN), b""

    def _storage(self, kept):
        """The journal's store, or a kept journal's files (journal.N, set aside by a new number: no ring's); None
        when there is no such kept journal."""
        if not kept:
            return self.shell.journal.storage
        from firmware import remote

        return remote.kept_storage(kept)

    def _segments(self, start, kept=0):
        storage = self._storage(kept)
        if storage is None:
            return E_NOT_FOUND, b""
        segments = storage.segments()
        data = struct.pack("<H", len(segments))
        for segment in segments[start:start + _SEGMENTS_PAGE]:
            data += struct.pack("<II", segment, storage.size(segment))
        return OK, data

    def _chunk(self, segment, offset, count, kept=0):
        if segment == 0:
            return self._checkpoints(offset, count, kept)
        storage = self._storage(kept)
        if storage is None or segment not in storage.segments():
            return E_NOT_FOUND, b""
        if count > _CHUNK_MAX:
            return E_ARGUMENT, b""
        size = storage.size(segment)
        if offset > size:
            return E_ARGUMENT, b""
        with storage.reader(segment) as stream:
            skip = offset  # the ring's reader rebuilds frames as it goes: it reads forward only
            while skip:
                got = len(stream.read(min(skip, 256)))
                if not got:
                    break
                skip -= got
            return OK, stream.read(min(count, size - offset))

    def _checkpoints(self, offset, count, kept=0):
        """Segment 0: the journal's checkpoint file (firmware/checkpoints.py), or a kept journal's, read as a segment
        is."""
        points = self.shell.checkpoints
        if points is None or count > _CHUNK_MAX:
            return (E_NOT_FOUND if points is None else E_ARGUMENT), b""
        path = points.path
        if kept:
            path = "%s.%d/%s" % (points.folder, kept, path.rpartition("/")[2])
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                return OK, f.read(count)
        except OSError:
            return E_NOT_FOUND, b""

    def _firmware(self, seed, index, command=C_FIRMWARE, seq=0):
        """From the last answer when the seed is its; a production Pico's region a slice a pass (work(): the answer
        then, no answer now); else the image's files at once, the answer kept for the next index."""
        from firmware import identity

        cached = self.cached
        if cached is None or cached[0] != seed:
            if identity.REGION is not None:
                self.job = [self._hashed, command, seq, (identity.RegionMac(seed), index)]
                return None, b""
            try:
                cached = self.cached = (bytes(seed), identity.answer(seed))
            except (OSError, ValueError):
                return E_NO_MANIFEST, b""
        return self._page(cached[1], index)

    def _hashed(self, state):
        """A challenge's next slice hashed: its page once the region is."""
        mac, index = state
        mac.step()
        if not mac.done():
            return None
        self.cached = (mac.seed, mac.answer())
        return self._page(self.cached[1], index)

    def _signed(self, signing):
        """A receipt's element polled (a pass counts as 1 ms): its line once signed."""
        line = signing.step(1)
        return None if line is None else (OK, line.encode())

    def _page(self, answer, index):
        files = answer["files"]
        if index < len(files):
            return OK, _json({"count": len(files), "file": files[index]})
        return OK, _json({"count": len(files), "overall": answer["overall"], "unlisted": len(answer["unlisted"]),
                          "configuration": "production"})

    def _authenticated(self, command, seq, payload):
        """The tag checked against the challenge issued last, which is then spent whatever the outcome."""
        nonce = self.nonce
        self.nonce = None
        if command not in _WRITES:
            return E_UNKNOWN, b""
        if len(payload) != _WRITES[command] + TAG_SIZE:
            return E_LENGTH, b""
        args = payload[:-TAG_SIZE]
        key = self.casino
        first = key is None and command == C_CASINO_KEY
        if first:  # the first enrolment, at commissioning: under the code on the shoe's label, never a stranger's key
            key = self.enrolment
        if key is None:
            return E_NO_KEY, b""
        if nonce is None or ticks_diff(self.now(), self.nonce_at) > CHALLENGE_MS:
            return E_CHALLENGE, b""
        if not _same(authenticator(key, nonce, command, seq, args), payload[-TAG_SIZE:]):
            return E_AUTH, b""
        from firmware import remote

        if command == C_CASINO_KEY:  # the new key unwrapped under the current one (the code's, first): never in clear
            args = bytes(a ^ b for a, b in zip(args, key.tag(WRAP + nonce, TAG_SIZE)))
            refused = remote.enrol_casino(args, self.shell, key.id, self.casino and self.casino.id, first)
            if refused:
                return _refused(refused)
            if first:
                self.enrolment = None  # spent: one first enrolment per code
            self.casino = Key(args)
            return OK, _json({"casino": _key_id(self.casino), "by_key": _key_id(key)})
        if command == C_NUMBER_SET:
            sabot = args[0] | args[1] << 8
            answer = remote.renumber(sabot, self.shell, key.id)
            if "was" not in answer:
                return _refused(answer)
            answer["by_key"] = _key_id(key)
            self.restart = answer["was"] != sabot or answer["kept"] is not None
            return OK, _json(answer)
        if command == C_CLOCK_SET or command == C_CLOCK_FORCE:
            fields = struct.unpack("<IHBBBBB", args)
            try:
                _check_time(fields[1:])
            except ValueError:
                return E_ARGUMENT, b""
            answer = remote.clock(self.shell, fields[0], fields[1:], self.board, key.id, command == C_CLOCK_FORCE)
            self.restart = "set" in answer
            if "behind" in answer:
                return E_BEHIND, _json(answer)
            return (OK, _json(answer)) if self.restart else _refused(answer)
        table, by, length = struct.unpack("<HHB", args[:5])
        try:
            answer = remote.open_seance(self.shell, self.now(), table, bytes(args[5:5 + length]).decode(), by,
                                        command == C_SEANCE_CLOSE)
        except (ValueError, UnicodeError):
            return E_ARGUMENT, b""
        answer["by_key"] = _key_id(self.casino)
        if "seq" in answer:
            return OK, _json(answer)
        return (E_REFUSED if "refused" in answer else E_FAULT), _json(answer)


def serve(runtime, protocol, received):
    """The production configuration's loop, every board's (boards/mcu/service.py, boards/vboard/board.py): a pass of
    the controller (firmware/runtime.py's Runtime), then what the port received (received(): bytes, maybe none) to
    the protocol, until one of its commands (a clock set, a new number) asks the board to restart. No
    KeyboardInterrupt: the board turned Ctrl-C off before anything could fail. Here rather than in Runtime, which
    every shoe loads: only a production one does this module."""
    from firmware.runtime import Runtime

    Runtime.current = runtime  # the shoe remote.py's functions act on (a new number sets the ring's journal aside)
    runtime.shell.journal.reopen()
    ctl = runtime.shell.ctl
    points = runtime.shell.checkpoints
    now = runtime.now
    while not protocol.restart:
        began = now()
        held = runtime.step()  # a checkpoint under way: the element is the controller's, no request begins meanwhile
        runtime.idle()
        # A card released and not out yet: the cable waits. The card reader's line comes a few ms before the card
        # breaks the beam, and the loop parses it (idle) for the beam's handler to take: a pass that answered a
        # request meanwhile (a receipt signed in one pass, once: some 220 ms) journalled the card unknown, its identity
        # then the next card's.
        if not ctl.releasing:
            # One signature or erase a pass: the controller's, then no request's; none while its checkpoint is under
            # way (a receipt's run would hold the chip it waits for).
            protocol.work(held or ticks_diff(now(), began) >= SLOW_PASS_MS
                          or points is not None and points.job is not None)
            data = received()
            if data:
                protocol.feed(data)
        took = ticks_diff(now(), began)
        if took > protocol.longest:
            protocol.longest = took


_CHEAP = (C_STATUS, C_CHALLENGE)
_READS = (C_STATUS, C_CHALLENGE, C_SEGMENTS, C_CHUNK, C_RECEIPT, C_ENROL, C_FIRMWARE)
# The arguments' size of each state-changing command: séance table, employee, the game's name's length and 16 bytes
# for it; clock (forced or not): seconds since 2020, year, month, day, hour, minute, second; the casino's key (32
# bytes); the sabot number (u16).
_WRITES = {C_SEANCE_OPEN: 21, C_SEANCE_CLOSE: 21, C_CLOCK_SET: 11, C_CASINO_KEY: 32, C_NUMBER_SET: 2, C_CLOCK_FORCE: 11}


def _refused(answer):
    """A state-changing command the shoe did not carry out: refused (the controller's reason, or a clock too far
    ahead), or in fault (nothing could be journalled)."""
    return (E_REFUSED if "refused" in answer or "ahead" in answer else E_FAULT), _json(answer)


def _kept(payload, at):
    """The kept journal a read names after its fields (journal.N), 0 for the journal."""
    return payload[at] | payload[at + 1] << 8 if len(payload) > at else 0


def _check_time(fields):
    year, month, day, hour, minute, second = fields
    if not (2020 <= year <= 2099 and 1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60
            and second < 60):
        raise ValueError("time out of range")


def _same(a, b):
    """Equal, in a time that does not say where they differ."""
    differ = len(a) ^ len(b)
    for x, y in zip(a, b):
        differ |= x ^ y
    return differ == 0


def _key_id(key):
    if key is None:
        return None
    return "".join("%02x" % b for b in key.id)


def _json(answer):
    return json.dumps(answer).encode()

