"""Any change to a journal after it was written is caught by `sabot log verify` (J-TAMPER, H-VERIFY)."""

import json
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import layout as fmt
from firmware.devkey import DEVELOPMENT_KEY
from firmware.mac import Key
from sabot.journalfile import Unusable
from sabot.receipts import NO_RECEIPT
from sabot.verify import check
from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")
SMALL = "seance table=2\nshoe seed=5\nburn\nno_more_bets\ndraw 4\ncoup_end\nforce\nclear_alarm"


def journal(text, segment_records=None):
    """{segment number: bytes} of the journal a scenario leaves."""
    storage = MemoryStorage(1 << 22)
    run(parse(text), SimBoard(storage, segment_records=segment_records))
    return {n: bytes(d) for n, d in storage.files.items()}


def write(folder, files):
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for n, data in files.items():
        (folder / ("%08d.sbj" % n)).write_bytes(data)
    return folder


def tamper_findings(folder, key=DEVELOPMENT_KEY):
    """The J-TAMPER findings, or ["unusable: ..."] when the verifier refuses the input outright (exit 2)."""
    try:
        _, _, findings = check([folder], key)
    except Unusable as e:
        return ["unusable: %s" % e]
    return [f.message for f in findings if f.id == "J-TAMPER"]


def frames(data):
    """A segment's header and its frames."""
    return data[:fmt.HEADER_SIZE], [data[at:at + fmt.FRAME_SIZE]
                                    for at in range(fmt.HEADER_SIZE, len(data), fmt.FRAME_SIZE)]


@pytest.mark.req("J-TAMPER")
def test_the_untouched_journals_are_intact(tmp_path):
    for text in (SMALL, (SCENARIOS / "full_shoe_chemin_de_fer.txt").read_text()):
        assert tamper_findings(write(tmp_path / "j", journal(text, segment_records=100))) == []


@pytest.mark.req("J-TAMPER")
def test_every_single_byte_change_of_a_small_journal_is_caught(tmp_path):
    files = journal(SMALL)
    folder = tmp_path / "j"
    changes = 0
    for n, data in files.items():
        for at in range(len(data)):
            for flip in (0x01, 0x80, 0xFF):
                edited = bytearray(data)
                edited[at] ^= flip
                write(folder, {**files, n: bytes(edited)})
                assert tamper_findings(folder), "segment %d byte %d ^ %#x went unseen" % (n, at, flip)
                changes += 1
    print("\n%d single-byte changes, all caught" % changes)
    assert changes == 3 * sum(len(d) for d in files.values())


@pytest.mark.req("J-TAMPER")
def test_random_changes_over_a_full_shoe_are_caught(tmp_path):
    files = journal((SCENARIOS / "full_shoe_chemin_de_fer.txt").read_text(), segment_records=128)
    folder = tmp_path / "j"
    rng = random.Random(2026)
    for _ in range(300):
        n = rng.choice(sorted(files))
        edited = bytearray(files[n])
        for _ in range(rng.randint(1, 3)):
            edited[rng.randrange(len(edited))] ^= rng.randint(1, 255)
        write(folder, {**files, n: bytes(edited)})
        assert tamper_findings(folder)


def _edited_frames(files, segment, edit):
    header, body = frames(files[segment])
    return {**files, segment: header + b"".join(edit(list(body)))}


@pytest.mark.req("J-TAMPER")
@pytest.mark.parametrize("name,edit", [
    ("deleted", lambda f: f[:5] + f[6:]),
    ("duplicated", lambda f: f[:6] + [f[5]] + f[6:]),
    ("swapped", lambda f: f[:4] + [f[5], f[4]] + f[6:]),
    ("inserted from another journal", None),
    ("re-sequenced after a deletion", None),
])
def test_records_deleted_duplicated_swapped_or_inserted_are_caught(tmp_path, name, edit):
    files = journal(SMALL)
    last = max(files)
    if name == "inserted from another journal":
        _, foreign = frames(journal(SMALL.replace("seed=5", "seed=6"))[last])

        def edit(f):
            return f[:7] + [foreign[7]] + f[7:]
    elif name == "re-sequenced after a deletion":
        def edit(f):  # the forger renumbers and fixes every CRC, but has no key for the tags
            kept = f[:5] + f[6:]
            fixed = []
            for i, frame in enumerate(kept):
                frame = bytearray(frame)
                struct.pack_into("<I", frame, fmt.SEQ_AT, struct.unpack_from("<I", kept[0], fmt.SEQ_AT)[0] + i)
                from binascii import crc32
                struct.pack_into("<I", frame, fmt.CRC_AT, crc32(frame[:fmt.CRC_AT]))
                fixed.append(bytes(frame))
            return fixed
    found = tamper_findings(write(tmp_path / "j", _edited_frames(files, last, edit)))
    assert found, name


