"""Issue 37's five attacks, each run end to end as someone with the board on the bench would, on the virtual board
(its development image's REPL) and on the emulated Pico (the development image loaded over the production one, as
BOOTSEL lets him, then the production image again): the forced card made a burn with every checkpoint signed again
by the element; the coup in play cut back to the checkpoint before it; an earlier entry's reason rewritten; the
flash put back as a saved copy; another shoe's receipt handed in. The shoe is restarted, its journal pulled, and
`sabot log verify --public-key` (the key the casino enrolled) catches each, in words an inspector reads in French.
The attackers' code: tests/host/bench_attacks.py."""

import json
import shutil

import pytest

from boards.sim.element import SimElement
from firmware.format import checkpoint as cp
from tests.host import bench_attacks as attacks
from tests.host.test_commissioning import sabot
from tests.host.test_element import _element
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)
from tests.host.test_tamper_mpremote import play, pull, restart, status
from tests.host.test_vboard import VirtualBoard

DEALT = ("seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\nshoe seed=5\nno_more_bets\ndraw 4\ncoup_end\n"
         "force\nclear_alarm\nno_more_bets\ndraw 4\ncoup_end\n")  # a forced card between two coups
IN_PLAY = "shoe seed=7\nno_more_bets\ndraw 2\n"  # a coup under way: its opening counted up and signed, two cards out
FRENCH = {"not signed": "n'est pas signé par l'élément sécurisé du sabot",
          "missing": "point(s) de contrôle manquent"}


def findings(folder, public, *more, lang="en"):
    """verify's exit code and its findings' messages (J-TAMPER's and S-FORCED's)."""
    said = sabot("log", "verify", "--lang", lang, folder, "--json", "--public-key", public, *more)
    return said.returncode, [f["message"] for f in json.loads(said.stdout)["findings"]]


def caught_by_report_and_ingest(folder, public, work):
    """`sabot report` and `sabot fleet ingest --registry` on the pulled journal, the casino's registry holding the
    shoe's number under the key it enrolled: the report's verdict is not "conforme" and names a J-TAMPER finding, the
    ingest refuses the journal or records its findings."""
    from sabot.journalfile import load_segments

    registry = work / "shoes.json"
    registry.write_text(json.dumps({"shoes": [{"sabot": load_segments([folder])[0].sabot, "public_key":
                                               public.read_text().strip(), "casino_key": "00",
                                               "enrolled": "2026-12-01T08:00:00"}]}))
    said = json.loads(sabot("report", folder, "-o", work / "rapport.html", "--registry", registry, "--json",
                            "--force").stdout)
    assert said["conforme"] is False and any(f["id"] == "J-TAMPER" for f in said["findings"]), said
    done = sabot("fleet", "ingest", folder, "--db", work / "casino.duckdb", "--casino", "deauville", "--registry",
                 registry, "--json")
    journal = json.loads(done.stdout)["journals"][0]
    assert done.returncode == 1 and ("refused" in journal or any(f["id"] == "J-TAMPER" for f in journal["findings"])), (
        journal)


def french(folder, public, *more):
    said = sabot("log", "verify", "--lang", "fr", folder, "--public-key", public, *more)
    return said.returncode, said.stdout


# The virtual board: one shoe dealt, copied for each attack (its flash folder, its element's state, its label).

@pytest.fixture(scope="module")
def dealt(tmp_path_factory, mpy_build):
    """A development virtual board's shoe after a séance, two coups, a forced card cleared and a coup: its files."""
    base = tmp_path_factory.mktemp("dealt")
    board = VirtualBoard(base)
    try:
        play(board, base, DEALT)
        assert status(board)["forced"] is False  # cleared by the supervisor's key
    finally:
        board.close()
    return base


def copy(base, where):
    where.mkdir()
    for path in base.iterdir():
        if path.is_dir():
            shutil.copytree(path, where / path.name)
        elif not path.is_symlink():
            shutil.copy2(path, where / path.name)
    return where


def public_key(folder, state="fs.element"):
    public = folder / "element.pub"  # the key the casino enrolled: the journal's, slot 1's
    public.write_text(_element(SimElement.load(str(folder / state))).public_key(1).hex())
    return public


def vboard_pull(shoe, folder, before=None):
    """The virtual board at shoe started (a scenario dealt first): its status, and its journal pulled into folder."""
    board = VirtualBoard(shoe)
    try:
        if before:
            play(board, shoe, before)
        return status(board), pull(board, folder)
    finally:
        board.close()


