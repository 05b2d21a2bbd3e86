"""The secure element as parts a casino can buy behave (boards/sim/element.py, from Microchip's documents), driven by
boards/mcu/atecc.py and provisioned by boards/mcu/provision.py, on every runtime: the chip busy for a command's
time at its clock, NACKing meanwhile; its address counter and the 0xFF past an answer; its watchdog; its faults
(0x05, 0xEE, a garbled answer, a chip awake at boot, a counter that jumps on a power cut); a Trust&GO at 0x35, a
blank generic part provisioned, a locked part refused unchanged, a part that never answers or of another family
refused with one clear error. tests/host/test_element_parts.py checks the signatures with pyca/cryptography."""

from hashlib import sha256

from boards.mcu import atecc_zones as zones
from boards.mcu.atecc import (
    ATECC,
    COUNTER,
    GENERIC_ADDRESS,
    INFO,
    NONCE,
    NONCE_PASS_THROUGH,
    SIGN,
    SIGN_EXTERNAL,
    TRUSTFLEX_ADDRESS,
    WAKE_ANSWER,
    ElementError,
    packet,
)
from boards.mcu.provision import TEMPLATE, provision
from boards.sim import p256
from boards.sim.element import DEVELOPMENT_SEED, SimElement
from tests.core.req import covers
from tests.core.test_element import Bus, Clock

M1, M2 = 0x28, 0x68  # ChipMode's clock divider
DIGEST = sha256(b"checkpoint").digest()
SEED = bytes(range(32))


def _driven(part="ATECC608B-TNGTLS", seed=DEVELOPMENT_SEED, address=None, **made):
    clock = Clock()
    chip = SimElement(seed, clock=clock, part=part, **made)
    bus = Bus(chip, clock)
    return ATECC(bus, bus.sleep_ms, address=chip.address if address is None else address), chip, bus


def _error(call):
    """The ElementError call raises (AssertionError when it raises none)."""
    try:
        call()
    except ElementError as e:
        return e
    raise AssertionError("no ElementError")


def _signed(seed, digest, slot_key=None):
    return p256.sign(slot_key or p256.scalar(seed), digest)


@covers("K-ELEMENT")
def test_a_signature_at_the_slower_clocks_succeeds_and_so_does_the_next_command():
    for mode, longest in ((M1, 220), (M2, 665)):
        element, chip, bus = _driven(chip_mode=mode)
        element.check()
        before = bus.waited
        assert element.sign(DIGEST) == _signed(DEVELOPMENT_SEED, DIGEST)
        assert longest + 23 + 20 <= bus.waited - before <= longest + 23 + 20 + 30  # polled, not guessed
        assert element.counter(0) == 0 and element.increment(0) == 1  # the chip was left idle, not busy
        assert element.public_key() == p256.public_key(p256.scalar(DEVELOPMENT_SEED))


@covers("K-ELEMENT")
def test_the_chip_nacks_its_address_for_a_commands_time_at_its_clock():
    for mode, sign_ms in ((0x00, 115), (M1, 220), (M2, 665)):
        _, chip, bus = _driven(chip_mode=mode)
        _wake(chip, bus)
        chip.writeto(0x35, packet(NONCE, NONCE_PASS_THROUGH, 0, DIGEST))
        bus.sleep_ms(20)
        chip.readfrom_into(0x35, bytearray(4))
        chip.writeto(0x35, packet(SIGN, SIGN_EXTERNAL, 0))
        bus.sleep_ms(sign_ms - 1)
        assert _nacked(chip, 0x35)
        bus.sleep_ms(1)
        got = bytearray(67)
        chip.readfrom_into(0x35, got)
        assert got[0] == 67 and bytes(got[1:65]) == _signed(DEVELOPMENT_SEED, DIGEST)


def _wake(chip, bus):
    try:
        chip.writeto(0, b"\x00")
    except OSError:
        pass
    assert _nacked(chip, chip.address)  # tWHI: not yet
    bus.sleep_ms(2)
    got = bytearray(4)
    chip.readfrom_into(chip.address, got)
    assert bytes(got) == WAKE_ANSWER


def _nacked(chip, address):
    try:
        chip.readfrom_into(address, bytearray(1))
    except OSError as e:
        return e.args[0] == 19
    return False


