"""The gate and the beam's count in the RP2040's PIO (boards/rpi_pico/pio_gate.py, issue 36), on the emulated Pico,
whose PIO runs with the core's clock, through flash erases (tools/pico/pico.mjs): cards a cheat pulls through the
locked mouth while a sector erase holds the core's interrupts off come to the interrupt as one edge; the PIO counts
each, and each is journalled as a forced card. No card released by an arm is ever counted as forced."""

import os
import random

import pytest

from boards.sim.shoe import shuffled_shoe
from firmware import cards
from firmware.games import CHEMIN_DE_FER
from firmware.records import FORCED, NORMAL, R_CARD
from sabot.journalfile import CONDITION, TYPE, Reader, load_segments
from sabot.pico import GATE, PINS, Pico, commission, gate_closings, open_seance, steps
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)
from tests.host.test_pico_shoe import CUT_DRAWS, opened_at_boot, releases, sabot

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


MOMENT_CUTS = int(os.environ.get("PICO_MOMENT_CUTS", "6"))  # make test-pico and make test-long: 51
MOMENTS = ("open", "break", "erase")


def moment_cut_rounds(rng, cuts):
    """The croupier's steps: each round a power cut timed to a moment of the deal (the gate's opening for a card,
    a card's beam break, a flash erase's start, after a random delay: within the erase, within the card's travel),
    the deal going on through the cut and the boot, then the supervisor's key and the next coup."""
    out = [{"deck": [cards.name(c) for c in shuffled_shoe(CHEMIN_DE_FER, 11)]}, {"press": PINS["shoe"]}]
    for k in range(cuts):
        when = MOMENTS[k % len(MOMENTS)]
        delay = rng.randrange(0, 40_000) if when == "erase" else rng.randrange(0, 6_000)
        out += [{"cut_when": when, "delay_us": delay, "within_us": 3_000_000}, {"press": PINS["no_more_bets"]}]
        out += [{"press": PINS["draw"], "draw": True}] * CUT_DRAWS
        out += [{"served": True}, {"press": PINS["clear_alarm"]}]
    return out


@pytest.mark.req("J-DURABLE", "S-FAILSAFE", "S-ONE")
def test_power_cuts_at_the_gates_opening_a_beam_edge_or_an_erase_leave_no_card_unlogged_and_the_gate_shut_at_boot(
        image, tmp_path):  # noqa: F811
    """PICO_MOMENT_CUTS cuts (6 in make test, 51 in make test-pico and make test-long), a third timed to each moment:
    every card the gate let out is a card record or an uncertain release the next boot reports; the gate never opens
    before the controller serves again."""
    with Pico(tmp_path / "shoe.flash", blank=True, development=True) as board:
        commission(board, tmp_path)
        open_seance(board)
        board.command("deal", timeout=3600, steps=moment_cut_rounds(random.Random(36), MOMENT_CUTS))
        assert sabot("pull-log", "--port", board.port, tmp_path / "journal").returncode == 0
        boots, events = board.boots(), list(board.events)
    cuts = [e for e in events if e["ev"] == "cut"]
    assert len(cuts) == MOMENT_CUTS and len(boots) >= MOMENT_CUTS + 2
    for when in MOMENTS:  # each kind of moment met by a cut at least once (not the fallback's)
        assert any(c["hit"] for c in cuts if c["when"] == when), (when, cuts)
    assert opened_at_boot(boots, events) == []
    opened = len([e for e in events if e["ev"] == "pin" and e["pin"] == GATE and e["level"] == 1])
    slid = len([e for e in events if e["ev"] == "card"])
    released, dealt, uncertain, findings = releases(tmp_path / "journal")
    assert opened <= released <= opened + MOMENT_CUTS  # each release durable before its gate opened
    assert slid <= dealt + uncertain and dealt + uncertain == released  # no card out without its record or the
    # boot's report of an uncertain release
    assert [f for f in findings if f.id == "J-TAMPER"] == []