def attacked(folder, code, before=None):
    """The shoe's copy at folder attacked by code at its REPL (before: a scenario dealt first), restarted, pulled:
    what it said, its status after the restart, and the pulled folder."""
    board = VirtualBoard(folder)
    try:
        if before:
            play(board, folder, before)
        said = board.exec(code)
        restart(board)
        after = status(board)
        pulled = pull(board, folder / "pulled")
    finally:
        board.close()
    return said, after, pulled


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "K-COUNTER", "S-FORCED")
def test_on_the_virtual_board_the_forced_card_made_a_burn_and_every_entry_signed_again_is_caught(dealt, tmp_path):
    said, after, pulled = attacked(copy(dealt, tmp_path / "shoe"), attacks.FORCED_MADE_A_BURN)
    assert "rewritten" in said and not after["rollback"]  # the shoe itself boots clean: its counter is the last entry's
    public = public_key(tmp_path / "shoe")
    code, found = findings(pulled, public)
    assert code == 1 and not [m for m in found if "forced" in m.lower()], found  # no forced card left in the records
    unsigned = [m for m in found if "is not signed by the shoe's element" in m]
    assert len(unsigned) >= 3, found  # every entry the chip's counter had passed: its one genuine signature is the last
    code, text = french(pulled, public)
    assert code == 1 and FRENCH["not signed"] in text
    caught_by_report_and_ingest(pulled, public, tmp_path)


@pytest.mark.req("J-TAMPER", "K-COUNTER", "S-FAILSAFE")
def test_on_the_virtual_board_the_coup_in_play_cut_back_to_the_checkpoint_before_it_is_caught(dealt, tmp_path):
    said, after, pulled = attacked(copy(dealt, tmp_path / "shoe"), attacks.CUT_BACK_TO_THE_LAST_CHECKPOINT, IN_PLAY)
    assert "cut" in said and after["rollback"] and after["locked"] and not after["gate open"], (said, after)
    code, found = findings(pulled, public_key(tmp_path / "shoe"))
    assert code == 1 and any("checkpoint(s) missing" in m for m in found), found
    code, text = french(pulled, public_key(tmp_path / "shoe"))
    assert code == 1 and FRENCH["missing"] in text
    caught_by_report_and_ingest(pulled, public_key(tmp_path / "shoe"), tmp_path)


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_on_the_virtual_board_an_earlier_entrys_reason_rewritten_is_caught(dealt, tmp_path):
    said, _, pulled = attacked(copy(dealt, tmp_path / "shoe"), attacks.EARLIER_REASON_REWRITTEN)
    entry = int(said.split()[-1])
    data = (pulled / cp.FILE).read_bytes()
    assert data[(entry - 1) * cp.SIZE + 1] == cp.COUP_END  # as rewritten: the alarm's entry says a coup's end
    code, found = findings(pulled, public_key(tmp_path / "shoe"))
    assert code == 1 and any(m.startswith("checkpoint %d " % entry) and "is not signed" in m for m in found), found
    assert any(m.startswith("checkpoint %d " % (entry + 1)) and "does not hold the hash of the entry before it" in m
               for m in found), found
    code, text = french(pulled, public_key(tmp_path / "shoe"))
    assert code == 1 and FRENCH["not signed"] in text
    caught_by_report_and_ingest(pulled, public_key(tmp_path / "shoe"), tmp_path)


@pytest.mark.req("J-TAMPER", "K-COUNTER", "S-FORCED")
def test_on_the_virtual_board_the_flash_put_back_as_a_saved_copy_is_caught(dealt, tmp_path, mpy_build):
    """The flash saved before the forced card (a copy of the whole chip, as a programmer on the bench reads it) and
    written back after it and an inspector's pull: the element's counter has gone on."""
    shoe = tmp_path / "shoe"
    _, inspected = vboard_pull(copy(dealt, shoe), tmp_path / "inspected")
    saved = copy(shoe / "fs", tmp_path / "saved")  # the chip's bytes, the element outside them
    _, later = vboard_pull(shoe, tmp_path / "later", "shoe seed=6\nno_more_bets\ndraw 4\ncoup_end\nforce\n")
    shutil.rmtree(shoe / "fs")
    shutil.copytree(saved, shoe / "fs")
    after, pulled = vboard_pull(shoe, tmp_path / "pulled")
    assert after["rollback"] and after["locked"] and not after["gate open"], after
    public = public_key(shoe)
    code, found = findings(pulled, public, "--receipt", later / "receipt.json")
    assert code == 1 and any("does not end after receipt" in m for m in found), found
    assert findings(pulled, public, "--receipt", inspected / "receipt.json")[0] == 1  # the rollback fault itself
    code, text = french(pulled, public, "--receipt", later / "receipt.json")
    assert code == 1 and "reçu" in text
    caught_by_report_and_ingest(pulled, public, tmp_path)


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_on_the_virtual_board_another_shoes_receipt_handed_in_is_caught(dealt, tmp_path, mpy_build):
    """Another shoe's receipt (its own element's, genuine) put in this shoe's pulled folder, and given as the
    earlier receipt this journal must extend: neither is this shoe's element's."""
    other = tmp_path / "other"
    other.mkdir()
    _, theirs = vboard_pull(other, other / "pulled", "seance table=3\nshoe seed=9\nno_more_bets\ndraw 4\ncoup_end\n")
    _, pulled = vboard_pull(copy(dealt, tmp_path / "shoe"), tmp_path / "pulled")
    public = public_key(tmp_path / "shoe")
    honest = findings(pulled, public)[1]
    assert honest and not [m for m in honest if "receipt" in m or "forced" not in m], honest  # its forced card alone
    shutil.copy2(theirs / "receipt.json", pulled / "receipt.json")
    shutil.copy2(theirs / "pull.json", pulled / "pull.json")
    code, found = findings(pulled, public)
    assert code == 1 and any("receipt" in m and "not signed by the shoe's element" in m for m in found), found
    code, found = findings(pulled, public, "--receipt", theirs / "receipt.json")
    assert code == 1, found
    code, text = french(pulled, public)
    assert code == 1 and "reçu" in text
    caught_by_report_and_ingest(pulled, public, tmp_path)


