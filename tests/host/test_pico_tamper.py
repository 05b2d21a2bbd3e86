"""Issue 23's attack on the emulated Pico, through the real mpremote on its development image (the factory's and the
commissioning bench's; the production image has no REPL): no file on the Pico holds a key; a journal put back from
an older pull, with its checkpoints, the write-ahead ring erased and every other file of the journal removed, so
that everything the flash holds agrees, is behind the secure element's counter at the next power-up (the rollback
fault, which locks the shoe) and fails `sabot log verify` with the receipt of a later pull (J-TAMPER)."""

import json
import re

import pytest

from boards.sim.element import SimElement
from firmware import records as rec
from sabot.mpremote_link import ask, mpremote, resume
from sabot.pico import Pico, commission, play
from tests.host.test_commissioning import EVERY_FILE, sabot
from tests.host.test_element import _element
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)

pytestmark = pytest.mark.pico

COUPS = "shoe seed=7\nno_more_bets\ndraw 6\nno_more_bets\ndraw 6\n"
MORE = "shoe seed=8\nno_more_bets\ndraw 6\nno_more_bets\ndraw 6\n"
# The ring's partition (boards/rpi_pico/journal_flash.py) over mpremote, as a cheat can: each sector written to
# erased (the others already are: an erase takes its time on the emulated flash).
ERASE_RING = """import rp2
ring = rp2.Flash(start=896 * 1024, len=512 * 1024)
page = bytearray(256)
for sector in range(ring.ioctl(4, 0)):
    for at in range(0, 4096, 256):
        ring.readblocks(sector, page, at)
        if page != b"\\xff" * 256:
            ring.ioctl(6, sector)
            break
print('erased')"""
EMPTY_JOURNAL = "import os\nfor name in os.listdir('journal'):\n    os.remove('journal/' + name)\nprint('emptied')"


def dealt(board, tmp_path, text, name):
    (tmp_path / name).write_text(text)
    reply = play(board, tmp_path / name)
    assert reply["dealt"] >= 8, reply  # two coups' cards


def pulled(board, folder):
    done = sabot("pull-log", "--port", board.port, folder)
    assert done.returncode == 0, done.stderr
    return folder


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "K-COUNTER", "S-FAILSAFE")
def test_an_older_journal_put_back_on_the_pico_is_behind_its_elements_counter_and_fails_verify(
        image, tmp_path):  # noqa: F811
    with Pico(tmp_path / "shoe.flash", blank=True, development=True) as board:
        commission(board, tmp_path)
        assert sabot("seance", "open", "--port", board.port, "--table", 3, "--by", 4711).returncode == 0
        dealt(board, tmp_path, COUPS, "coups.txt")
        t1 = pulled(board, tmp_path / "t1")
        resume(board.port)  # a pull over mpremote leaves the controller stopped, the gate locked
        dealt(board, tmp_path, MORE, "more.txt")
        t2 = pulled(board, tmp_path / "t2")
        files = mpremote(board.port, "exec", EVERY_FILE % [])  # names only: test_pico_commissioning reads them
        assert "emptied" in mpremote(board.port, "exec", EMPTY_JOURNAL)
        for path in sorted(t1.iterdir()):
            if path.suffix in (".sbj", ".sbc"):
                mpremote(board.port, "fs", "cp", str(path), ":journal/" + path.name)
        assert "erased" in mpremote(board.port, "exec", ERASE_RING)
        board.command("power_cycle")
        board.started(len(board.boots()) + 1)
        after = ask(board.port, "from firmware.remote import state\nstate()")
        t3 = pulled(board, tmp_path / "t3")
    assert "./journal/checkpoints.sbc" in files.split() and not re.search(r"\.key\b|keys/", files), files
    assert after["alarms"] >> (rec.FAULT_ROLLBACK - 1) & 1, after  # locked: only the supervisor's key clears it
    public = tmp_path / "element.pub"  # what the casino enrolled: the element's public key
    public.write_text(_element(SimElement.load(str(tmp_path / "shoe.flash.element"))).public_key(1).hex())
    early, late, back = (json.loads((t / "receipt.json").read_text()) for t in (t1, t2, t3))
    assert early["seq"] < late["seq"], (early, late)  # the second deal journalled
    assert back["counter"] > late["counter"] and back["seq"] < late["seq"], (early, late, back)  # later by the
    # counter, ending earlier
    said = sabot("log", "verify", "--lang", "en", t3, "--json", "--public-key", public, "--receipt",
                 t2 / "receipt.json")
    found = [f["message"] for f in json.loads(said.stdout)["findings"] if f["id"] == "J-TAMPER"]
    assert said.returncode == 1 and any("does not end after receipt %s" % (t2 / "receipt.json") in m
                                        for m in found), found
    honest = sabot("log", "verify", "--lang", "en", t2, "--public-key", public, "--receipt", t1 / "receipt.json")
    assert honest.returncode == 0, honest.stdout  # the honest pulls verify, the later extending the earlier
