"""The verifier's C core (host_tools/sabot/_frames.c) against the format as docs/journal-format.md defines it,
recomputed here with CPython's hashlib and zlib; format 3's tags with hmac (J-TAMPER)."""

import hashlib
import hmac
import struct
import zlib
from array import array
from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import layout
from firmware.devkey import DEVELOPMENT_KEY
from firmware.records import R_CARD
from sabot import _frames
from sabot.journalfile import CODE, V3, V5

SHOE = "seance table=4\nshoe seed=9\nno_more_bets\ndraw 4\ncoup_end\nno_more_bets\ndraw 5\ncoup_end"
V3_JOURNAL = Path(__file__).resolve().parents[1] / "fixtures" / "journal-v3" / "incidents"  # the sim's, format 3
V3_TAG_AT, V3_CRC_AT = V3.frame_size - 20, V3.frame_size - 4


def journal():
    """The segment the séance opened, which holds the shoe."""
    storage = MemoryStorage(1 << 20)
    run(parse(SHOE), SimBoard(storage))
    return bytes(storage.files[max(storage.files)])


def seq_before(data):
    return struct.unpack_from("<I", data, 72)[0]


def frames_of(data, form=V5):
    return [data[at:at + form.frame_size] for at in range(form.header_size, len(data), form.frame_size)]


def start_chain(data):
    # the header's bytes before its tag (v3) or CRC (v5's at 178)
    return hashlib.sha256(data[36:68] + data[:162 if data[3] == 3 else 178]).digest()


def scan(data, types=0, secret=None, form=V5, wanted=()):
    (found,) = _frames.Checker(secret).scan([(data, form.header_size, start_chain(data), seq_before(data),
                                              array("I", wanted).tobytes())], types)
    return found


@pytest.mark.req("J-TAMPER")
def test_the_c_core_is_compiled_for_the_formats_layout():
    for name in ("SYNC", "BODY_SIZE", "SEQ_AT", "BODY_AT", "LINK_AT", "CRC_AT", "FRAME_SIZE", "LINK_SIZE"):
        assert getattr(_frames, name) == getattr(layout, name), name
    assert (_frames.V3_FRAME_SIZE, _frames.V3_TAG_AT, _frames.V3_CRC_AT) == (V3.frame_size, V3_TAG_AT, V3_CRC_AT)


@pytest.mark.req("J-TAMPER")
def test_the_c_core_accepts_the_chain_the_format_gives_one_sha_256_of_each_body():
    data = journal()
    frames = frames_of(data)
    chain = start_chain(data)
    chains = []
    for frame in frames:  # the format, recomputed from its document
        assert frame[layout.LINK_AT:layout.CRC_AT] == chain[:layout.LINK_SIZE]
        chain = hashlib.sha256(chain + frame[layout.BODY_AT:layout.LINK_AT]).digest()
        chains.append(chain)
        assert struct.unpack_from("<I", frame, layout.CRC_AT)[0] == zlib.crc32(frame[:layout.CRC_AT])

    before = seq_before(data)
    end, seq, last_chain, broken, records, first_seq, _, _, issues, selected, kept = scan(
        data, 1 << R_CARD, wanted=(before + 3, before + len(frames), before + len(frames) + 5))
    assert kept[:64] == chains[2] + chain and kept[64:] == bytes(32)  # the checkpoints' seqs; one not reached
    rows = _frames.rows(data, selected)
    offsets = memoryview(selected).cast("I")
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
def test_a_record_altered_with_a_good_crc_breaks_the_chain_at_the_next_record():
    """No tag in format 4: a record rewritten and its CRC made good is caught by the link of the one after it."""
    data = bytearray(journal())
    frames = frames_of(bytes(data))
    at = next(i for i, f in enumerate(frames) if f[layout.BODY_AT] == R_CARD)
    offset = layout.HEADER_SIZE + at * layout.FRAME_SIZE
    data[offset + layout.BODY_AT + 15] ^= 1  # another card
    struct.pack_into("<I", data, offset + layout.CRC_AT, zlib.crc32(data[offset:offset + layout.CRC_AT]))
    _, _, _, broken, _, _, _, _, issues, _, _ = scan(bytes(data))
    before = seq_before(bytes(data))
    assert broken and issues == [(_frames.UNLINKED, before + at + 2, offset + layout.FRAME_SIZE, before + at + 1)]


@pytest.mark.req("J-TAMPER")
def test_format_3s_chain_and_tags_are_checked_as_rfc_2104_gives_and_another_keys_tag_is_forged():
    """The verifier keeps reading format 3 (docs/journal-format.md, "Format 3"): a journal the sim wrote in it."""
    data = (V3_JOURNAL / "00000002.sbj").read_bytes()
    assert data[3] == 3
    frames = frames_of(data, V3)
    chain = start_chain(data)
    for frame in frames:
        chain = hashlib.sha256(chain + frame[:V3_TAG_AT]).digest()
        assert frame[V3_TAG_AT:V3_CRC_AT] == hmac.digest(DEVELOPMENT_KEY, chain, "sha256")[:16]
    found = scan(data, 0, DEVELOPMENT_KEY, V3)
    assert found[:5] == (len(data), seq_before(data) + len(frames), chain, 0, len(frames)) and found[8] == []
    forged = bytearray(data)
    offset = V3.header_size + 3 * V3.frame_size
    forged[offset + V3_TAG_AT:offset + V3_CRC_AT] = bytes(16)
    struct.pack_into("<I", forged, offset + V3_CRC_AT, zlib.crc32(forged[offset:offset + V3_CRC_AT]))
    before = seq_before(data)
    assert scan(bytes(forged), 0, DEVELOPMENT_KEY, V3)[8] == [(_frames.FORGED, before + 4, offset, before + 3)]
    assert scan(data, 0, b"another key, 16+", V3)[8][0][0] == _frames.FORGED


@pytest.mark.req("J-TAMPER")
def test_the_c_core_refuses_what_is_not_a_segment_with_an_error_not_a_crash():
    checker = _frames.Checker()
    with pytest.raises(ValueError, match="32 bytes"):
        checker.scan([(b"SBJ", layout.HEADER_SIZE, bytes(31), 0)], 0)
    with pytest.raises(TypeError, match="bytes-like"):
        checker.scan([("not bytes", 0, bytes(32), 0)], 0)
    with pytest.raises(TypeError, match="a segment is"):
        checker.scan([(b"SBJ", 0)], 0)
    with pytest.raises(ValueError, match="past the data"):
        _frames.rows(bytes(100), array("I", [99]).tobytes())  # a frame at 99 would end past byte 100
    assert checker.scan([(bytes(10), layout.HEADER_SIZE, bytes(32), 7)], 0) == [
        (layout.HEADER_SIZE, 7, bytes(32), 0, 0, 0, 0, 0, [], b"", b"")]  # no whole frame: nothing read, nothing found
