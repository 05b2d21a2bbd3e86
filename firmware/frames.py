"""The protocol's codec (docs/protocol.md), both ends': frames of bounded length checked by CRC-32, the authenticator
of a state-changing command, and the Framer that takes frames out of bytes as they come. Split from
firmware/protocol.py, which re-exports every name."""

import struct
from binascii import crc32

from firmware.compat import const
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
