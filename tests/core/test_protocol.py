"""The shoe's side of its protocol on every runtime (firmware/protocol.py, docs/protocol.md): a séance opened only
under the casino's key and the shoe's challenge, used once; mutated frames change nothing and never open the gate;
the receive buffer never grows. tests/host/test_protocol_fuzz.py fuzzes it at volume on CPython."""

import struct
from binascii import crc32

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from boards.sim.runner import act, run
from boards.sim.scenario import parse
from firmware import layout
from firmware import protocol as p
from firmware.events import EV_COUP_END
from firmware.format import commands as c
from firmware.games import CHEMIN_DE_FER
from firmware.mac import Key
from firmware.record_names import R_BURST
from firmware.records import TABLE_MAX
from tests.core.req import covers

CASINO = Key(b"casino key, enrolled at commissioning")


class _Shoe:
    def __init__(self):
        self.board = SimBoard(MemoryStorage())
        self.board.power_on()
        self.out = bytearray()
        self.drawn = 0
        self.protocol = p.Protocol(self.board.shell, self.board.clock.ticks, self.out.extend, self._random, CASINO)

    def _random(self, n):
        self.drawn += 1
        return bytes((self.drawn * 37 + i * 11) & 0xFF for i in range(n))

    def ask(self, command, seq, payload=b""):
        """(status, data) of the one answer to one frame."""
        self.protocol.feed(p.frame(command, seq, payload))
        answer = bytes(self.out)
        self.out[:] = b""
        assert answer[2] == command | p.ANSWER and answer[3] | answer[4] << 8 == seq
        return answer[p.HEADER], answer[p.HEADER + 1:-p.CRC_SIZE]


def _seance_args(table):
    return struct.pack("<HHB", table, 4711, 13) + b"chemin_de_fer" + bytes(3)


@covers("P-AUTH", "S-IDENT")
def test_a_seance_opens_under_the_casinos_key_and_its_frame_replayed_is_refused():
    shoe = _Shoe()
    nonce = shoe.ask(c.C_CHALLENGE, 1)[1]
    args = _seance_args(TABLE_MAX)
    request = p.frame(c.C_SEANCE_OPEN, 2, args + p.authenticator(CASINO, nonce, c.C_SEANCE_OPEN, 2, args))
    shoe.protocol.feed(request)
    assert shoe.out[p.HEADER] == c.OK and shoe.board.shell.ctl.table == TABLE_MAX
    seq = shoe.board.shell.journal.seq
    shoe.out[:] = b""
    shoe.protocol.feed(request)
    assert shoe.out[p.HEADER] == c.E_CHALLENGE
    shoe.out[:] = b""
    shoe.ask(c.C_CHALLENGE, 3)
    shoe.protocol.feed(request)
    assert shoe.out[p.HEADER] == c.E_AUTH and shoe.board.shell.journal.seq == seq


@covers("P-FUZZ", "P-FRAME", "S-FAILSAFE")
def test_mutated_frames_change_nothing_and_never_open_the_gate():
    shoe = _Shoe()
    nonce = shoe.ask(c.C_CHALLENGE, 1)[1]
    args = _seance_args(12)
    valid = p.frame(c.C_SEANCE_OPEN, 2, args + p.authenticator(CASINO, b"another shoe's nonce", c.C_SEANCE_OPEN, 2,
                                                                args))
    corpus = (valid, p.frame(c.C_STATUS, 3), p.frame(c.C_CHUNK, 4, struct.pack("<IIH", 1, 0, 64)),
              p.frame(c.C_CLOCK_SET, 5, bytes(11 + p.TAG_SIZE)), p.frame(c.C_SEGMENTS, 6, bytes(2)))
    seq, releases = shoe.board.shell.journal.seq, shoe.board.gate.releases
    state = 12345
    for n in range(3000):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        frame = bytearray(corpus[n % len(corpus)])
        at = state % len(frame)
        frame[at] ^= 1 << (state >> 8) % 8
        if state & 0x10000:
            frame[-4:] = struct.pack("<I", crc32(frame[:-4]))  # past the CRC: the dispatcher's to refuse
        if n % 50 == 0:
            shoe.protocol.feed(p.frame(c.C_CHALLENGE, n))
        cut = (state >> 4) % len(frame)
        shoe.protocol.feed(bytes(frame[:cut]))
        shoe.protocol.feed(bytes(frame[cut:]))
        assert shoe.protocol.framer.fill <= p.FRAME_MAX and not shoe.board.gate.is_open
        shoe.out[:] = b""
    assert nonce and shoe.board.shell.journal.seq == seq and shoe.board.gate.releases == releases
    shoe.board.clock.now += p.FRAME_TIMEOUT_MS + 1  # a frame left half sent is dropped
    assert shoe.ask(c.C_STATUS, 1)[0] == c.OK


