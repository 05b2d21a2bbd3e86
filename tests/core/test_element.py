"""The secure element's driver (boards/mcu/atecc.py) against its model (boards/sim/element.py) on a bus that passes
the bytes, on every runtime: what the driver asks, the chip's answers, the refusals, and the model's signatures the
same bytes everywhere (RFC 6979). tests/host/test_element.py checks the signatures with pyca/cryptography."""

from binascii import hexlify
from hashlib import sha256

from boards.mcu.atecc import ATECC, COUNTER_MAX, SIGN, SIGN_EXTERNAL, WAKE_ANSWER, ElementError, crc16, packet
from boards.sim import p256
from boards.sim.element import DEVELOPMENT_SEED, SimElement
from tests.core.req import covers

RFC_KEY = 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721  # RFC 6979, A.2.5


class Clock:
    """A virtual clock (microseconds) for the chip, advanced by the driver's waits alone."""

    def __init__(self):
        self.us = 0

    def __call__(self):
        return self.us


class Bus:
    """machine.I2C's two calls the driver makes, passed to the chip; a bit of the next write or read flipped on
    demand, as a noisy line would; the driver's waits counted, and passed to the chip's clock when it has one."""

    def __init__(self, chip, clock=None):
        self.chip = chip
        self.clock = clock
        self.flip_write = self.flip_read = None  # (transaction's byte to flip) or None
        self.waited = 0

    def writeto(self, address, buf):
        if self.flip_write is not None and address != 0 and buf[0] == 0x03:
            buf = bytearray(buf)
            buf[self.flip_write] ^= 0x01
            self.flip_write = None
        self.chip.writeto(address, buf)

    def readfrom_into(self, address, buf):
        self.chip.readfrom_into(address, buf)
        if self.flip_read is not None and bytes(buf) != WAKE_ANSWER and self.flip_read < len(buf):
            buf[self.flip_read] ^= 0x01
            self.flip_read = None

    def sleep_ms(self, ms):
        self.waited += ms
        if self.clock is not None:
            self.clock.us += ms * 1000


def _element(chip=None):
    """The driver on a chip (the development element by default) that keeps time by the driver's waits."""
    clock = Clock()
    bus = Bus(chip or SimElement(DEVELOPMENT_SEED, clock=clock), clock)
    if chip is not None and chip._clock is None:
        chip._clock = clock
    return ATECC(bus, bus.sleep_ms, address=bus.chip.address), bus


def _refused(call, status):
    try:
        call()
    except ElementError as e:
        return e.status == status
    return False


@covers("K-ELEMENT")
def test_the_crc_is_the_chips():
    assert crc16(WAKE_ANSWER[:2]) == 0x4333  # the wake answer every ATECC gives: 04 11 33 43


@covers("K-ELEMENT", "H-SIM")
def test_the_model_signs_rfc_6979s_vectors_on_every_runtime():
    assert p256.public_key(RFC_KEY) == bytes.fromhex(
        "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
        "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299")
    assert p256.sign(RFC_KEY, sha256(b"sample").digest()) == bytes.fromhex(
        "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"
        "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8")
    assert p256.sign(RFC_KEY, sha256(b"test").digest()) == bytes.fromhex(
        "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367"
        "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083")


@covers("K-ELEMENT", "H-SIM")
def test_the_development_element_answers_the_same_bytes_on_every_runtime():
    element, bus = _element()
    assert element.revision() == b"\x00\x00\x60\x03"
    key = element.public_key()
    assert key == p256.public_key(p256.scalar(DEVELOPMENT_SEED))
    digest = sha256(b"coup 1").digest()
    signature = element.sign(digest)
    assert signature == element.sign(digest) == p256.sign(p256.scalar(DEVELOPMENT_SEED), digest)
    assert hexlify(sha256(key + signature).digest()[:8]) == b"78d272bca28a20f5"
    first = element.random()
    assert len(first) == 32 and element.random() != first


@covers("K-ELEMENT")
def test_a_signature_needs_its_digest_loaded_in_the_same_wake():
    element, bus = _element()
    element.wake()
    bus.writeto(0x35, packet(SIGN, SIGN_EXTERNAL, 0))  # nothing in TempKey
    bus.sleep_ms(115)
    answer = bytearray(4)
    bus.readfrom_into(0x35, answer)
    assert answer[1] == 0x0F  # execution error
    element.idle()
    try:
        element.sign(b"short")
    except ValueError:
        pass
    else:
        raise AssertionError("a digest of 5 bytes was sent")


@covers("K-COUNTER")
def test_the_counters_only_count_up_each_on_its_own():
    element, _ = _element()
    assert (element.counter(0), element.counter(1)) == (0, 0)
    assert [element.increment(0) for _ in range(3)] == [1, 2, 3]
    assert (element.counter(0), element.increment(1), element.counter(0)) == (3, 1, 3)


@covers("K-COUNTER")
def test_the_counter_stops_at_the_chips_maximum():
    element, _ = _element(SimElement(DEVELOPMENT_SEED, counters=(COUNTER_MAX - 1, 0)))
    assert element.increment(0) == COUNTER_MAX == 2097151
    assert _refused(lambda: element.increment(0), 0x0F)
    assert element.counter(0) == COUNTER_MAX


@covers("K-ELEMENT", "K-COUNTER")
def test_a_garbled_command_is_never_acted_on_and_a_garbled_answer_is_read_again():
    element, bus = _element()
    for at in range(1, 8):  # count, opcode, param1, param2, CRC: the chip answers 0xFF and does nothing; sent again
        bus.flip_write = at
        assert element.increment(0) == at
        assert bus.flip_write is None
    for at in range(6):  # the count byte, then the rest of an answer: read again, never counted again
        bus.flip_read = at
        assert element.increment(0) == 8 + at
        assert bus.flip_read is None
    assert element.counter(0) == 13
    bus.flip_read = 1
    digest = sha256(b"x").digest()
    assert element.sign(digest) == p256.sign(p256.scalar(DEVELOPMENT_SEED), digest)


@covers("K-ELEMENT")
def test_an_asleep_element_does_not_answer_until_woken():
    element, bus = _element()
    element.wake()
    element.sleep()
    try:
        bus.readfrom_into(0x35, bytearray(4))
    except OSError:
        pass
    else:
        raise AssertionError("a sleeping chip acknowledged its address")
    assert element.counter(0) == 0  # the driver wakes it
