"""Issue 37's rewrite, run on the development virtual board as someone with the board on the bench would run it: the
development image's REPL (mpremote), which reaches the journal's files and the element's driver, rewrites the
checkpoint of a forced card's alarm into an ordinary coup's end, chains every entry after it again, and has the
secure element sign every entry anew, in every way its keys sign: the internal-sign key's own signature (the only
one the journal's key gives) and slot 0's signature of the entry's digest. The element vouches for its counter as it
reads it, not for the one an entry claims: every entry the chip's counter has passed fails verify with the key the
casino enrolled, and the inspector reads which in French."""

import json
import re

import pytest

from boards.sim.element import SimElement
from firmware.format import checkpoint as cp
from tests.host.test_commissioning import sabot
from tests.host.test_element import _element
from tests.host.test_tamper_mpremote import DEALT, FORCED, play, pull
from tests.host.test_vboard import VirtualBoard

# The attacker's code, run in the shoe's VM through its REPL: each entry rewritten (the alarm's reason made a coup's
# end), its hash of the one before made good, then signed by the element (slot 1, internal: the chip's own message
# over its counter; slot 0, external: the digest as handed) and its CRC made good.
REWRITE = """
from binascii import crc32
from hashlib import sha256
import struct
from firmware.runtime import Runtime
points = Runtime.current.shell.checkpoints
element = points.element
size = points.size
data = open(points.path, 'rb').read()
entries = [bytearray(data[i:i + size]) for i in range(0, len(data), size)]
previous = bytes(32)
for entry in entries:
    if entry[1] == %(alarm)d:
        entry[1] = %(coup_end)d
    entry[48:80] = previous
    digest = sha256(b'sabot checkpoint\\x00' + bytes(entry[:80])).digest()
    if %(external)s:
        entry[%(signature_at)d:%(crc_at)d] = element.sign(digest, 0)
    else:
        got = element.attest(digest[:20], 1, False)
        entry[80:112] = got[:32]
        entry[%(signature_at)d:%(crc_at)d] = got[32:]
    struct.pack_into('<I', entry, %(crc_at)d, crc32(bytes(entry[:%(crc_at)d])))
    previous = sha256(bytes(entry)).digest()
f = open(points.path, 'wb')
for entry in entries:
    f.write(entry)
f.close()
print(len(entries), element.counter(0))
"""


AFTER = "clear_alarm\nno_more_bets\ndraw 4\ncoup_end\n"
BEAM = 17  # the emulated Pico's beam at the mouth (tools/pico/pico.mjs): low while a card breaks it


def _counters(folder):
    data = (folder / cp.FILE).read_bytes()
    return [int.from_bytes(data[i + 4:i + 8], "little") for i in range(0, len(data), cp.SIZE)]


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "K-COUNTER", "S-FORCED")
@pytest.mark.parametrize("external", [False, True], ids=["chip-signature", "slot-0-digest"])
def test_a_forced_cards_checkpoint_rewritten_and_every_entry_signed_again_by_the_element_fails_verify(
        tmp_path, mpy_build, external):
    board = VirtualBoard(tmp_path)
    try:
        play(board, tmp_path, DEALT)
        play(board, tmp_path, FORCED + AFTER)  # the supervisor's key, then a coup: the alarm's checkpoint not the last
        said = board.exec(REWRITE % {"alarm": cp.ALARM, "coup_end": cp.COUP_END, "external": external,
                                     "signature_at": cp.SIGNATURE_AT, "crc_at": cp.CRC_AT})
        written, counter = (int(n) for n in said.strip().splitlines()[-1].split())
        pulled = pull(board, tmp_path / "pulled")  # pull-log's own checkpoint after the rewritten ones: genuine
    finally:
        board.close()
    public = tmp_path / "element.pub"  # the key the casino enrolled: the journal's, slot 1's
    public.write_text(_element(SimElement.load(str(tmp_path / "fs.element"))).public_key(1).hex())
    counters = _counters(pulled)
    assert len(counters) == written + 1 and counters[-1] == counter + 1
    data = (pulled / cp.FILE).read_bytes()
    reasons = [data[i + 1] for i in range(0, len(data), cp.SIZE)]
    assert cp.ALARM not in reasons  # rewritten: the forced card's checkpoint says a coup's end
    done = sabot("log", "verify", "--lang", "en", pulled, "--json", "--public-key", public)
    assert done.returncode == 1
    findings = [f["message"] for f in json.loads(done.stdout)["findings"] if f["id"] == "J-TAMPER"]
    unsigned = [int(m.group(1)) for m in (re.match(r"checkpoint (\d+) \(counter \d+\) is not signed by the shoe's "
                                                   r"element", f) for f in findings) if m]
    # The chip's own signature holds for the entries at its counter as it stood (the last coup's opening and end,
    # no count between them), slot 0's for none: every earlier entry, the rewritten alarm's among them, fails.
    expected = [i + 1 for i, c in enumerate(counters[:-1]) if external or c != counter]
    assert unsigned == expected and len(expected) >= written - 2, findings
    alarm_at = [i + 1 for i, c in enumerate(counters) if c == counter - 1]  # the alarm's; the coup after it: counter
    assert alarm_at and set(alarm_at) <= set(unsigned), (alarm_at, findings)
    french = sabot("log", "verify", "--lang", "fr", pulled, "--public-key", public)
    assert french.returncode == 1 and "n'est pas signé par l'élément sécurisé du sabot" in french.stdout


