"""A shoe commissioned and dealt on the emulated Pico (tools/pico/): its image, its own key and clock, a séance
opened with sabot, the cards dealt through its pins and reader as a croupier deals them, the journal pulled with
sabot pull-log and verified clean under the shoe's key. The gate's timing comes from the same run."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sabot.pico import Pico, play
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


def commission(board, tmp_path):
    """What a technician does to a new Pico with the image: config.json, the DS3231 set (the board's set_clock:
    a stopped clock keeps the controller from starting), the shoe's own key; then a power cycle."""
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"board": "rpi_pico", "sabot": 42, "table": 3, "game": "chemin_de_fer",
                                  "reader": True}))
    key = tmp_path / "sabot-0042.key"
    assert sabot("key", "new", key).returncode == 0
    mpremote(board.port, "cp", str(config), ":config.json")
    mpremote(board.port, "exec", "from boards.rpi_pico.board import set_clock\nset_clock(2026, 12, 1, 8, 0, 0)\n"
             "import os\nos.mkdir('keys')")
    mpremote(board.port, "cp", str(key), ":keys/sabot.key")
    board.command("power_cycle")
    board.started(len(board.boots()) + 1)
    return key


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
