"""The shoe's protocol (docs/protocol.md) as the host's client speaks it to a shoe: reads answered, the journal
pulled byte for byte, state-changing commands only under the casino's key and a challenge used once, malformed
frames refused and counted."""

import json
import os
import struct

import pytest

from boards.sim.element import SimElement
from firmware import protocol as p
from firmware.format import commands as c
from firmware.mac import Key
from sabot.device import DeviceError
from sabot.mpremote_link import mpremote
from sabot.protocol import Refused
from tests.conftest import SCENARIOS
from tests.host.protocol_shoe import CASINO, Shoe
from tests.host.test_element import _element
from tests.host.test_vboard import VirtualBoard, sabot


@pytest.fixture
def shoe(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the shoe's filesystem: no journal of another shoe on it
    return Shoe()


@pytest.mark.req("P-FRAME", "P-PULL", "J-TAMPER")
def test_the_journal_pulled_over_the_protocol_is_the_shoes_byte_for_byte_with_its_receipt(shoe):
    client = shoe.client
    assert client.seance(CASINO, 12, "chemin_de_fer", 4711)[0] == c.OK  # a second segment, per séance
    listed = client.segments()
    assert [s for s, _ in listed] == sorted(shoe.journal()) and len(listed) == 3
    assert {s: client.segment(s, size) for s, size in listed} == shoe.journal()
    nonce = os.urandom(16)
    receipt = client.receipt(nonce)
    assert receipt["nonce"] == nonce.hex() and receipt["seq"] == shoe.board.shell.journal.seq
    status = client.status()
    assert status["seq"] == receipt["seq"] and status["casino"] == CASINO.id.hex()
    assert status["bad_frames"] == status["refused"] == 0


@pytest.mark.req("P-AUTH", "S-IDENT")
def test_a_seance_opens_under_the_casinos_key_and_a_replayed_or_forged_command_changes_nothing(shoe):
    client = shoe.client
    status, answer = client.seance(CASINO, 12, "chemin_de_fer", 4711)
    assert status == c.OK and answer["table"] == 12 and answer["by_key"] == CASINO.id.hex()
    sent = []
    write = shoe.link.write
    shoe.link.write = lambda data: (sent.append(bytes(data)), write(data))
    assert client.seance(CASINO, 9, "chemin_de_fer", 1, close=True)[0] == c.OK
    before, close = shoe.state(), sent[-1]
    write(close)  # the close, replayed as captured: its challenge was spent
    assert shoe.link.read()[p.HEADER] == c.E_CHALLENGE
    client.request(c.C_CHALLENGE)
    write(close)  # and under a fresh challenge it no longer authenticates
    assert shoe.link.read()[p.HEADER] == c.E_AUTH
    assert client.seance(Key(bytes(32)), 5, "chemin_de_fer", 1)[0] == c.E_AUTH  # another key
    assert client.ask(c.C_SEANCE_OPEN, bytes(21 + p.TAG_SIZE))[0] == c.E_CHALLENGE  # no challenge asked
    assert shoe.state() == before
    assert client.status()["refused"] == 4


@pytest.mark.req("P-AUTH")
def test_a_shoe_without_the_casinos_key_accepts_no_command_and_answers_every_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shoe = Shoe(casino=None)
    before = shoe.state()
    assert shoe.client.seance(CASINO, 12, "chemin_de_fer", 1)[0] == c.E_NO_KEY
    assert shoe.client.set_clock(CASINO, 300000000, (2029, 7, 5, 12, 0, 0))[0] == c.E_NO_KEY
    assert shoe.state() == before and shoe.client.status()["casino"] is None


@pytest.mark.req("P-AUTH", "J-TIME")
def test_the_clock_is_set_under_the_casinos_key_never_behind_the_journal_and_the_shoe_restarts(shoe):
    last = shoe.client.status()["seconds"]
    status, answer = shoe.client.set_clock(CASINO, last - 1, (2026, 11, 30, 7, 59, 59))
    assert status == c.E_BEHIND and answer == {"behind": last} and not shoe.protocol.restart
    assert shoe.client.set_clock(CASINO, last + 60, (2026, 13, 30, 8, 1, 0))[0] == c.E_ARGUMENT
    assert shoe.clocks == []
    assert shoe.client.set_clock(CASINO, last + 60, (2026, 11, 30, 8, 1, 0)) == (c.OK, {"set": last + 60,
                                                                                       "forced": False})
    assert shoe.clocks == [(2026, 11, 30, 8, 1, 0)] and shoe.protocol.restart


@pytest.mark.req("P-FRAME")
def test_garbage_a_broken_crc_an_overlong_length_and_an_unfinished_frame_are_skipped_and_counted(shoe):
    good = p.frame(c.C_STATUS, 7)
    broken = bytearray(good)
    broken[-1] ^= 1
    overlong = struct.pack("<BBBHH", p.MAGIC, p.VERSION, c.C_STATUS, 8, p.PAYLOAD_MAX + 1)
    shoe.protocol.feed(b"print(1)\r\n\x03\x01\x04" + bytes(broken) + overlong + good)
    answers = shoe.link.read()
    assert answers[2] == c.C_STATUS | p.ANSWER and answers[3] == 7 and answers[p.HEADER] == c.OK
    assert len(answers) == p.HEADER + struct.unpack_from("<H", answers, 5)[0] + p.CRC_SIZE  # one answer, no more
    shoe.protocol.feed(good[:5])
    shoe.board.advance(p.FRAME_TIMEOUT_MS + 1)
    shoe.protocol.feed(p.frame(c.C_STATUS, 9))  # the half frame is dropped, the next one read
    assert shoe.link.read()[3] == 9
    status = shoe.client.status()
    assert status["bad_frames"] >= 4 and status["refused"] == 0


@pytest.mark.req("P-FRAME")
def test_unknown_commands_wrong_lengths_and_other_versions_are_answered_refused_and_counted(shoe):
    client = shoe.client
    assert client.ask(0x33)[0] == c.E_UNKNOWN
    assert client.ask(0x7F, bytes(40))[0] == c.E_UNKNOWN
    shoe.protocol.feed(p.frame(c.C_STATUS | p.ANSWER, 4, b"\0"))  # an answer echoed back is never answered
    assert shoe.link.read() == b""
    assert client.ask(c.C_STATUS, b"x")[0] == c.E_LENGTH
    assert client.ask(c.C_RECEIPT, bytes(8))[0] == c.E_LENGTH  # a nonce of at least 16 bytes
    assert client.ask(c.C_CHUNK, struct.pack("<IIH", 99, 0, 10))[0] == c.E_NOT_FOUND
    other = bytearray(p.frame(c.C_STATUS, 3))
    other[1] = 2
    other[-4:] = struct.pack("<I", __import__("binascii").crc32(other[:-4]))
    shoe.protocol.feed(bytes(other))
    assert shoe.link.read()[p.HEADER] == c.E_VERSION
    with pytest.raises(Refused, match="no secure element"):
        client.request(c.C_ENROL)  # until the element is fitted
    assert client.status()["refused"] == 5


@pytest.mark.req("P-FRAME", "P-AUTH", "P-PULL", "H-VERIFY")
def test_a_production_virtual_board_answers_no_repl_and_is_pulled_and_commanded_over_the_protocol(mpy_build,
                                                                                                  tmp_path):
    casino = tmp_path / "casino.key"
    casino.write_text(bytes(range(32, 64)).hex())
    (tmp_path / "fs" / "keys").mkdir(parents=True)
    (tmp_path / "fs" / "keys" / "casino.key").write_text(casino.read_text())
    board = VirtualBoard(tmp_path, "--scenario", str(SCENARIOS / "incidents.txt"), production=True)
    try:
        with pytest.raises(DeviceError):
            mpremote(board.port, "exec", "print(1)", timeout=30)  # no prompt, whatever it sends
        refused = sabot("seance", "open", "--port", board.port, "--table", 12, "--by", 4711)
        assert refused.returncode == 2 and "--casino-key" in refused.stderr
        opened = sabot("seance", "open", "--port", board.port, "--table", 12, "--by", 4711, "--casino-key", casino)
        assert opened.returncode == 0 and "opened at table 12" in opened.stdout, opened.stderr
        clock = sabot("clock", "set", "--port", board.port, "--at", "2027-02-01T00:00:00", "--casino-key", casino,
                      "--force")  # two months ahead of the journal: forced, journalled so (P-AUTHORITY)
        assert clock.returncode == 0 and "it restarted: boot record" in clock.stdout, clock.stderr
        assert "FORCÉE" in clock.stdout, clock.stdout
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "pulled", "--quiet")
        assert pulled.returncode == 0, pulled.stderr
    finally:
        board.close()
    assert {p.name for p in (tmp_path / "pulled").glob("*.sbj")} == {p.name for p in
                                                                      (tmp_path / "fs" / "journal").glob("*.sbj")}
    shown = sabot("log", "show", tmp_path / "pulled", "--lang", "en", "--quiet")
    assert "table 12, chemin de fer, assigned by employee 4711" in shown.stdout
    assert "2027-02-01 00:00:00 UTC" in shown.stdout.splitlines()[-1]
    verified = sabot("log", "verify", tmp_path / "pulled", "--allow-development-key", "--receipt",
                     tmp_path / "pulled" / "receipt.json", "--quiet", "--lang", "en")
    assert "integrity: intact" in verified.stdout  # its element's receipt, not checked without its public key:
    assert "end: as the shoe's receipt says, its element's signature not checked" in verified.stdout
    assert verified.stdout.count("S-FORCED") == 1, verified.stdout  # the scenario's own incidents, nothing else
    # The receipt over the protocol is the element's (version 2), for the nonce pull-log recorded, and verifies
    # with the element's public key; the unauthenticated pull did not count the element's counter up.
    receipt = json.loads((tmp_path / "pulled" / "receipt.json").read_text())
    assert receipt["receipt"] == 3 and json.loads((tmp_path / "pulled" / "pull.json").read_text())["nonce"] == \
        receipt["nonce"]
    chip = SimElement.load(str(tmp_path / "fs.element"))
    assert receipt["counter"] == chip._counters[0]
    public = tmp_path / "element.pub"
    public.write_text(_element(chip).public_key(1).hex())  # slot 1: the key that vouches for the journal
    checked = sabot("log", "verify", tmp_path / "pulled", "--allow-development-key", "--public-key", public, "--json")
    assert not [f for f in json.loads(checked.stdout)["findings"] if f["id"] == "J-TAMPER"], checked.stdout
    checked = sabot("log", "verify", tmp_path / "pulled", "--allow-development-key", "--public-key", public)
    assert "fin : telle que le sabot l'a signée dans son reçu" in checked.stdout, checked.stdout