@pytest.mark.pico
@pytest.mark.pico_long
@pytest.mark.req("J-TAMPER", "K-ELEMENT", "K-COUNTER", "S-FORCED")
def test_on_the_emulated_pico_the_rewrite_signed_again_by_its_element_fails_verify(tmp_path):
    """The same rewrite on the emulated Pico's development image (the REPL BOOTSEL gives whoever holds the board):
    its element (the model on its emulated I2C bus) signs every entry again at the counter it has; verify names the
    entries that counter has passed. In make test-pico (minutes of emulation), the virtual board's in make test."""
    from sabot.mpremote_link import mpremote
    from sabot.pico import IMAGE_DIR, Pico, commission, play, press

    if not (IMAGE_DIR / "firmware-dev.bin").exists():
        pytest.skip("no Pico image: make image BOARD=rpi_pico")
    with Pico(tmp_path / "shoe.flash", blank=True, development=True) as board:
        commission(board, tmp_path)
        assert sabot("seance", "open", "--port", board.port, "--table", 3, "--by", 4711).returncode == 0
        (tmp_path / "coup.txt").write_text("shoe seed=5\nno_more_bets\ndraw 4\ncoup_end\n")
        play(board, tmp_path / "coup.txt")
        press(board, BEAM)  # a card pulled through the locked mouth: the beam broken, the forced card's alarm
        (tmp_path / "after.txt").write_text("clear_alarm\nshoe seed=6\nno_more_bets\ndraw 4\ncoup_end\n")
        play(board, tmp_path / "after.txt")
        said = mpremote(board.port, "exec", REWRITE % {
            "alarm": cp.ALARM, "coup_end": cp.COUP_END, "external": False, "signature_at": cp.SIGNATURE_AT,
            "crc_at": cp.CRC_AT})
        written, counter = (int(n) for n in said.strip().splitlines()[-1].split())
        pulled = tmp_path / "pulled"
        done = sabot("pull-log", "--port", board.port, pulled)
        assert done.returncode == 0, done.stderr
    public = tmp_path / "element.pub"
    public.write_text(_element(SimElement.load(str(tmp_path / "shoe.flash.element"))).public_key(1).hex())
    counters = _counters(pulled)
    done = sabot("log", "verify", "--lang", "en", pulled, "--json", "--public-key", public)
    findings = [f["message"] for f in json.loads(done.stdout)["findings"] if f["id"] == "J-TAMPER"]
    unsigned = [int(m.group(1)) for m in (re.match(r"checkpoint (\d+) \(counter \d+\) is not signed by the shoe's "
                                                   r"element", f) for f in findings) if m]
    assert done.returncode == 1 and unsigned == [i + 1 for i, c in enumerate(counters[:written]) if c != counter], (
        findings)
    assert set(i + 1 for i, c in enumerate(counters) if c == counter - 1) <= set(unsigned)  # the alarm's
