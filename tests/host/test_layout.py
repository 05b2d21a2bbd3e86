"""sabot._frames (C) reads frames by its own #defines: each must be firmware/layout.py's (J-TAMPER, H-VERIFY)."""

import re
from pathlib import Path

import pytest

from firmware import layout, records
from sabot.journalfile import V3

SOURCE = Path(__file__).resolve().parents[2] / "host_tools" / "sabot" / "_frames.c"


def _defines():
    """The C file's integer #defines, each expression evaluated over those before it."""
    found = {}
    for name, value in re.findall(r"^#define ([A-Z0-9_]+) ([^/\n]+)", SOURCE.read_text(), re.M):
        try:
            found[name] = eval(value, {}, dict(found))  # noqa: S307 (our own C file)
        except (NameError, SyntaxError):
            pass  # not an integer: sizeof, a flag for a header
    return found


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_the_c_readers_offsets_are_the_layouts():
    c = _defines()
    for name in ("SYNC", "BODY_SIZE", "SEQ_AT", "BODY_AT", "LINK_AT", "CRC_AT", "FRAME_SIZE", "LINK_SIZE",
                 "CHAIN_SIZE"):
        assert c[name] == getattr(layout, name), name
    v3 = V3.frame_size  # format 3, which the verifier keeps reading: its tag (16 bytes) before its CRC
    assert (c["V3_FRAME_SIZE"], c["V3_CRC_AT"], c["V3_TAG_AT"], c["TAG_SIZE"]) == (v3, v3 - 4, v3 - 20, 16)
    assert c["SECONDS_AT"] == layout.BODY_AT + layout.BODY_SECONDS
    assert c["MS_AT"] == layout.BODY_AT + layout.BODY_MS
    assert c["CODE_AT"] == layout.BODY_AT + layout.BODY_CODE
    assert c["PLACE_AT"] == layout.BODY_AT + layout.BODY_SEANCE
    assert c["PLACE_SIZE"] == layout.BODY_CARD - layout.BODY_SEANCE
    assert (c["R_BOOT"], c["R_RELEASE"]) == (records.R_BOOT, records.R_RELEASE)


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_the_c_readers_checkpoint_entry_is_the_firmwares():
    """A checkpoint entry: version, reason, sabot, counter, segment, seq, chain value, then signature and CRC."""
    import struct

    from firmware.format import checkpoint as cp
    c = _defines()
    at = {name: struct.calcsize("<" + cp.ENTRY[1:i]) for name, i in (
        ("ENTRY_SABOT_AT", 3), ("ENTRY_COUNTER_AT", 4), ("ENTRY_SEGMENT_AT", 5), ("ENTRY_SEQ_AT", 6),
        ("ENTRY_CHAIN_AT", 7))}
    assert {name: c[name] for name in at} == at
    assert (c["ENTRY_SIZE"], c["ENTRY_CRC_AT"], c["ENTRY_VERSION"], c["ENTRY_BEGUN"]) == (
        cp.SIZE, cp.CRC_AT, cp.VERSION, cp.BEGUN)


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_the_c_readers_row_is_the_body_in_the_layouts_order():
    """Each row field (at, size) of _frames.c: the sequence number, then every body field where BODY puts it."""
    text = SOURCE.read_text()
    rows = re.search(r"ROW_FIELDS\[\]\[2\] = \{(.*?)\};", text, re.S).group(1)
    fields = [(int(at), size) for at, size in re.findall(r"\{(\d+), (\w+)\}", rows)]
    expected, at = [(layout.SEQ_AT, "4")], layout.BODY_AT
    for code in layout.BODY[1:]:
        size = {"B": 1, "H": 2, "I": 4}[code]
        expected.append((at, str(size)))
        at += size
    expected[2:4] = [(layout.BODY_AT + layout.BODY_SECONDS, "TIME_FIELD")]  # seconds and ms: one time
    assert fields == expected
    assert len(fields) == len(layout.FIELDS)
