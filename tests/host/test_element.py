"""The secure element (boards/mcu/atecc.py, its model boards/sim/element.py) against pyca/cryptography: the model's
public keys and signatures are P-256's, the host checks them (sabot/element.py), no command gives the key out, the
counters persist and never go back, the driver waits each command's datasheet maximum before it reads, the
virtual board's element answers from outside its VM (the emulated Pico's is the same model, reached through its I2C:
tests/host/test_pico_element.py)."""

import os
from hashlib import sha256

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from boards.mcu.atecc import ATECC, COUNTER, GENKEY, INFO, NONCE, RANDOM, SIGN, packet
from boards.sim import p256
from boards.sim.element import SimElement
from sabot.element import public_key, verifies
from tests.core.test_element import Bus
from tests.host.test_vboard import VirtualBoard

scalars = st.integers(min_value=1, max_value=p256.N - 1)
digests = st.binary(min_size=32, max_size=32)
seeds = st.binary(min_size=32, max_size=32)


def _element(chip):
    bus = Bus(chip)
    return ATECC(bus, bus.sleep_ms, address=_address(chip))


def _address(chip):
    """The model's address (a Trust&GO's, 0x35, by default)."""
    return chip.address


@pytest.mark.req("K-ELEMENT")
@settings(max_examples=200, deadline=None)
@given(scalars)
def test_the_public_key_is_cryptographys_for_the_same_scalar(d):
    expected = ec.derive_private_key(d, ec.SECP256R1()).public_key()
    assert b"\x04" + p256.public_key(d) == expected.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


@pytest.mark.req("K-ELEMENT")
@settings(max_examples=200, deadline=None)
@given(seeds, digests)
def test_every_signature_through_the_driver_verifies_with_the_enrolled_public_key_alone(seed, digest):
    element = _element(SimElement(seed))
    key = public_key(element.public_key())
    signature = element.sign(digest)
    assert verifies(key, digest, signature)
    assert not verifies(key, bytes((digest[0] ^ 1,)) + digest[1:], signature)
    assert not verifies(key, digest, signature[:32] + bytes((signature[32] ^ 1,)) + signature[33:])
    assert not verifies(public_key(_element(SimElement(sha256(seed).digest())).public_key()), digest, signature)


@pytest.mark.req("K-ELEMENT")
def test_a_public_key_is_a_point_of_p256_and_a_signature_its_64_bytes():
    key = public_key(p256.public_key(7))
    with pytest.raises(ValueError):
        public_key(p256.public_key(7)[:63])
    with pytest.raises(ValueError):
        public_key(bytes(64))  # (0, 0) is on no curve
    digest = sha256(b"x").digest()
    assert verifies(key, digest, p256.sign(7, digest))
    assert not verifies(key, digest, p256.sign(7, digest)[:63])
    assert not verifies(key, digest, bytes(64))


def _answers(chip, command):
    """Everything the chip says to one command: woken, the command written, its answer read (up to 67 bytes)."""
    try:
        chip.writeto(0, b"\x00")
    except OSError:
        pass
    got = bytearray(67)
    chip.readfrom_into(_address(chip), got)
    chip.writeto(_address(chip), command)
    chip.readfrom_into(_address(chip), got)
    chip.writeto(_address(chip), b"\x02")
    return bytes(got)


def _key_bytes(seed):
    d = p256.scalar(seed)
    return d.to_bytes(32, "big"), d.to_bytes(32, "little")


@pytest.mark.req("K-ELEMENT")
def test_no_opcode_mode_or_slot_gives_the_private_key_out_or_replaces_it():
    seed = bytes(range(32))
    chip = SimElement(seed)
    before = _element(chip).public_key()
    secret = _key_bytes(seed)
    for opcode in range(256):
        for param1 in (0x00, 0x01, 0x02, 0x03, 0x04, 0x08, 0x20, 0x40, 0x80, 0xFF):
            for param2 in (0, 1, 2, 0xFFFF):
                for data in (b"", bytes(32), bytes(64)):
                    said = _answers(chip, packet(opcode, param1, param2, data))
                    assert not any(s in said for s in secret), (opcode, param1, param2, len(data))
    assert _element(chip).public_key() == before


