"""The protocol a production shoe speaks instead of a REPL (docs/protocol.md): frames of bounded length, checked by
CRC-32, each command a code and fixed fields, answered by a status and a payload; nothing is ever evaluated as code.
Commands that change the shoe's state carry an HMAC-SHA256 under the casino's key over the frame and a challenge the
shoe issued, used once. The codec (Framer, frame) serves both ends; Protocol is the shoe's side, given its shell,
its clock (ticks in ms) and its random source, and answering through firmware/remote.py's functions. No machine
import: the board feeds it the bytes it reads and sends what it writes."""

import json
import struct
from binascii import crc32

from firmware.compat import const
from firmware.mac import Key
from firmware.ticks import ticks_diff

MAGIC = const(0xA5)
VERSION = const(1)
HEADER = const(7)  # magic, version, command, sequence (2 bytes), payload length (2 bytes), little-endian
CRC_SIZE = const(4)  # CRC-32 of the header and the payload, little-endian
PAYLOAD_MAX = const(512)
FRAME_MAX = const(523)  # HEADER + PAYLOAD_MAX + CRC_SIZE: the receive buffer, never more
FRAME_TIMEOUT_MS = const(1000)  # a frame begun and not finished within it is dropped
CHALLENGE_MS = const(30000)  # a challenge unused after it is void
NONCE_SIZE = const(16)
TAG_SIZE = const(32)
ANSWER = const(0x80)  # an answer's command: the request's, with this bit
DOMAIN = b"sabot command\0"
WRAP = b"sabot key wrap\0"  # a new casino key travels XORed with HMAC(current key, WRAP + challenge)

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

_SEGMENTS_PAGE = const(63)  # (4 + 4)-byte entries after the status and the count: 1 + 2 + 63 * 8 = 507 bytes
_CHUNK_MAX = const(508)  # a chunk's bytes after the status, a payload within PAYLOAD_MAX


def frame(command, seq, payload=b""):
    """One frame's bytes."""
    head = struct.pack("<BBBHH", MAGIC, VERSION, command, seq & 0xFFFF, len(payload)) + payload
    return head + struct.pack("<I", crc32(head))


def authenticator(key, nonce, command, seq, args):
    """The tag an authenticated command ends with: HMAC-SHA256 under the casino's key of the domain, the shoe's
    challenge and the frame's header and arguments (its length counting the tag)."""
    head = struct.pack("<BBBHH", MAGIC, VERSION, command, seq & 0xFFFF, len(args) + TAG_SIZE)
    return key.tag(DOMAIN + nonce + head[1:] + args, TAG_SIZE)


class Framer:
    """Frames out of bytes fed as they come: garbage skipped to the next magic byte, a length over PAYLOAD_MAX or a
    wrong CRC skipped one byte on, a frame left unfinished past FRAME_TIMEOUT_MS dropped; the buffer is FRAME_MAX
    bytes and never grows. Each whole frame goes to on_frame(view of its bytes); bad counts what was dropped."""

    def __init__(self, on_frame):
        self.buf = bytearray(FRAME_MAX)
        self.fill = 0
        self.began = 0  # ticks when the buffered frame's first byte came
        self.bad = 0
        self.on_frame = on_frame

    def feed(self, data, now):
        if self.fill and ticks_diff(now, self.began) > FRAME_TIMEOUT_MS:
            self.fill = 0
            self.bad += 1
        at = 0
        while at < len(data):
            if not self.fill:
                self.began = now
            take = min(FRAME_MAX - self.fill, len(data) - at)
            self.buf[self.fill:self.fill + take] = data[at:at + take]
            self.fill += take
            at += take
            self._scan(now)

    def _drop(self, count):
        buf = self.buf
        rest = self.fill - count
        buf[:rest] = buf[count:self.fill]
        self.fill = rest

    def _scan(self, now):
        buf = self.buf
        while self.fill:
            if buf[0] != MAGIC:
                skip = 1
                while skip < self.fill and buf[skip] != MAGIC:
                    skip += 1
                self.bad += 1
                self._drop(skip)
                continue
            if self.fill < HEADER:
                return
            length = buf[5] | buf[6] << 8
            if length > PAYLOAD_MAX:
                self.bad += 1
                self._drop(1)
                continue
            end = HEADER + length
            if self.fill < end + CRC_SIZE:
                return
            if crc32(memoryview(buf)[:end]) != struct.unpack_from("<I", buf, end)[0]:
                self.bad += 1
                self._drop(1)
                continue
            self.on_frame(memoryview(buf)[:end])
            self._drop(end + CRC_SIZE)
            self.began = now