def _statuses(out):
    """The status of each answer in out, in order."""
    statuses = []
    at = 0
    while at < len(out):
        length = out[at + 5] | out[at + 6] << 8
        statuses.append(out[at + p.HEADER])
        at += p.HEADER + length + p.CRC_SIZE
    return statuses


@covers("S-FAILSAFE", "P-FUZZ")
def test_a_pass_answers_one_expensive_request_and_four_cheap_ones_the_rest_busy_counted_by_burst():
    shoe = _Shoe()
    receipts = b"".join(p.frame(c.C_RECEIPT, n, bytes(16)) for n in range(11))  # eleven in one read
    shoe.protocol.feed(receipts)
    assert _statuses(shoe.out) == [c.OK] + [c.E_BUSY] * 10
    shoe.out[:] = b""
    shoe.protocol.feed(b"".join(p.frame(c.C_STATUS, n) for n in range(6)))  # the next pass: a new budget
    assert _statuses(shoe.out) == [c.OK] * 4 + [c.E_BUSY] * 2
    assert shoe.protocol.busy == 12 and shoe.protocol.bursts == 1  # one burst
    shoe.out[:] = b""
    assert shoe.ask(c.C_RECEIPT, 99, bytes(16))[0] == c.OK


def _last_record(board):
    """(type, code) of the journal's last record."""
    body = board.shell.journal.body
    return body[0], body[layout.BODY_CODE] | body[layout.BODY_CODE + 1] << 8


def _burst(protocol, board):
    """Twenty statuses in one read: four answered, sixteen busy; then 2 s with none, the burst over."""
    protocol.feed(b"".join(p.frame(c.C_STATUS, n) for n in range(20)))
    board.clock.now += p.BURST_GAP_MS + 1
    protocol.work()


@covers("P-FUZZ", "J-EVENTS")
def test_a_burst_is_journalled_once_between_coups_and_a_flood_writes_a_record_a_minute_at_most():
    shoe = _Shoe()
    board = shoe.board
    seq = board.shell.journal.seq
    _burst(shoe.protocol, board)
    assert _last_record(board) == (R_BURST, 1) and board.shell.journal.seq == seq + 1  # said once
    for _ in range(5):  # a flood every few seconds: counted, not written again within the minute
        _burst(shoe.protocol, board)
    assert shoe.protocol.bursts == 6 and board.shell.journal.seq == seq + 1
    board.clock.now += p.BURST_RECORD_MS
    shoe.protocol.work()
    assert _last_record(board) == (R_BURST, 6) and board.shell.journal.seq == seq + 2  # those five, counted
    shoe.protocol.work()
    assert board.shell.journal.seq == seq + 2  # nothing new, nothing written


@covers("P-FUZZ", "J-EVENTS")
def test_a_burst_during_a_coup_is_journalled_after_its_end_never_among_its_records():
    board = SimBoard(MemoryStorage())
    run(parse("seance table=3\nshoe seed=4\nno_more_bets\n"), board)
    protocol = p.Protocol(board.shell, board.clock.ticks, bytearray().extend, bytes, CASINO)
    seq = board.shell.journal.seq
    _burst(protocol, board)
    assert board.shell.ctl.in_coup and board.shell.journal.seq == seq  # the coup's records stay the coup's
    act(board, CHEMIN_DE_FER, "draw", 4, 0)
    board.press(EV_COUP_END)
    assert not board.shell.ctl.in_coup
    seq = board.shell.journal.seq
    protocol.work()
    assert _last_record(board) == (R_BURST, 1) and board.shell.journal.seq == seq + 1
