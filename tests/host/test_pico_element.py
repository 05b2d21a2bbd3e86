"""The secure element on the emulated Pico (tools/pico/atecc.mjs, docs/pico-emulator.md): the image's own driver
(boards/mcu/atecc.py, frozen) on I2C0 at 0x60 beside the DS3231, through the real mpremote. Its key is the Python
model's for the same seed, its signatures verify with the public key alone, its counter outlives a power cycle, and
no byte of the flash (what mpremote or a BOOTSEL dump reaches) holds its key. One emulator session for it all."""

from hashlib import sha256

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from boards.sim import p256
from boards.sim.element import SimElement
from sabot.element import public_key, verifies
from sabot.pico import Pico
from sabot.shoe_link import mpremote
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
