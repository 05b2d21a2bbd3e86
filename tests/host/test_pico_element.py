"""The secure element on the emulated Pico (docs/pico-emulator.md): the one model (boards/sim/element.py) run in the
host's Python process, each event of the emulated I2C0 carried to it over the emulator's element link
(host_tools/sabot/pico_element.py's ElementLink, tools/pico/pico.mjs's --element-fd), and the image's own driver
(boards/mcu/atecc.py, frozen) talking to it beside the DS3231, through the real mpremote. Its signatures verify with
the public key alone, its counter outlives a power cycle, and no byte of the flash (what mpremote or a BOOTSEL dump
reaches) holds its key."""

from hashlib import sha256

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from boards.sim import p256
from boards.sim.element import SimElement
from sabot.element import public_key, verifies
from sabot.mpremote_link import mpremote
from sabot.pico import Pico
from tests.host.test_element import _element
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)

pytestmark = pytest.mark.pico

_ASK = """from machine import I2C, Pin
from boards.mcu.atecc import ATECC
from boards.rpi_pico import pins
i2c = I2C(pins.RTC_I2C, scl=Pin(pins.RTC_SCL), sda=Pin(pins.RTC_SDA), freq=100000)
e = ATECC(i2c)
print(e.public_key().hex(), e.counter(0), e.increment(0), e.sign(%r).hex(), len(i2c.readfrom_mem(0x68, 0, 7)))"""


@pytest.mark.req("K-ELEMENT", "K-COUNTER")
def test_the_picos_element_signs_with_its_seeds_key_counts_across_a_power_cycle_and_no_flash_byte_holds_it(
        image, tmp_path):  # noqa: F811
    flash = tmp_path / "shoe.flash"
    digest = sha256(b"checkpoint").digest()
    with Pico(flash, development=True) as board:
        first = mpremote(board.port, "exec", _ASK % digest).split()
        board.command("power_cycle")
        board.wait(lambda: len(board.boots()) == 2)
        second = mpremote(board.port, "exec", _ASK % digest).split()
    state = tmp_path / "shoe.flash.element"  # made by the emulator at its first start: a random seed
    seed = state.read_bytes()[:32]
    d = p256.scalar(seed)
    key = bytes.fromhex(first[0])
    expected = ec.derive_private_key(d, ec.SECP256R1()).public_key()
    assert b"\x04" + key == expected.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    assert key == bytes.fromhex(second[0]) == _element(SimElement.load(str(state))).public_key()
    assert first[1:3] == ["0", "1"] and second[1:3] == ["1", "2"]  # counted up, and kept across the power cycle
    assert first[3] == second[3] == p256.sign(d, digest).hex()  # the Python model's signature, byte for byte
    assert verifies(public_key(key), digest, bytes.fromhex(first[3]))
    assert first[4] == second[4] == "7"  # the DS3231 still answers on the same bus
    assert _element(SimElement.load(str(state))).counter(0) == 2
    held = flash.read_bytes()
    assert not any(secret in held for secret in (seed, d.to_bytes(32, "big"), d.to_bytes(32, "little")))


class Recorder:
    """A model on the bus that notes every event with the model's time, acknowledges its address (0x35) and the
    bytes written to it, and reads back what was written last."""

    def __init__(self, path, clock):
        self.clock = clock
        self.events = []
        self.last = b""
        self._read = 0

    def bus_start(self, address, read):
        self.events.append(("start", address, read, self.clock()))
        if address == 0x35 and not read:
            self.last = b""
        self._read = 0
        return address == 0x35

    def bus_write(self, byte):
        self.events.append(("write", byte, self.clock()))
        self.last += bytes((byte,))
        return True

    def bus_read(self):
        self._read += 1
        self.events.append(("read", self.clock()))
        return self.last[self._read - 1] if self._read <= len(self.last) else 0xFF

    def bus_stop(self):
        self.events.append(("stop", self.clock()))

    def power_off(self):
        self.events.append(("power_off", self.clock()))


_BUS = """from machine import I2C, Pin
from boards.rpi_pico import pins
i2c = I2C(pins.RTC_I2C, scl=Pin(pins.RTC_SCL), sda=Pin(pins.RTC_SDA), freq=100000)
"""


