"""A shoe commissioned and dealt on the emulated Pico (tools/pico/): its image, its own key and clock, a séance
opened with sabot, the cards dealt through its pins and reader as a croupier deals them, the journal pulled with
sabot pull-log and verified clean under the shoe's key. The gate's timing comes from the same run."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from boards.sim.shoe import shuffled_shoe
from firmware import cards
from firmware.games import CHEMIN_DE_FER
from sabot.pico import Pico, commission, play, press, pull
from sabot.shoe_link import mpremote
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)

pytestmark = pytest.mark.pico

SABOT = str(Path(sys.executable).parent / "sabot")
# The first coups of a six-deck shoe (a whole one, 60 coups, would take the emulator about half an hour).
SHOE = "game chemin_de_fer\nshoe seed=4\nburn 1\n" + "no_more_bets\ndraw 6\n" * 3


def sabot(*args):
    done = subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=600)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def dealt(image, tmp_path_factory):  # noqa: F811
    """One shoe commissioned, dealt and pulled; the tests read what it left."""
    tmp_path = tmp_path_factory.mktemp("pico-shoe")
    scenario = tmp_path / "short.txt"
    scenario.write_text(SHOE)
    with Pico(tmp_path / "shoe.flash", blank=True) as board:
        key = commission(board, tmp_path)
        opened = sabot("seance", "open", "--port", board.port, "--table", 3, "--by", 4711)
        assert opened.returncode == 0, opened.stderr
        play(board, scenario)
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "journal")
        assert pulled.returncode == 0, pulled.stderr
        events = list(board.events)
    return tmp_path, key, events


@pytest.mark.req("H-FIRMWARE", "J-EVERY", "H-VERIFY")
def test_a_shoe_dealt_through_the_pins_verifies_clean_under_its_key(dealt):
    tmp_path, key, events = dealt
    assert len([e for e in events if e["ev"] == "card"]) >= 7  # the burn and the coups' cards slid out
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--key", key)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "result: clean" in verified.stdout


def gate_closings(events):
    """For each card: simulated µs from the beam's break to the gate's pin falling."""
    closings = []
    for card in (e for e in events if e["ev"] == "card"):
        broken = card["opened_us"] + 8000  # tools/pico/pico.mjs: the beam breaks 8 ms after the gate opens
        fell = [e["t_us"] for e in events if e["ev"] == "pin" and e["pin"] == 16 and e["level"] == 0
                and e["t_us"] >= broken]
        closings.append(fell[0] - broken)
    return closings


@pytest.mark.req("S-LOCK")
def test_the_gate_falls_within_a_millisecond_of_each_cards_beam_edge(dealt):
    closings = gate_closings(dealt[2])
    assert closings and max(closings) < 1000


@pytest.mark.req("S-FAILSAFE", "J-DURABLE")
def test_a_stopped_controller_is_reset_by_the_watchdog_and_serves_again_on_its_flash(dealt):
    tmp_path = dealt[0]
    with Pico(tmp_path / "shoe.flash", image=False) as board:
        board.started()
        stopped_at = board.now_us()
        mpremote(board.port, "exec", "x = 1")  # mpremote's Ctrl-C stops the loop; nothing feeds the watchdog
        board.wait(lambda: len(board.boots()) == 2, timeout=600)
        reset = board.boots()[1]
        assert reset["cause"] == "watchdog"
        assert 5_000_000 <= reset["t_us"] - stopped_at < 7_000_000  # boards/mcu/README.md: 5 s
        board.started(2)
        assert [e["level"] for e in board.pin_events(16) if e["t_us"] > reset["t_us"]] == [0]
        said = mpremote(board.port, "exec", "from firmware.runtime import Runtime\n"
                        "print(Runtime.current.shell.journal.seq)")
        assert int(said.strip()) > 0  # its journal recovered from the flash


CUTS = int(os.environ.get("PICO_CUTS", "6"))  # PICO_CUTS=50 for the long run (docs/pico-emulator.md)


@pytest.mark.req("J-DURABLE", "S-FAILSAFE")
def test_power_cut_at_random_instants_of_the_deal_the_journal_pulled_verifies_clean(image, tmp_path):  # noqa: F811
    rng = random.Random(2026)
    with Pico(tmp_path / "shoe.flash", blank=True) as board:
        key = commission(board, tmp_path)
        assert sabot("seance", "open", "--port", board.port, "--table", 3, "--by", 4711).returncode == 0
        deck = iter(shuffled_shoe(CHEMIN_DE_FER, 7))
        press(board, 10)  # shoe loaded
        press(board, 6)  # no more bets
        for _ in range(CUTS):
            boots = len(board.boots())
            board.command("power_cycle", at_us=board.now_us() + rng.randrange(0, 400_000))
            while len(board.boots()) == boots:
                pull(board, 9, cards.name(next(deck)))
            assert [e["level"] for e in board.pin_events(16) if e["t_us"] >= board.boots()[-1]["t_us"]][:1] == [0]
            board.started(boots + 1)
        assert sabot("pull-log", "--port", board.port, tmp_path / "journal").returncode == 0
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--key", key)
    assert verified.returncode == 0, verified.stdout + verified.stderr
