"""The verifier's C core (host_tools/sabot/_frames.c) against the format as docs/journal-format.md defines it,
recomputed here with CPython's hashlib, hmac and zlib (J-TAMPER)."""

import hashlib
import hmac
import struct
import zlib
from array import array

import pytest

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import journal as fmt
from firmware import layout
from firmware.records import R_CARD, R_LOAD
from sabot import _frames
from sabot.journalfile import CODE

SHOE = "seance table=4\nshoe seed=9\nno_more_bets\ndraw 4\ncoup_end\nno_more_bets\ndraw 5\ncoup_end"
KEYS = (b"k" * 16, b"a shoe's key of 32 bytes exactly", bytes(range(100)))  # the last one longer than a block


def journal(secret):
    """The segment the séance opened, which holds the shoe."""
    storage = MemoryStorage(1 << 20)
    board = SimBoard(storage)
    board.key = fmt.Key(secret)
    run(parse(SHOE), board)
    return bytes(storage.files[max(storage.files)])


def seq_before(data):
    return struct.unpack_from("<I", data, 72)[0]


def frames_of(data):
    return [data[at:at + layout.FRAME_SIZE] for at in range(layout.HEADER_SIZE, len(data), layout.FRAME_SIZE)]


def start_chain(data):
    return hashlib.sha256(data[36:68] + data[:layout.HEADER_TAG_AT]).digest()


def scan(secret, data, types=0):
    (found,) = _frames.Checker(secret).scan([(data, layout.HEADER_SIZE, start_chain(data), seq_before(data))], types)
    return found


@pytest.mark.req("J-TAMPER")
def test_the_c_core_is_compiled_for_the_formats_layout():
    for name in ("SYNC", "BODY_SIZE", "SEQ_AT", "BODY_AT", "LINK_AT", "TAG_AT", "CRC_AT", "FRAME_SIZE", "LINK_SIZE",
                 "TAG_SIZE"):
        assert getattr(_frames, name) == getattr(layout, name), name


@pytest.mark.req("J-TAMPER")
@pytest.mark.parametrize("secret", KEYS, ids=("16 bytes", "32 bytes", "100 bytes"))
def test_the_c_core_accepts_the_chain_and_tags_that_rfc_2104_gives(secret):
    data = journal(secret)
    frames = frames_of(data)
    chain = start_chain(data)
    for frame in frames:  # the format, recomputed from its document
        assert frame[layout.LINK_AT:layout.TAG_AT] == chain[:layout.LINK_SIZE]
        chain = hashlib.sha256(chain + frame[:layout.TAG_AT]).digest()
        assert frame[layout.TAG_AT:layout.CRC_AT] == hmac.digest(secret, chain, "sha256")[:layout.TAG_SIZE]
        assert struct.unpack_from("<I", frame, layout.CRC_AT)[0] == zlib.crc32(frame[:layout.CRC_AT])

    end, seq, last_chain, broken, records, first_seq, _, _, issues, selected = scan(secret, data, 1 << R_CARD)
    rows = _frames.rows(data, selected)
    offsets = memoryview(selected).cast("I")
    before = seq_before(data)
    assert before > 0  # the séance's segment follows the boot's
    assert (end, seq, last_chain, broken, records, first_seq, issues) == (
        len(data), before + len(frames), chain, 0, len(frames), before + 1, [])
    cards = [f for f in frames if f[layout.BODY_AT] == R_CARD]
    assert len(cards) == len(rows) == 9
    for row, offset, frame in zip(rows, offsets, cards, strict=True):
        assert data[offset:offset + layout.FRAME_SIZE] == frame
        seq, kind, seconds, ms, *fields = struct.unpack_from("<I" + layout.BODY[1:], frame, layout.SEQ_AT)
        assert len(row) == CODE + 1 and row == (seq, kind, seconds * 1000 + ms, *fields)


@pytest.mark.req("J-TAMPER")
def test_a_tag_made_under_another_key_is_forged_even_with_a_good_crc():
    secret = KEYS[1]
    data = bytearray(journal(secret))
    frames = frames_of(bytes(data))
    at = next(i for i, f in enumerate(frames) if f[layout.BODY_AT] == R_LOAD)
    offset = layout.HEADER_SIZE + at * layout.FRAME_SIZE
    chain = start_chain(bytes(data))
    for frame in frames[:at + 1]:
        chain = hashlib.sha256(chain + frame[:layout.TAG_AT]).digest()
    tag = hmac.digest(b"another key, 16+", chain, "sha256")[:layout.TAG_SIZE]
    data[offset + layout.TAG_AT:offset + layout.CRC_AT] = tag
    struct.pack_into("<I", data, offset + layout.CRC_AT, zlib.crc32(data[offset:offset + layout.CRC_AT]))
    issues = scan(secret, bytes(data))[8]
    before = seq_before(bytes(data))
    assert issues == [(_frames.FORGED, before + at + 1, offset, before + at)]


@pytest.mark.req("J-TAMPER")
def test_the_c_core_refuses_what_is_not_a_segment_with_an_error_not_a_crash():
    checker = _frames.Checker(KEYS[0])
    with pytest.raises(ValueError, match="32 bytes"):
        checker.scan([(b"SBJ", layout.HEADER_SIZE, bytes(31), 0)], 0)
    with pytest.raises(TypeError, match="bytes-like"):
        checker.scan([("not bytes", 0, bytes(32), 0)], 0)
    with pytest.raises(TypeError, match="a segment is"):
        checker.scan([(b"SBJ", 0)], 0)
    with pytest.raises(ValueError, match="past the data"):
        _frames.rows(bytes(100), array("I", [99]).tobytes())  # a frame at 99 would end past byte 100
    assert checker.scan([(bytes(10), layout.HEADER_SIZE, bytes(32), 7)], 0) == [
        (layout.HEADER_SIZE, 7, bytes(32), 0, 0, 0, 0, 0, [], b"")]  # no whole frame: nothing read, nothing found