class Protocol:
    """The shoe's side: feed() the bytes read, write(bytes) sends each answer. casino: the casino's Key enrolled at
    commissioning (None: no state-changing command is accepted); random(n): n unpredictable bytes; board: the board
    module whose set_clock the clock command calls; element: the secure element's driver (boards/mcu/atecc.py), or
    None. After a clock set or a new number, restart is True: the board restarts once the answer is out, and its boot
    record is stamped by the clock or opens the new number's journal."""

    def __init__(self, shell, now, write, random, casino=None, board=None, element=None):
        self.shell = shell
        self.now = now
        self.write = write
        self.random = random
        self.casino = casino
        self.board = board
        self.element = element
        self.framer = Framer(self._frame)
        self.refused = 0  # well-framed requests refused: unknown, malformed, unauthenticated
        self.nonce = None
        self.nonce_at = 0
        self.restart = False

    def feed(self, data):
        self.framer.feed(data, self.now())

    def counters(self):
        return {"bad_frames": self.framer.bad, "refused": self.refused}

    def _answer(self, command, seq, status, data=b""):
        self.write(frame(command | ANSWER, seq, bytes((status,)) + data))

    def _frame(self, view):
        command = view[2]
        seq = view[3] | view[4] << 8
        if command & ANSWER:
            self.framer.bad += 1  # an answer, another shoe's or echoed: answering it could ping-pong for ever
            return
        if view[1] != VERSION:
            self.refused += 1
            self._answer(command, seq, E_VERSION)
            return
        payload = bytes(view[HEADER:])
        try:
            if command & AUTHENTICATED:
                status, data = self._authenticated(command, seq, payload)
            else:
                status, data = self._read(command, payload)
        except Exception:  # noqa: BLE001 - a command that failed answers so, the gate locked; never the REPL's
            self.shell.gate.close()
            status, data = E_INTERNAL, b""
        if OK < status <= E_AUTH:
            self.refused += 1  # malformed, unknown or unauthenticated: counted, status reports it
        self._answer(command, seq, status, data)

    def _read(self, command, payload):
        size = len(payload)
        if command == C_STATUS and size == 0:
            from firmware import remote

            answer = remote.status(self.shell)
            answer["protocol"] = VERSION
            answer["casino"] = _key_id(self.casino)
            answer.update(self.counters())
            return OK, _json(answer)
        if command == C_CHALLENGE and size == 0:
            self.nonce = self.random(NONCE_SIZE)
            self.nonce_at = self.now()
            return OK, self.nonce
        if command == C_SEGMENTS and size == 2:
            return self._segments(payload[0] | payload[1] << 8)
        if command == C_CHUNK and size == 10:
            segment, offset, count = struct.unpack("<IIH", payload)
            return self._chunk(segment, offset, count)
        if command == C_RECEIPT and NONCE_SIZE <= size <= 32:
            from firmware.receipt import receipt

            return OK, receipt(self.shell.journal, payload, getattr(self.shell, "checkpoints", None)).encode()
        if command == C_ENROL and size == 0:
            if self.element is None:
                return E_NO_ELEMENT, b""
            try:
                return OK, self.element.public_key()  # slot 0's, X || Y: what the casino's registry records
            except OSError:  # the element did not answer
                return E_NO_ELEMENT, b""
        if command == C_FIRMWARE and size == 34:
            return self._firmware(payload[:32], payload[32] | payload[33] << 8)
        return (E_LENGTH if command in _READS else E_UNKNOWN), b""

    def _segments(self, start):
        storage = self.shell.journal.storage
        segments = storage.segments()
        data = struct.pack("<H", len(segments))
        for segment in segments[start:start + _SEGMENTS_PAGE]:
            data += struct.pack("<II", segment, storage.size(segment))
        return OK, data

    def _chunk(self, segment, offset, count):
        if segment == 0:
            return self._checkpoints(offset, count)
        storage = self.shell.journal.storage
        if segment not in storage.segments():
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

    def _checkpoints(self, offset, count):
        """Segment 0: the journal's checkpoint file (firmware/checkpoints.py), read as a segment is."""
        points = getattr(self.shell, "checkpoints", None)
        if points is None or count > _CHUNK_MAX:
            return (E_NOT_FOUND if points is None else E_ARGUMENT), b""
        try:
            with open(points.path, "rb") as f:
                f.seek(offset)
                return OK, f.read(count)
        except OSError:
            return E_NOT_FOUND, b""

    def _firmware(self, seed, index):
        from firmware import identity

        try:
            answer = identity.answer(seed)
        except (OSError, ValueError):
            return E_NO_MANIFEST, b""
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
        if key is None and command == C_CASINO_KEY:
            key = Key(args)  # the first enrolment, at commissioning: the new key authenticates itself
        if key is None:
            return E_NO_KEY, b""
        if nonce is None or ticks_diff(self.now(), self.nonce_at) > CHALLENGE_MS:
            return E_CHALLENGE, b""
        if not _same(authenticator(key, nonce, command, seq, args), payload[-TAG_SIZE:]):
            return E_AUTH, b""
        from firmware import remote

        if command == C_CASINO_KEY:
            if self.casino is not None:  # a change: the new key unwrapped under the current one
                args = bytes(a ^ b for a, b in zip(args, self.casino.tag(WRAP + nonce, TAG_SIZE)))
            remote.enrol_casino(args)
            self.casino = Key(args)
            return OK, _json({"casino": _key_id(self.casino), "by_key": _key_id(key)})
        if command == C_NUMBER_SET:
            sabot = args[0] | args[1] << 8
            answer = remote.renumber(sabot, self.shell)
            answer["by_key"] = _key_id(key)
            self.restart = answer["was"] != sabot or answer["kept"] is not None
            return OK, _json(answer)
        if command == C_CLOCK_SET:
            fields = struct.unpack("<IHBBBBB", args)
            try:
                _check_time(fields[1:])
            except ValueError:
                return E_ARGUMENT, b""
            answer = remote.clock(self.shell, fields[0], fields[1:], self.board)
            self.restart = "set" in answer
            return (OK if self.restart else E_BEHIND), _json(answer)
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
    while not protocol.restart:
        runtime.step()
        runtime.idle()
        data = received()
        if data:
            protocol.feed(data)


_READS = (C_STATUS, C_CHALLENGE, C_SEGMENTS, C_CHUNK, C_RECEIPT, C_ENROL, C_FIRMWARE)
# The arguments' size of each state-changing command: séance table, employee, the game's name's length and 16 bytes
# for it; clock: seconds since 2020, year, month, day, hour, minute, second; the casino's key (32 bytes); the
# sabot number (u16).
_WRITES = {C_SEANCE_OPEN: 21, C_SEANCE_CLOSE: 21, C_CLOCK_SET: 11, C_CASINO_KEY: 32, C_NUMBER_SET: 2}


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

