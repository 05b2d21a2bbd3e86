"""The shoe's protocol fuzzed (P-FUZZ): frames built by hypothesis for their structure, and a seeded mutator for
volume (over 100,000 frames: random bytes, and valid frames, authenticated ones included, with bits flipped, bytes
changed, cut, spliced, their CRC made right again), fed in pieces of every size. No exception escapes, the gate
never opens, nothing changes without the casino's key, every answer is a well-formed frame, and the receive buffer
never grows past its bound."""

import os
import random
import struct
from binascii import crc32

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware import protocol as p
from firmware.format import commands as c
from tests.host.protocol_shoe import CASINO, Shoe

COMMANDS = (c.C_STATUS, c.C_CHALLENGE, c.C_SEGMENTS, c.C_CHUNK, c.C_RECEIPT, c.C_ENROL, c.C_FIRMWARE,
            c.C_SEANCE_OPEN, c.C_SEANCE_CLOSE, c.C_CLOCK_SET, c.C_CASINO_KEY, c.C_NUMBER_SET)


class Watched:
    """A shoe whose every answer is read back as frames, and whose state is compared with its start."""

    def __init__(self):
        self.shoe = Shoe(seed=7)
        self.before = self.shoe.state()
        self.answers = 0
        self.reader = p.Framer(self._answer)

    def _answer(self, view):
        assert view[2] & p.ANSWER and len(view) > p.HEADER  # an answer: its command, a status
        self.answers += 1

    def feed(self, data):
        protocol = self.shoe.protocol
        protocol.feed(data)
        assert protocol.framer.fill <= p.FRAME_MAX == len(protocol.framer.buf)
        self.reader.feed(self.shoe.link.read(), 0)

    def check(self):
        assert self.shoe.state() == self.before
        assert not self.shoe.board.gate.is_open and self.reader.bad == 0 and self.reader.fill == 0


def fixed(frame):
    """The frame's length and CRC made right again, as a forger would, so that it reaches the dispatcher."""
    frame = bytearray(frame)
    if p.HEADER + p.CRC_SIZE <= len(frame) <= p.FRAME_MAX:
        struct.pack_into("<BH", frame, 4, frame[4], len(frame) - p.HEADER - p.CRC_SIZE)
        frame[-4:] = struct.pack("<I", crc32(frame[:-4]))
    return bytes(frame)


def corpus():
    """Valid frames of every command, the state-changing ones authenticated by a legitimate host (another shoe's
    challenge: replayed here, they must change nothing)."""
    legit = Shoe(seed=99)
    sent = []
    write = legit.link.write
    legit.link.write = lambda data: (sent.append(bytes(data)), write(data))
    client = legit.client
    client.seance(CASINO, 12, "chemin_de_fer", 4711)
    client.seance(CASINO, 12, "chemin_de_fer", 4711, close=True)
    client.set_clock(CASINO, 300000000, (2029, 7, 5, 12, 0, 0))
    client.set_number(CASINO, 42)
    client.casino_key(CASINO, bytes(32))
    client.segments()
    client.request(c.C_CHUNK, struct.pack("<IIH", 1, 0, 100))
    client.receipt(bytes(16))
    client.ask(c.C_ENROL)
    client.ask(c.C_FIRMWARE, bytes(34))
    return sent


def mutated(draw, corpus):
    choice = draw.random()
    if choice < 0.1:
        return draw.randbytes(draw.randrange(0, 600))
    frame = bytearray(draw.choice(corpus))
    for _ in range(draw.randrange(1, 4)):
        how = draw.randrange(6)
        at = draw.randrange(len(frame)) if frame else 0
        if how == 0 and frame:
            frame[at] ^= 1 << draw.randrange(8)
        elif how == 1 and frame:
            frame[at] = draw.randrange(256)
        elif how == 2:
            frame[at:at] = draw.randbytes(draw.randrange(1, 8))
        elif how == 3:
            del frame[at:at + draw.randrange(1, 8)]
        elif how == 4:
            frame = frame[:at]
        else:
            other = draw.choice(corpus)
            frame = frame[:at] + other[draw.randrange(len(other)):]
    return fixed(frame) if draw.random() < 0.6 else bytes(frame)


@pytest.mark.req("P-FUZZ", "P-FRAME", "P-AUTH", "S-FAILSAFE")
def test_a_hundred_thousand_random_and_mutated_frames_change_nothing_and_never_open_the_gate(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    draw = random.Random(24)
    frames = corpus()
    watched = Watched()
    challenge = p.frame(c.C_CHALLENGE, 1)
    stream = bytearray()
    for n in range(100_000):
        if n % 7 == 0:
            stream += challenge  # a challenge outstanding: forged tags are checked, not refused for want of one
        stream += mutated(draw, frames)
        if draw.random() < 0.3 or len(stream) > 2048:
            while stream:
                cut = draw.randrange(1, 700)
                watched.feed(bytes(stream[:cut]))
                del stream[:cut]
            watched.check()
        if n % 5000 == 0:
            watched.shoe.board.clock.now += draw.randrange(0, 2 * p.FRAME_TIMEOUT_MS)  # half frames time out
    watched.feed(bytes(stream))
    watched.feed(p.frame(c.C_STATUS, 1))  # still answering after all that
    watched.check()
    counters = watched.shoe.protocol.counters()
    assert watched.answers > 20_000 and counters["bad_frames"] > 20_000 and counters["refused"] > 5_000, counters


@pytest.mark.req("P-FUZZ", "P-FRAME", "P-AUTH")
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(COMMANDS) | st.integers(0, 255), st.integers(0, 0xFFFF),
                          st.binary(max_size=p.PAYLOAD_MAX), st.booleans()), max_size=8),
       st.integers(1, 64))
def test_well_framed_requests_of_any_command_and_payload_are_answered_and_change_nothing(requests, piece):
    watched = Watched()
    expected = 0
    for command, seq, payload, challenge_first in requests:
        if challenge_first:
            watched.feed(p.frame(c.C_CHALLENGE, seq))
            expected += 1
        data = p.frame(command, seq, payload)
        for at in range(0, len(data), piece):
            watched.feed(data[at:at + piece])
        expected += 0 if command & p.ANSWER else 1  # an answer is never answered
    watched.check()
    assert watched.answers == expected  # every well-framed request answered, once


@pytest.mark.req("P-FUZZ")
def test_random_bytes_alone_are_ignored_and_the_buffer_stays_bounded(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    watched = Watched()
    draw = random.Random(5)
    for _ in range(2000):
        watched.feed(draw.randbytes(draw.randrange(1, 2000)))
    watched.feed(bytes(p.FRAME_MAX * 3))
    watched.feed(os.urandom(0))
    watched.check()