# The emulated Pico: a production shoe commissioned as a casino's (the factory's bench, the casino's enrolment under
# the label's code, a séance opened under its key), dealt through its pins; each attack on a copy of its flash and
# its element's state, the development image loaded over the production one for the attacker's REPL, then the
# production image again, restarted and pulled over the shoe's protocol. In make test-pico (minutes of emulation).

BEAM = 17  # the emulated Pico's beam at the mouth (tools/pico/pico.mjs): low while a card breaks it
PICO_DEALT = ("shoe seed=4\nno_more_bets\ndraw 4\ncoup_end\n", "clear_alarm\nshoe seed=6\nno_more_bets\ndraw 4\n"
              "coup_end\n")  # the forced card between the two


def pico_deal(board, folder, text):
    from sabot.pico import play

    (folder / "deal.txt").write_text(text)
    play(board, folder / "deal.txt")


@pytest.fixture(scope="module")
def pico_dealt(tmp_path_factory, image):  # noqa: F811
    from sabot import keys
    from sabot.pico import Pico, press
    from sabot.pico_vboard import factory
    from sabot.production_link import restarted_production

    base = tmp_path_factory.mktemp("pico")
    (base / "casino.key").write_text(bytes(range(32, 64)).hex())
    code = factory(base / "shoe.flash", {"config.json": json.dumps({
        "board": "rpi_pico", "sabot": 42, "table": 3, "game": "chemin_de_fer", "reader": True})})
    with Pico(base / "shoe.flash") as board:  # the production image, as a UF2 drop
        restarted_production(board.port)
        assert keys.enrol(board.port, str(base / "casino.key"), str(base / "shoes.json"), code=code) == 0
        opened = sabot("seance", "open", "--port", board.port, "--table", 3, "--by", 4711, "--casino-key",
                       base / "casino.key")
        assert opened.returncode == 0, opened.stderr
        pico_deal(board, base, PICO_DEALT[0])
        press(board, BEAM)  # a card pulled through the locked mouth: the forced card's alarm
        pico_deal(board, base, PICO_DEALT[1])
    return base


def pico_copy(base, where):
    where.mkdir()
    for path in base.iterdir():  # the flash, the element's state, the DS3231's, the casino's key and registry
        if path.is_file():
            shutil.copy2(path, where / path.name)
    return where


def production_pull(flash, folder, before=None):
    """The production image booted on flash (a scenario dealt first), its journal pulled over the protocol."""
    from sabot.pico import Pico
    from sabot.production_link import restarted_production

    with Pico(flash) as board:
        restarted_production(board.port)
        if before:
            pico_deal(board, flash.parent, before)
        pulled = sabot("pull-log", "--port", board.port, folder)
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    return folder


def pico_attacked(where, code, before=None):
    """Before (dealt on the production image, its power cut mid-coup when it ends so), the development image over
    the production one and code at its REPL, then the production image again: what the REPL said, and the pull."""
    from sabot.mpremote_link import mpremote
    from sabot.pico import Pico
    from sabot.production_link import restarted_production

    flash = where / "shoe.flash"
    if before:
        with Pico(flash) as board:
            restarted_production(board.port)
            pico_deal(board, where, before)
    with Pico(flash, development=True) as board:  # BOOTSEL: the development image's UF2 dropped on the shoe
        board.started()
        said = mpremote(board.port, "exec", code)
    return said, production_pull(flash, where / "pulled")