@pytest.mark.req("K-ELEMENT")
@settings(max_examples=500, deadline=None)
@given(st.binary(min_size=1, max_size=90))
def test_no_bytes_written_give_the_private_key_out(command):
    seed = bytes(32)
    said = _answers(SimElement(seed), b"\x03" + command)
    assert not any(s in said for s in _key_bytes(seed))


@pytest.mark.req("K-COUNTER")
def test_the_counters_survive_a_restart_and_never_go_back(tmp_path):
    path = str(tmp_path / "element.bin")
    element = _element(SimElement.load(path))
    key = element.public_key()
    assert [element.increment(0) for _ in range(5)] == [1, 2, 3, 4, 5]
    element.increment(1)
    again = _element(SimElement.load(path))  # the chip powered off and on
    assert again.public_key() == key
    assert (again.counter(0), again.counter(1), again.increment(0)) == (5, 1, 6)
    assert os.listdir(tmp_path) == ["element.bin"]  # replaced whole by a rename


@pytest.mark.req("K-ELEMENT")
def test_each_element_made_has_a_key_of_its_own_and_random_numbers_that_do_not_repeat(tmp_path):
    first, second = (_element(SimElement.load(str(tmp_path / name))) for name in ("a.bin", "b.bin"))
    assert first.public_key() != second.public_key()
    drawn = {first.random() for _ in range(20)}
    drawn.add(_element(SimElement.load(str(tmp_path / "a.bin"))).random())  # after a restart too
    assert len(drawn) == 21


DATASHEET_MS = {INFO: 5, RANDOM: 23, GENKEY: 115, NONCE: 20, SIGN: 115, COUNTER: 25}  # ATECC608B, maximum times


class BusyBus(Bus):
    """The chip as it is on the line: no acknowledge while a command executes (its datasheet maximum), nor before
    the wake pulse's 1.5 ms have passed."""

    def __init__(self, chip):
        super().__init__(chip)
        self.busy_until = 0

    def writeto(self, address, buf):
        if address == 0:
            self.busy_until = self.waited + 1.5
        elif buf[0] == 0x03:
            self.busy_until = self.waited + DATASHEET_MS[buf[2]]
        super().writeto(address, buf)

    def readfrom_into(self, address, buf):
        if self.waited < self.busy_until:
            raise OSError(19)
        super().readfrom_into(address, buf)


@pytest.mark.req("K-ELEMENT")
def test_the_driver_reads_each_answer_after_the_chips_longest_execution_time():
    bus = BusyBus(SimElement(bytes(32)))
    element = ATECC(bus, bus.sleep_ms, address=0x35)
    digest = sha256(b"x").digest()
    assert verifies(public_key(element.public_key()), digest, element.sign(digest))
    assert element.revision() and element.random() and element.increment(0) == element.counter(0) == 1


_ASK = """from boards.vboard.element_link import element
e = element()
print(e.public_key().hex(), e.increment(1), e.sign(%r).hex())"""  # counter 0 counts the shoe's checkpoints


@pytest.mark.req("K-ELEMENT", "K-COUNTER")
def test_the_virtual_boards_element_answers_from_outside_the_vm_and_no_file_of_the_board_holds_its_key(
        tmp_path, mpy_build):
    board = VirtualBoard(tmp_path)
    digest = sha256(b"checkpoint").digest()
    try:
        first = board.exec(_ASK % digest).split()
        second = board.exec(_ASK % digest).split()  # mpremote's soft reset in between: the VM started again
    finally:
        board.close()
    state = tmp_path / "fs.element"
    assert first[0] == second[0] == _element(SimElement.load(str(state))).public_key().hex()
    assert (first[1], second[1]) == ("1", "2")
    assert verifies(public_key(bytes.fromhex(first[0])), digest, bytes.fromhex(first[2]))
    seed = state.read_bytes()[:32]
    secret = _key_bytes(seed) + (seed,)
    held = [p for p in board.fs.rglob("*") if p.is_file() and any(s in p.read_bytes() for s in secret)]
    assert held == [] and board.fs not in state.parents
