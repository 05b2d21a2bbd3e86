"""The secure element's parts (boards/sim/element.py) against pyca/cryptography and on disk: a signature retried
after an ECC fault, or made at the slowest clock, verifies with the public key alone; a blank generic part
provisioned by boards/mcu/provision.py signs with a key of its own that verifies; a locked part is refused with its
configuration zone byte for byte unchanged, in its state file too; the state file is versioned, replaced whole,
reads the format before it, and keeps a power cut's counter jump."""

import os
from hashlib import sha256

import pytest

from boards.mcu.atecc import ATECC, SIGN, ElementError
from boards.mcu.provision import provision
from boards.sim import element as model
from boards.sim.element import SimElement
from sabot.element import public_key, verifies
from tests.core.test_element import Bus, Clock

DIGEST = sha256(b"coup 12").digest()


def _driven(chip, clock):
    bus = Bus(chip, clock)
    return ATECC(bus, bus.sleep_ms, address=chip.address)


def _made(path=None, **made):
    clock = Clock()
    chip = SimElement(os.urandom(32), path, clock=clock, **made)
    return _driven(chip, clock), chip


@pytest.mark.req("K-ELEMENT")
def test_a_signature_after_an_ecc_fault_or_at_the_slowest_clock_verifies_with_the_public_key_alone():
    for made in ({}, {"chip_mode": 0x28}, {"chip_mode": 0x68}):
        element, chip = _made(**made)
        key = public_key(element.public_key())
        chip.inject("ecc_fault", opcode=SIGN)
        signature = element.sign(DIGEST)
        assert verifies(key, DIGEST, signature)
        assert not verifies(key, sha256(b"coup 13").digest(), signature)


@pytest.mark.req("K-ELEMENT")
def test_a_blank_part_provisioned_signs_with_a_key_of_its_own(tmp_path):
    path = str(tmp_path / "bench.element")
    element, chip = _made(path, part="ATECC608B")
    with pytest.raises(ElementError) as refused:
        element.generate_key(0)
    assert refused.value.status == 0x0F
    key = provision(element)
    assert verifies(public_key(key), DIGEST, element.sign(DIGEST))
    again = SimElement.load(path, clock=chip._clock)  # its EEPROM: what it was left as
    assert again.locked() == (True, True) and _driven(again, chip._clock).public_key() == key
    assert verifies(public_key(_driven(again, chip._clock).public_key(1)), DIGEST, element.sign(DIGEST, 0)) is False


@pytest.mark.req("K-ELEMENT")
def test_a_locked_part_is_refused_and_its_configuration_and_state_file_are_unchanged(tmp_path):
    for part in ("ATECC608B-TNGTLS", "ATECC608B-TFLXTLS", "ATECC608B-provisioned", "ATECC508A"):
        path = tmp_path / part
        element, chip = _made(str(path), part=part)
        chip.save()
        before, saved = chip.config(), path.read_bytes()
        with pytest.raises(ElementError) as refused:
            provision(element)
        assert "nothing written" in str(refused.value)
        assert chip.config() == before and path.read_bytes() == saved


@pytest.mark.req("K-COUNTER")
def test_the_state_file_is_versioned_replaced_whole_and_keeps_a_cuts_counter_jump(tmp_path):
    path = tmp_path / "shoe.element"
    element, chip = _made(str(path))
    assert element.increment(0) == 1
    chip.inject("counter_jump", by=4)
    assert element.increment(0) == 5
    data = path.read_bytes()
    assert data[32:40] == model.MAGIC and data[40] == model.FORMAT and len(data) == 189
    assert sorted(os.listdir(tmp_path)) == ["shoe.element"]
    again = SimElement.load(str(path))
    assert again._counters == [5, 0] and again.config() == chip.config()
    legacy = tmp_path / "legacy.element"  # format 1: seed, counters, random numbers drawn
    legacy.write_bytes(bytes(range(32)) + (7).to_bytes(4, "little") + (2).to_bytes(4, "little") + bytes(4))
    old = SimElement.load(str(legacy))
    assert old._counters == [7, 2] and old.address == 0x35 and old._key == SimElement(bytes(range(32)))._key
    (tmp_path / "junk.element").write_bytes(b"x" * 100)
    with pytest.raises(ValueError):
        SimElement.load(str(tmp_path / "junk.element"))