def test_every_bus_event_of_the_picos_i2c_reaches_the_model_in_simulated_time(image, tmp_path):  # noqa: F811
    """The element link carries the emulated I2C0's every event at the element's addresses, not the DS3231's, to the
    model in this process with the emulator's simulated time in µs, and its answers back: an acknowledge, a NACK (the
    driver's OSError, at once), each byte read; a power cycle reaches it as a power-off, a watchdog reset does not."""
    models = []

    def recorder(path, clock):
        models.append(Recorder(path, clock))
        return models[-1]

    with Pico(tmp_path / "shoe.flash", development=True, element=recorder) as board:
        said = mpremote(board.port, "exec", _BUS + (
            "i2c.writeto(0x35, b'\\x03\\x07\\x30')\nprint(i2c.readfrom(0x35, 4).hex())\n"
            "try:\n    i2c.writeto(0x60, b'\\x03')\nexcept OSError as e:\n    print('nack', e.errno)\n"
            "print(len(i2c.readfrom_mem(0x68, 0, 7)))")).split()
        sent = board.now_us()
        board.command("power_cycle")
        board.wait(lambda: len(board.boots()) == 2)
    model = models[0]
    assert said == ["030730ff", "nack", "5", "7"]  # EIO, as the rp2 port's I2C says nobody acknowledged 0x60
    kinds = [e[0] for e in model.events]
    assert kinds[0] == "power_off" and kinds.count("power_off") == 2  # the first power-up, then the power cycle
    mine = [e for e in model.events if e[0] != "power_off"]
    assert mine[:6] == [("start", 0x35, False, mine[0][3]), ("write", 0x03, mine[1][2]), ("write", 0x07, mine[2][2]),
                        ("write", 0x30, mine[3][2]), ("stop", mine[4][1]), ("start", 0x35, True, mine[5][3])]
    assert [e[0] for e in mine[6:11]] == ["read"] * 4 + ["stop"]
    assert ("start", 0x60, False) in [e[:3] for e in mine] and not any(e[:2] == ("start", 0x68) for e in mine)
    times = [e[-1] for e in model.events]
    assert times == sorted(times) and 0 < times[1] < sent  # simulated µs, in order
    assert mine[3][2] > mine[1][2]  # rp2040js sends a byte in a few µs, not the bus's 90 µs at 100 kHz


M2 = 0x68  # ChipMode's slowest clock: Sign takes up to 665 ms
SEED = bytes(range(32))
_SIGN = _BUS + """import time
from boards.mcu.atecc import ATECC
e = ATECC(i2c)
t = time.ticks_ms()
s = e.sign(%r)
print(s.hex(), time.ticks_diff(time.ticks_ms(), t), e.counter(0))"""
_KEY = _BUS + "from boards.mcu.atecc import ATECC\nprint(ATECC(i2c).public_key().hex())"


@pytest.mark.req("K-ELEMENT", "K-COUNTER")
def test_on_the_picos_real_i2c_a_slow_sign_an_ecc_fault_and_a_chip_left_awake_are_all_answered(
        image, tmp_path):  # noqa: F811
    """The image's own driver against the one model through rp2040js's I2C, in simulated time: a Trust&GO at 0x35
    at the M2 clock signs (polled through its busy NACKs for up to 665 ms) and the command after it succeeds; a
    Sign that faults once (0x05) is sent again and signs; a chip left awake with an old answer half read (as an MCU
    reset leaves it) gives its key."""
    def slow(path, clock):
        return SimElement(SEED, str(path), clock=clock, chip_mode=M2)

    digest = sha256(b"checkpoint").digest()
    expected = p256.sign(p256.scalar(SEED), digest).hex()
    key = p256.public_key(p256.scalar(SEED)).hex()
    with Pico(tmp_path / "shoe.flash", development=True, element=slow) as board:
        signed, took, counter = mpremote(board.port, "exec", _SIGN % digest).split()
        assert (signed, counter) == (expected, "0")
        assert 600 <= int(took) < 2000  # Random, Nonce and a Sign at M2: the chip's own time, polled
        board.element.inject("ecc_fault", opcode=0x41)  # Sign
        signed, _, _ = mpremote(board.port, "exec", _SIGN % digest).split()
        assert signed == expected
        board.element.inject("awake")
        assert mpremote(board.port, "exec", _KEY).strip() == key
