"""The shoe's side of its protocol on every runtime (firmware/protocol.py, docs/protocol.md): a séance opened only
under the casino's key and the shoe's challenge, used once; mutated frames change nothing and never open the gate;
the receive buffer never grows. tests/host/test_protocol_fuzz.py fuzzes it at volume on CPython."""

import struct
from binascii import crc32

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from firmware import protocol as p
from firmware.mac import Key
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
    nonce = shoe.ask(p.C_CHALLENGE, 1)[1]
    args = _seance_args(TABLE_MAX)
    request = p.frame(p.C_SEANCE_OPEN, 2, args + p.authenticator(CASINO, nonce, p.C_SEANCE_OPEN, 2, args))
    shoe.protocol.feed(request)
    assert shoe.out[p.HEADER] == p.OK and shoe.board.shell.ctl.table == TABLE_MAX
    seq = shoe.board.shell.journal.seq
    shoe.out[:] = b""
    shoe.protocol.feed(request)
    assert shoe.out[p.HEADER] == p.E_CHALLENGE
    shoe.out[:] = b""
    shoe.ask(p.C_CHALLENGE, 3)
    shoe.protocol.feed(request)
    assert shoe.out[p.HEADER] == p.E_AUTH and shoe.board.shell.journal.seq == seq


@covers("P-FUZZ", "P-FRAME", "S-FAILSAFE")
def test_mutated_frames_change_nothing_and_never_open_the_gate():
    shoe = _Shoe()
    nonce = shoe.ask(p.C_CHALLENGE, 1)[1]
    args = _seance_args(12)
    valid = p.frame(p.C_SEANCE_OPEN, 2, args + p.authenticator(CASINO, b"another shoe's nonce", p.C_SEANCE_OPEN, 2,
                                                                args))
    corpus = (valid, p.frame(p.C_STATUS, 3), p.frame(p.C_CHUNK, 4, struct.pack("<IIH", 1, 0, 64)),
              p.frame(p.C_CLOCK_SET, 5, bytes(11 + p.TAG_SIZE)), p.frame(p.C_SEGMENTS, 6, bytes(2)))
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
            shoe.protocol.feed(p.frame(p.C_CHALLENGE, n))
        cut = (state >> 4) % len(frame)
        shoe.protocol.feed(bytes(frame[:cut]))
        shoe.protocol.feed(bytes(frame[cut:]))
        assert shoe.protocol.framer.fill <= p.FRAME_MAX and not shoe.board.gate.is_open
        shoe.out[:] = b""
    assert nonce and shoe.board.shell.journal.seq == seq and shoe.board.gate.releases == releases
    shoe.board.clock.now += p.FRAME_TIMEOUT_MS + 1  # a frame left half sent is dropped
    assert shoe.ask(p.C_STATUS, 1)[0] == p.OK


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
    bursts = []
    shoe.protocol.on_burst = lambda: bursts.append(1)
    receipts = b"".join(p.frame(p.C_RECEIPT, n, bytes(16)) for n in range(11))  # eleven in one read
    shoe.protocol.feed(receipts)
    assert _statuses(shoe.out) == [p.OK] + [p.E_BUSY] * 10
    shoe.out[:] = b""
    shoe.protocol.feed(b"".join(p.frame(p.C_STATUS, n) for n in range(6)))  # the next pass: a new budget
    assert _statuses(shoe.out) == [p.OK] * 4 + [p.E_BUSY] * 2
    assert shoe.protocol.busy == 12 and shoe.protocol.bursts == 1 and bursts == [1]  # one burst, said once
    shoe.out[:] = b""
    assert shoe.ask(p.C_RECEIPT, 99, bytes(16))[0] == p.OK


class _Loop:
    """serve()'s runtime: each controller step takes the next of took (ms of the shoe's clock; a signed checkpoint's
    step takes hundreds on a production Pico), each pass reads the next of reads, then the loop is asked to end."""

    def __init__(self, shoe, took, reads):
        self.shell = shoe.board.shell
        self.clock = shoe.board.clock
        self.now = self.clock.ticks
        self.took = list(took)
        self.reads = list(reads)
        self.protocol = shoe.protocol
        self.passes = 0
        self.read_in = []  # the pass of each read of the cable

    def step(self):
        self.clock.now += self.took.pop(0)
        self.passes += 1

    def idle(self):
        pass

    def received(self):
        self.read_in.append(self.passes)
        if not self.reads:
            self.protocol.restart = True
            return b""
        return self.reads.pop(0)


@covers("S-FAILSAFE", "P-FUZZ")
def test_a_pass_whose_controller_step_was_slow_answers_no_expensive_request_only_cheap_ones():
    from firmware.runtime import Runtime

    shoe = _Shoe()
    receipt_and_status = p.frame(p.C_RECEIPT, 1, bytes(16)) + p.frame(p.C_STATUS, 2)
    loop = _Loop(shoe, (p.SLOW_PASS_MS, 1, 0), (receipt_and_status, p.frame(p.C_RECEIPT, 3, bytes(16))))
    was = Runtime.current
    try:
        p.serve(loop, shoe.protocol, loop.received)
    finally:
        Runtime.current = was
    # the slow pass's receipt busy (its signature would have followed the controller's in the same pass), its status
    # answered; the next pass's receipt answered
    assert _statuses(shoe.out) == [p.E_BUSY, p.OK, p.OK]
    assert shoe.protocol.longest == p.SLOW_PASS_MS and shoe.protocol.busy == 1


@covers("J-EVERY", "P-FUZZ")
def test_while_a_released_card_is_not_out_the_loop_leaves_the_cable_unread():
    from firmware.records import REL_DEAL, REL_NONE
    from firmware.runtime import Runtime

    shoe = _Shoe()
    ctl = shoe.board.shell.ctl
    in_flight = [REL_DEAL, REL_DEAL]  # the gate opened for a card: its reader's line due within ms, the loop parses it
    loop = _Loop(shoe, (0, 0, 0, 0), (p.frame(p.C_RECEIPT, 1, bytes(16)),))
    step = loop.step

    def released():  # the controller's pass: its card released for two passes, then out
        step()
        ctl.releasing = in_flight.pop() if in_flight else REL_NONE

    loop.step = released
    was = Runtime.current
    try:
        p.serve(loop, shoe.protocol, loop.received)
    finally:
        Runtime.current = was
    assert loop.read_in == [3, 4] and _statuses(shoe.out) == [p.OK]  # read once the card is out, then answered
