"""The gate and the beam's count in the RP2040's PIO (boards/rpi_pico/pio_gate.py, issue 36), on the emulated Pico,
whose PIO runs with the core's clock, through flash erases (tools/pico/pico.mjs): cards a cheat pulls through the
locked mouth while a sector erase holds the core's interrupts off come to the interrupt as one edge; the PIO counts
each, and each is journalled as a forced card. No card released by an arm is ever counted as forced."""

import pytest

from firmware.records import FORCED, NORMAL, R_CARD
from sabot.journalfile import CONDITION, TYPE, Reader, load_segments
from sabot.pico import GATE, PINS, Pico, commission, gate_closings, open_seance, steps
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)
from tests.host.test_pico_shoe import sabot

pytestmark = pytest.mark.pico

FORCED_IN_ONE_ERASE = (2, 3, 5)
COUPS = "no_more_bets\ndraw 6\ncoup_end\n" * 3  # a round's deal: erases come with the records (and after them)


def rounds(folder):
    """The croupier's steps: a shoe loaded, then for each count the cheat's cards armed for the next erase with the
    gate locked, three coups dealt (the shoe locks at the first forced card: the rest of the requests are refused),
    and once the cards came, the supervisor's key."""
    shoe = folder / "shoe.txt"
    shoe.write_text("game chemin_de_fer\nshoe seed=7\nburn 1\n")
    loaded = steps(shoe)[:-1]  # less its last wait
    shoe.write_text(shoe.read_text() + COUPS)
    coups = steps(shoe)[len(loaded):]
    out = loaded
    for n in FORCED_IN_ONE_ERASE:
        out += [{"force_in_erase": n}] + coups + [{"forced": True}, {"press": PINS["clear_alarm"]}]
    return out


def conditions(journal):
    """The pulled journal's cards, as (condition) in order."""
    return [r.fields[CONDITION] for r in Reader(load_segments([journal]), None) if r.fields[TYPE] == R_CARD]


@pytest.mark.req("S-FORCED", "S-ONE", "S-LOCK")
def test_cards_forced_through_the_locked_mouth_during_one_erase_are_each_journalled_as_forced(
        image, tmp_path):  # noqa: F811
    with Pico(tmp_path / "shoe.flash", blank=True, development=True) as board:
        commission(board, tmp_path)
        open_seance(board)
        began = board.now_us()
        board.command("deal", timeout=3600, steps=rounds(tmp_path), no_card_us=300_000)
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "journal")
        assert pulled.returncode == 0, pulled.stderr
        events = [e for e in board.events if e["t_us"] >= began]
    forced = [e for e in events if e["ev"] == "forced"]
    assert [e["cards"] for e in forced] == list(FORCED_IN_ONE_ERASE)
    assert all(all(e["locked"]) for e in forced)  # pulled through a locked gate, during the erase
    assert all(e["erase_began_us"] < e["t_us"] <= e["erase_began_us"] + e["erase_us"] for e in forced)
    journalled = conditions(tmp_path / "journal")
    assert journalled.count(FORCED) == sum(FORCED_IN_ONE_ERASE)  # one record a card, not one an erase
    released = [e for e in events if e["ev"] == "card"]  # the cards an arm let out
    assert released and journalled.count(NORMAL) == len(released)  # none of them counted as forced
    assert max(gate_closings(events)) <= 1  # each released card's gate shut by the PIO within a microsecond
    opened = [e for e in events if e["ev"] == "pin" and e["pin"] == GATE and e["level"] == 1]
    assert len(opened) == len(released)  # the gate opened once a card, never for a forced one