@pytest.mark.req("J-TAMPER")
def test_a_removed_middle_segment_is_caught(tmp_path):
    files = journal((SCENARIOS / "incidents.txt").read_text(), segment_records=8)
    assert len(files) > 4
    del files[3]
    assert any("segments 3 to 3 are missing" in m for m in tamper_findings(write(tmp_path / "j", files)))


@pytest.mark.req("J-TAMPER")
def test_truncation_at_the_end_is_reported_as_truncation(tmp_path):
    files = journal(SMALL)
    last = max(files)
    for cut in (1, 20, fmt.FRAME_SIZE - 1, fmt.FRAME_SIZE + 7):
        found = tamper_findings(write(tmp_path / "j", {**files, last: files[last][:-cut]}))
        assert len(found) == 1 and found[0].startswith("journal truncated: %d bytes after seq" % (
            (len(files[last]) - cut - fmt.HEADER_SIZE) % fmt.FRAME_SIZE)), found


@pytest.mark.req("J-TAMPER")
def test_a_format_3_journal_under_another_key_fails_every_tag_said_once():
    folder = Path(__file__).resolve().parents[1] / "fixtures" / "journal-v3" / "incidents"  # tagged under HMAC keys
    other = b"another shoe's key, 32 bytes...!"
    found = tamper_findings(folder, key=other)
    # Every tag fails: said once, with the key id the journal was written under and the one given.
    assert len(found) == 1 and "written under another key" in found[0]
    assert Key(DEVELOPMENT_KEY).id.hex() in found[0] and Key(other).id.hex() in found[0]


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_the_cli_exits_1_on_tampering_and_names_requirement_article_and_seq(tmp_path):
    files = journal(SMALL)
    folder = write(tmp_path / "j", files)
    clean = subprocess.run([SABOT, "log", "verify", str(folder), "--json"], capture_output=True, text=True)
    result = json.loads(clean.stdout)
    assert clean.returncode == 1  # the scenario forces a card: a finding, though the journal is intact
    assert result["ok"] is False and result["intact"] is True and result["records"] > 10
    assert [(f["id"], f["message"]) for f in result["findings"]] == [
        ("S-FORCED", result["findings"][0]["message"]), ("J-TAMPER", NO_RECEIPT)]  # no shoe signed its end
    last = max(files)
    edited = bytearray(files[last])
    edited[fmt.HEADER_SIZE + 3 * fmt.FRAME_SIZE + fmt.BODY_AT + 13] ^= 1  # the fourth record's card
    write(folder, {**files, last: bytes(edited)})
    run_ = subprocess.run([SABOT, "log", "verify", str(folder), "--json"], capture_output=True, text=True)
    result = json.loads(run_.stdout)
    assert run_.returncode == 1 and result["intact"] is False
    tamper = [f for f in result["findings"] if f["id"] == "J-TAMPER"]
    assert tamper[0] == {"id": "J-TAMPER", "article": "Article 58", "seq": tamper[0]["seq"],
                         "message": tamper[0]["message"]}
    assert tamper[0]["seq"] == struct.unpack_from("<I", files[last], fmt.HEADER_SIZE + 3 * fmt.FRAME_SIZE + 2)[0]


@pytest.mark.req("H-VERIFY")
@pytest.mark.parametrize("name,content,message", [
    ("random.sbj", bytes(random.Random(1).randrange(256) for _ in range(4000)), "not a sabot journal"),
    ("empty.sbj", b"", "empty file"),
    ("other.sbj", b"%PDF-1.7\n" + bytes(300), "not a sabot journal"),
    ("future.sbj", b"SBJ\x09" + bytes(300), "journal format version 9; this verifier reads versions 3, 4 and 5"),
    ("short.sbj", b"SBJ\x03" + bytes(20), "cut short inside its header"),
])
def test_garbage_in_gets_a_clear_message_and_exit_2(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    for command in (["verify"], ["verify", "--json"], ["export"], ["show"]):
        run_ = subprocess.run([SABOT, "log", command[0], str(path)] + command[1:], capture_output=True, text=True)
        assert run_.returncode == 2, command
        assert message in run_.stderr and "Traceback" not in run_.stderr


@pytest.mark.req("H-VERIFY")
def test_unusable_paths_and_keys_exit_2(tmp_path):
    folder = write(tmp_path / "j", journal(SMALL))
    (tmp_path / "bad.key").write_text("not hex")
    (tmp_path / "empty").mkdir()
    for args, message in (
        ([str(tmp_path / "nowhere")], "no such file or folder"),
        ([str(tmp_path / "empty")], "no journal segments"),
        ([str(folder), "--key", str(tmp_path / "bad.key")], "not a key file"),
        ([str(folder), "--key", str(tmp_path / "missing.key")], "no such key file"),
    ):
        run_ = subprocess.run([SABOT, "log", "verify", "--lang", "en"] + args, capture_output=True, text=True)
        assert run_.returncode == 2 and message in run_.stderr and "Traceback" not in run_.stderr, args