@covers("K-ELEMENT")
def test_reads_continue_where_the_last_stopped_and_read_0xff_past_the_answer():
    _, chip, bus = _driven()
    _wake(chip, bus)
    chip.writeto(0x35, packet(INFO, 0, 0))
    bus.sleep_ms(5)
    first, second, past = bytearray(1), bytearray(4), bytearray(5)
    chip.readfrom_into(0x35, first)
    chip.readfrom_into(0x35, second)
    chip.readfrom_into(0x35, past)
    assert first[0] == 7 and bytes(second) == b"\x00\x00\x60\x03" and bytes(past[2:]) == b"\xff\xff\xff"
    chip.writeto(0x35, b"\x00")  # word address 0: the address counter back to the answer's start
    again = bytearray(9)
    chip.readfrom_into(0x35, again)
    assert bytes(again[:5]) == b"\x07\x00\x00\x60\x03" and bytes(again[7:]) == b"\xff\xff"


@covers("K-ELEMENT")
def test_the_watchdog_puts_the_chip_to_sleep_and_tempkey_is_lost():
    element, chip, bus = _driven()
    _wake(chip, bus)
    chip.writeto(0x35, packet(NONCE, NONCE_PASS_THROUGH, 0, DIGEST))
    bus.sleep_ms(1300)  # the watchdog's 1.3 s from the wake: asleep by itself
    assert _nacked(chip, 0x35)
    _wake(chip, bus)
    chip.writeto(0x35, packet(SIGN, SIGN_EXTERNAL, 0))
    bus.sleep_ms(115)
    got = bytearray(4)
    chip.readfrom_into(0x35, got)
    assert got[1] == 0x0F  # nothing to sign: TempKey went with the sleep
    bus.sleep_ms(1300)
    _wake(chip, bus)
    bus.sleep_ms(1250)
    chip.writeto(0x35, packet(SIGN, SIGN_EXTERNAL, 0))  # 115 ms would outlast the watchdog: 0xEE, nothing done
    chip.readfrom_into(0x35, got)
    assert got[1] == 0xEE
    assert element.sign(DIGEST) == _signed(DEVELOPMENT_SEED, DIGEST)  # the driver idles it: the watchdog stops


@covers("K-ELEMENT", "K-COUNTER")
def test_transient_failures_are_sent_again_and_a_checkpoints_counter_is_spent_once():
    element, chip, _ = _driven()
    chip.inject("ecc_fault", opcode=SIGN)
    assert element.sign(DIGEST) == _signed(DEVELOPMENT_SEED, DIGEST)
    chip.inject("watchdog", opcode=NONCE)
    chip.inject("crc", opcode=SIGN)
    assert element.sign(DIGEST) == _signed(DEVELOPMENT_SEED, DIGEST)
    chip.inject("crc", opcode=COUNTER, mode=1)  # the increment's answer garbled in the chip: it counted
    assert element.increment(0) == 1 and element.counter(0) == 1  # read back, never counted twice
    chip.inject("ecc_fault", opcode=COUNTER, mode=1, times=3)  # each increment's answer lost: never counted there
    assert _error(lambda: element.increment(0)).status == 0x05 and element.increment(0) == 2
    chip.inject("ecc_fault", opcode=SIGN, times=3)  # a fault that persists: one error, the status said
    assert _error(lambda: element.sign(DIGEST)).status == 0x05
    assert element.sign(DIGEST) == _signed(DEVELOPMENT_SEED, DIGEST)


@covers("K-COUNTER")
def test_a_power_cut_during_an_increment_may_count_more_than_one_and_the_driver_says_where_it_stands():
    element, chip, _ = _driven()
    assert element.increment(1) == 1
    chip.inject("counter_jump", by=3)
    assert element.increment(1) == 4  # no answer: the counter read back after the cut
    assert element.counter(1) == 4 and element.increment(1) == 5


@covers("K-ELEMENT")
def test_a_chip_left_awake_or_in_its_self_test_gives_its_key():
    element, chip, _ = _driven()
    chip.inject("awake")  # an MCU reset left it awake, an old answer half read in its buffer
    assert element.public_key() == p256.public_key(p256.scalar(DEVELOPMENT_SEED))
    element, chip, _ = _driven()
    chip.inject("self_test", ms=40)  # the first wake after power-up: NACKed for 40 ms
    assert element.public_key() == p256.public_key(p256.scalar(DEVELOPMENT_SEED))
    chip.power_off()
    chip.inject("nack", ms=30)
    assert element.counter(0) == 0


