"""The secure element's parts (boards/sim/element.py) against pyca/cryptography and on disk: a signature retried
after an ECC fault, or made at the slowest clock, verifies with the public key alone; a blank generic part
provisioned by boards/mcu/provision.py signs with a key of its own that verifies; a locked part is refused with its
configuration zone byte for byte unchanged, in its state file too; the state file is versioned, replaced whole,
reads the format before it, and keeps a power cut's counter jump."""

import os
from hashlib import sha256

import pytest

from boards.mcu import atecc_zones as zones
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
        zones.generate_key(element, 0)
    assert refused.value.status == 0x0F
    key = provision(element)  # slot 1's, the journal's: it signs only what the chip builds
    assert verifies(public_key(element.public_key(0)), DIGEST, element.sign(DIGEST))
    again = SimElement.load(path, clock=chip._clock)  # its EEPROM: what it was left as
    assert again.locked() == (True, True) and _driven(again, chip._clock).public_key(1) == key
    assert verifies(public_key(key), DIGEST, element.sign(DIGEST, 0)) is False


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


def _status(chip, *commands):
    """Each (opcode, param1, param2, data) sent in one wake, as bytes on the bus: the last one's answer (a status
    byte, or the data)."""
    from boards.mcu.atecc import packet

    chip.bus_start(0, False)  # the wake pulse
    chip.bus_stop()
    chip._clock.us += 2000
    answer = None
    for opcode, param1, param2, data in commands:
        chip.writeto(chip.address, packet(opcode, param1, param2, data))
        chip._clock.us += 120000  # every command's longest at the M0 clock
        count = bytearray(1)
        chip.readfrom_into(chip.address, count)
        rest = bytearray(count[0] - 1)
        chip.readfrom_into(chip.address, rest)
        answer = bytes(rest[:-2])
    return answer


@pytest.mark.req("K-ELEMENT", "K-COUNTER")
@pytest.mark.parametrize("part", ["ATECC608B-TNGTLS", "ATECC608B-TFLXTLS", "ATECC608B-provisioned"])
def test_the_chips_own_signature_holds_for_its_counter_as_it_read_it_and_for_no_other_value(part):
    """Nonce (random), GenDig on counter 0, Sign in internal mode with slot 1 (issue 37): the model builds the
    message as the datasheet's cryptoauthlib rebuilds it on a host (sabot.attested, written from atca_host.c); the
    signature verifies with slot 1's public key for the counter the chip had, fails for the one before or after,
    for other NumIn bytes, RandOut or configuration bytes."""
    from sabot import attested

    element, chip = _made(part=part)
    for _ in range(3):
        element.increment(0)
    got = element.attest(DIGEST[:20])
    counter, rand_out, signature = int.from_bytes(got[:4], "little"), got[4:36], got[36:]
    chip_bytes = element.attestation()
    key = public_key(element.public_key(1))
    assert counter == 3 and verifies(key, attested.digest(DIGEST, counter, rand_out, chip_bytes), signature)
    for value in (2, 4):
        assert not verifies(key, attested.digest(DIGEST, value, rand_out, chip_bytes), signature)
    assert not verifies(key, attested.digest(sha256(b"coup 13").digest(), counter, rand_out, chip_bytes), signature)
    assert not verifies(key, attested.digest(DIGEST, counter, bytes(32), chip_bytes), signature)
    assert not verifies(key, attested.digest(DIGEST, counter, rand_out, bytes(5)), signature)
    assert not verifies(public_key(element.public_key(0)), attested.digest(DIGEST, counter, rand_out, chip_bytes),
                        signature)  # slot 0's key is not the one that signs


@pytest.mark.req("K-ELEMENT")
def test_the_chip_refuses_internal_signatures_it_could_not_vouch_for():
    """A key that signs externally signs no internal message (slot 0: SlotConfig bit 1 clear); slot 1 of a
    Trust&GO asks a random nonce (KeyConfig ReqRandom): a TempKey loaded as it is (pass-through) is refused; GenDig
    with no nonce since the wake is refused; its other zones are not modelled (a parse error, never a wrong
    digest)."""
    from boards.mcu.atecc import GENDIG, NONCE, NONCE_PASS_THROUGH, NONCE_SEED_UPDATE, SIGN_INTERNAL

    element, chip = _made()
    element.increment(0)
    random = (NONCE, NONCE_SEED_UPDATE, 0, DIGEST[:20])
    gendig = (GENDIG, 0x04, 0, b"")
    assert _status(chip, random, gendig, (SIGN, SIGN_INTERNAL, 0, b"")) == b"\x0f"
    assert _status(chip, (NONCE, NONCE_PASS_THROUGH, 0, DIGEST), gendig, (SIGN, SIGN_INTERNAL, 1, b"")) == b"\x0f"
    assert len(_status(chip, random, gendig, (SIGN, SIGN_INTERNAL, 1, b""))) == 64
    chip.power_off()
    assert _status(chip, gendig) == b"\x0f"
    assert _status(chip, random, (GENDIG, 0x02, 0, b"")) == b"\x03"