@pytest.mark.pico
@pytest.mark.pico_long
@pytest.mark.req("J-TAMPER", "K-ELEMENT", "K-COUNTER", "S-FORCED")
def test_on_the_emulated_pico_the_forced_card_made_a_burn_and_every_entry_signed_again_is_caught(pico_dealt, tmp_path):
    where = pico_copy(pico_dealt, tmp_path / "shoe")
    said, pulled = pico_attacked(where, attacks.FORCED_MADE_A_BURN)
    assert "rewritten" in said, said
    public = public_key(where, "shoe.flash.element")
    code, found = findings(pulled, public)
    assert code == 1 and not [m for m in found if "forced" in m.lower()], found
    assert len([m for m in found if "is not signed by the shoe's element" in m]) >= 3, found
    assert FRENCH["not signed"] in french(pulled, public)[1]
    caught_by_report_and_ingest(pulled, public, tmp_path)


@pytest.mark.pico
@pytest.mark.pico_long
@pytest.mark.req("J-TAMPER", "K-COUNTER", "S-FAILSAFE")
def test_on_the_emulated_pico_the_coup_in_play_cut_back_to_the_checkpoint_before_it_is_caught(pico_dealt, tmp_path):
    where = pico_copy(pico_dealt, tmp_path / "shoe")
    said, pulled = pico_attacked(where, attacks.CUT_BACK_TO_THE_LAST_CHECKPOINT, "shoe seed=7\nno_more_bets\n"
                                 "draw 2\n")
    assert "cut" in said, said
    public = public_key(where, "shoe.flash.element")
    code, found = findings(pulled, public)
    assert code == 1 and any("behind its last signed checkpoint" in m for m in found), found
    assert any("checkpoint(s) missing" in m for m in found), found
    assert FRENCH["missing"] in french(pulled, public)[1]
    caught_by_report_and_ingest(pulled, public, tmp_path)


@pytest.mark.pico
@pytest.mark.pico_long
@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_on_the_emulated_pico_an_earlier_entrys_reason_rewritten_is_caught(pico_dealt, tmp_path):
    where = pico_copy(pico_dealt, tmp_path / "shoe")
    said, pulled = pico_attacked(where, attacks.EARLIER_REASON_REWRITTEN)
    entry = int(said.split()[-1])
    public = public_key(where, "shoe.flash.element")
    code, found = findings(pulled, public)
    assert code == 1 and any(m.startswith("checkpoint %d " % entry) and "is not signed" in m for m in found), found
    assert any(m.startswith("checkpoint %d " % (entry + 1)) and "does not hold the hash" in m for m in found), found
    assert FRENCH["not signed"] in french(pulled, public)[1]
    caught_by_report_and_ingest(pulled, public, tmp_path)


@pytest.mark.pico
@pytest.mark.pico_long
@pytest.mark.req("J-TAMPER", "K-COUNTER", "S-FORCED")
def test_on_the_emulated_pico_the_flash_put_back_as_a_saved_copy_is_caught(pico_dealt, tmp_path):
    """The whole flash chip read at T1 (a programmer on the bench), a forced card and an inspector's pull at T2, the
    copy written back: the element, outside the flash, has counted on."""
    where = pico_copy(pico_dealt, tmp_path / "shoe")
    flash = where / "shoe.flash"
    saved = flash.read_bytes()
    later = production_pull(flash, tmp_path / "later", "shoe seed=8\nno_more_bets\ndraw 4\ncoup_end\n")
    flash.write_bytes(saved)
    pulled = production_pull(flash, tmp_path / "pulled")
    public = public_key(where, "shoe.flash.element")
    code, found = findings(pulled, public, "--receipt", later / "receipt.json")
    assert code == 1 and any("behind its last signed checkpoint" in m for m in found), found
    assert any("does not end after receipt" in m for m in found), found
    assert "reçu" in french(pulled, public, "--receipt", later / "receipt.json")[1]
    caught_by_report_and_ingest(pulled, public, tmp_path)


@pytest.mark.pico
@pytest.mark.pico_long
@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_on_the_emulated_pico_another_shoes_receipt_handed_in_is_caught(pico_dealt, dealt, tmp_path, mpy_build):
    """The virtual board's receipt (another shoe, its own element) put in the Pico's pulled folder."""
    _, theirs = vboard_pull(copy(dealt, tmp_path / "other"), tmp_path / "theirs")
    where = pico_copy(pico_dealt, tmp_path / "shoe")
    pulled = production_pull(where / "shoe.flash", tmp_path / "pulled")
    public = public_key(where, "shoe.flash.element")
    assert not [m for m in findings(pulled, public)[1] if "receipt" in m]
    shutil.copy2(theirs / "receipt.json", pulled / "receipt.json")
    shutil.copy2(theirs / "pull.json", pulled / "pull.json")
    code, found = findings(pulled, public)
    assert code == 1 and any("receipt" in m and "not signed by the shoe's element" in m for m in found), found
    assert "reçu" in french(pulled, public)[1]
    caught_by_report_and_ingest(pulled, public, tmp_path)