@covers("K-ELEMENT")
def test_a_trust_and_go_part_answers_at_0x35_and_a_driver_elsewhere_fails_with_one_clear_error():
    element, chip, _ = _driven()
    assert chip.address == 0x35 == element.address
    assert element.check() == b"\x00\x00\x60\x03" and zones.locked(element) == (True, True)
    key = element.public_key()
    assert element.sign(DIGEST) == _signed(DEVELOPMENT_SEED, DIGEST) and key == element.public_key(0)
    assert _error(lambda: element.sign(DIGEST, 1)).status == 0x0F  # slot 1 signs internal messages alone
    wrong, _, _ = _driven(address=GENERIC_ADDRESS)
    error = _error(wrong.public_key)
    assert str(error).startswith("no element answers at 0x60") and error.status is None
    flex, chip, _ = _driven(part="ATECC608B-TFLXTLS")
    assert chip.address == TRUSTFLEX_ADDRESS and flex.public_key() == key


@covers("K-ELEMENT")
def test_a_blank_generic_part_refuses_genkey_until_provisioned_then_signs_with_its_own_key():
    element, chip, _ = _driven(part="ATECC608B", seed=SEED)
    assert chip.address == 0x60 and zones.locked(element) == (False, False)
    assert _error(lambda: zones.generate_key(element, 0)).status == 0x0F  # the configuration zone unlocked: no key
    assert _error(element.public_key).status == 0x0F
    assert element.random() == b"\xff\xff\x00\x00" * 8  # its generator's fixed pattern before the lock
    key = provision(element)  # slot 1's: the journal's, which signs only what the chip builds
    assert zones.locked(element) == (True, True) and element.public_key(1) == key
    assert element.public_key(0) == p256.public_key(p256.scalar(SEED))  # the model's first key in slot 0: the seed's
    assert element.sign(DIGEST) == _signed(SEED, DIGEST)
    assert element.public_key(0) != key
    assert _error(lambda: zones.generate_key(element, 0)).status == 0x0F  # permanent now
    config = element.read_config()
    assert config[16:84] == TEMPLATE[16:84] and config[88:] == TEMPLATE[88:]
    assert config[86] == config[87] == 0x00
    assert config[85] == 0x35 << 1 and chip.address == 0x60  # UserExtraAdd set last: moved at its next power-up
    chip.power_off()
    assert chip.address == 0x35 and element.at(0x35).public_key(1) == key  # where the shoe's firmware looks


@covers("K-ELEMENT")
def test_provisioning_refuses_a_locked_part_and_changes_nothing():
    for part in ("ATECC608B-TNGTLS", "ATECC608B-provisioned"):
        element, chip, _ = _driven(part=part, seed=SEED)
        before = chip.config()
        key = element.public_key()
        error = _error(lambda: provision(element))  # noqa: B023 - called at once
        assert "provisioned already" in str(error) and "nothing written" in str(error)
        assert chip.config() == before and element.public_key() == key
    assert "Trust&GO part is ready" in str(_error(lambda: provision(_driven()[0])))


@covers("K-ELEMENT")
def test_a_part_that_never_answers_or_of_another_family_is_one_clear_error():
    element, chip, _ = _driven()
    chip.inject("absent")
    assert str(_error(element.public_key)).startswith("no element answers at 0x35")
    element, chip, _ = _driven()
    chip.inject("foreign")
    assert "is not an ATECC" in str(_error(element.public_key))
    element, chip, _ = _driven(part="ATECC508A", seed=SEED)
    before = chip.config()
    assert "not an ATECC608" in str(_error(element.public_key))
    error = _error(lambda: provision(element))
    assert "not an ATECC608" in str(error) and "nothing written" in str(error) and chip.config() == before


@covers("K-ELEMENT")
def test_the_bus_byte_by_byte_as_an_i2c_target_sees_it():
    _, chip, bus = _driven()
    assert not chip.bus_start(0x35, True)  # asleep: no acknowledge
    chip.bus_stop()
    assert not chip.bus_start(0, False)  # the wake pulse: nobody acknowledges 0x00
    chip.bus_stop()
    bus.sleep_ms(2)
    assert chip.bus_start(0x35, True) and [chip.bus_read() for _ in range(5)] == [0x04, 0x11, 0x33, 0x43, 0xFF]
    chip.bus_stop()
    assert not chip.bus_start(0x36, False)  # another address
    chip.bus_stop()
    assert chip.bus_start(0x35, False) and all(chip.bus_write(b) for b in packet(INFO, 0, 0))
    assert not chip.bus_start(0x35, True)  # a repeated start: the command taken, the chip busy with it
    chip.bus_stop()
    bus.sleep_ms(5)
    assert chip.bus_start(0x35, True) and [chip.bus_read() for _ in range(5)] == [7, 0x00, 0x00, 0x60, 0x03]
    chip.bus_stop()
    assert chip.bus_start(0x35, False) and all(chip.bus_write(0x03) for _ in range(156))
    assert not chip.bus_write(0x03)  # past the input buffer: not acknowledged
    chip.bus_stop()
