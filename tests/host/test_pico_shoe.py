"""A shoe commissioned and dealt on the emulated Pico (tools/pico/): its image, its element and clock, a séance
opened with sabot, the cards dealt through its pins and reader as a croupier deals them, the journal pulled with
sabot pull-log and verified clean with its element's public key. The gate's timing comes from the same run."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from boards.sim.element import SimElement
from boards.sim.shoe import shuffled_shoe
from firmware import cards
from firmware.games import CHEMIN_DE_FER
from firmware.records import R_CARD, R_RECOVERY, R_RELEASE
from sabot import pico as emulated
from sabot.journalfile import CONDITION, TYPE, Reader, load_segments
from sabot.mpremote_link import mpremote
from sabot.pico import GATE, Pico, commission, deal_whole_shoe, erases, gate_closings, heap_low_water
from tests.conftest import ROOT
from tests.host.test_element import _element
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)

pytestmark = pytest.mark.pico

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args):
    done = subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=600)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def dealt(image, tmp_path_factory):  # noqa: F811
    """A whole shoe commissioned, dealt through the pins to the stop card and pulled; the tests read what it left."""
    tmp_path = tmp_path_factory.mktemp("pico-shoe")
    with Pico(tmp_path / "shoe.flash", blank=True, development=True) as board:
        deal = deal_whole_shoe(board, tmp_path)
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "journal")
        assert pulled.returncode == 0, pulled.stderr
        events = list(board.events)
    public = tmp_path / "element.pub"  # what the casino enrolls: the element's public key, from its state file
    public.write_text(_element(SimElement.load(str(tmp_path / "shoe.flash.element"))).public_key(1).hex())
    return tmp_path, public, events, deal


@pytest.mark.req("H-FIRMWARE", "J-EVERY", "H-VERIFY", "S-STOP")
def test_a_whole_shoe_dealt_through_the_pins_verifies_clean_with_its_elements_public_key(dealt):
    tmp_path, public, events, deal = dealt
    slid = len([e for e in events if e["ev"] == "card"])
    assert slid == deal["dealt"] > 6 * 52 * 0.8  # to the stop card, near the shoe's end (Article 58)
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--public-key", public)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "result: clean" in verified.stdout


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "K-COUNTER", "H-VERIFY")
def test_the_pulled_journals_checkpoints_verify_with_the_picos_element_public_key(dealt):
    """The image's own driver signed them on the element (boards/sim/element.py through the emulator's I2C), one a
    power-up, a coup's end and a séance, and the pull's; its public key, read from the element's state beside the
    flash, checks them."""
    tmp_path, public = dealt[0], dealt[1]
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--public-key", public, "--json")
    answer = json.loads(verified.stdout)
    assert answer["ok"], answer["findings"]
    points = answer["checkpoints"]
    assert points["checked"] and points["count"] > 10 and points["records_after"] == 0, points
    receipt = json.loads((tmp_path / "journal" / "receipt.json").read_text())  # signed by the Pico's element
    assert receipt["receipt"] == 3 and receipt["counter"] == points["counters"][1], receipt  # the pull's checkpoint's


@pytest.mark.req("J-DURABLE")
def test_the_shoes_records_go_through_the_ring_and_its_erases_are_few(dealt):
    """Erases counted on the emulated flash during the deal (tools/pico/pico.mjs's flash events): the ring's sectors
    and littlefs's blocks, within bench/budgets.json's pico.erases_per_card budgets."""
    events, deal = dealt[2], dealt[3]
    ring, littlefs = erases(events, deal["began_us"])
    budgets = json.loads((ROOT / "bench" / "budgets.json").read_text())["budgets"]
    assert 0 < ring / deal["dealt"] <= budgets["pico.erases_per_card.ring"]["max"]
    assert littlefs / deal["dealt"] <= budgets["pico.erases_per_card.littlefs"]["max"]


@pytest.mark.req("H-FIRMWARE")
def test_the_shoe_leaves_a_quarter_of_the_picos_heap_free_after_every_collection(dealt):
    """Counted by the emulator in the allocation table each time gc_collect_end returns (pico.mjs)."""
    low = heap_low_water(dealt[2])
    if low is None:
        pytest.skip("no gdb to find the image's heap")
    free, heap = low
    assert free >= heap / 4


@pytest.mark.req("S-LOCK", "S-ONE")
def test_the_pios_state_machine_shuts_the_gate_within_a_microsecond_of_each_cards_beam_edge(dealt):
    """Simulated time at 125 MHz (rp2040js counts the Cortex-M0+'s cycles, the harness steps the PIO with them):
    deterministic, not wall-clock. The gate's pin is the state machine's (boards/rpi_pico/pio_gate.py); the beam's
    interrupt handler's own lock comes later, and after the PIO's on every card."""
    events = dealt[2]
    closings = gate_closings(events)
    assert len(closings) == dealt[3]["dealt"] and max(closings) <= 1
    assert min(emulated.interrupt_closings(events)) > max(closings)  # the PIO's fall shut it, not the interrupt


@pytest.mark.req("S-FAILSAFE", "J-DURABLE")
def test_a_stopped_controller_is_reset_by_the_watchdog_and_serves_again_on_its_flash(dealt):
    tmp_path = dealt[0]
    with Pico(tmp_path / "shoe.flash", image=False, development=True) as board:
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


CUTS = int(os.environ.get("PICO_CUTS", "10"))  # make test-pico: 100
CUT_DRAWS = 5  # a round's dealer's requests: the cut falls among them, or in the boot before them


def cut_rounds(rng, cuts):
    """The croupier's steps: each round a power cut at a random instant of its deal, the deal going on through the
    cut and the boot (requests the booting shoe cannot see are taken back), then, once the controller serves
    again, the supervisor's key for whatever alarm the cut left, and the next coup's bets."""
    steps = [{"deck": [cards.name(c) for c in shuffled_shoe(CHEMIN_DE_FER, 7)]}, {"press": 10}]
    for _ in range(cuts):
        steps += [{"cut_in_us": rng.randrange(0, 600_000)}, {"press": 6}]
        steps += [{"press": 9, "draw": True}] * CUT_DRAWS
        steps += [{"served": True}, {"press": 12}]
    return steps


def releases(journal):
    """From the pulled journal: the releases (each durable before its gate opened), the cards dealt, the releases
    recovery reported uncertain, and the integrity findings."""
    reader = Reader(load_segments([journal]), None)
    records = list(reader)
    types = [r.fields[TYPE] for r in records]
    recovered = [r for r in records if r.fields[TYPE] == R_RECOVERY]
    return (types.count(R_RELEASE), types.count(R_CARD), sum(1 for r in recovered if r.fields[CONDITION]),
            reader.findings)


def opened_at_boot(boots, events):
    """The gate's openings after a boot and before its controller served (its watchdog started): none, ever."""
    opened = []
    for boot in boots:
        after = [e for e in events if e["t_us"] >= boot["t_us"]]
        serving = next((e["t_us"] for e in after if e["ev"] == "watchdog"), float("inf"))
        opened += [e for e in after if e["ev"] == "pin" and e["pin"] == GATE and e["level"] == 1
                   and e["t_us"] < serving]
    return opened


@pytest.mark.req("J-DURABLE", "S-FAILSAFE")
def test_power_cuts_at_random_instants_of_the_deal_lose_no_durable_record(image, tmp_path):  # noqa: F811
    """PICO_CUTS cuts (10 by default, some 5 s each: make test's; make test-pico's 100) in one emulator: each a fresh
    chip booting on the same flash file."""
    with Pico(tmp_path / "shoe.flash", blank=True, development=True) as board:
        commission(board, tmp_path)
        assert sabot("seance", "open", "--port", board.port, "--table", 3, "--by", 4711).returncode == 0
        board.command("deal", timeout=3600, steps=cut_rounds(random.Random(2026), CUTS))
        assert len(board.boots()) >= CUTS + 2  # the commissioning's power cycle, then one boot a cut
        assert sabot("pull-log", "--port", board.port, tmp_path / "journal").returncode == 0
        opened = len([e for e in board.pin_events(GATE) if e["level"] == 1])
        boots, events = board.boots(), list(board.events)
    assert opened_at_boot(boots, events) == []
    released, dealt, uncertain, findings = releases(tmp_path / "journal")
    assert opened <= released <= opened + CUTS  # each release durable before its gate opened (a cut may come between)
    assert dealt + uncertain == released  # a card, or the cut's uncertainty reported at the next boot
    assert [f for f in findings if f.id == "J-TAMPER"] == []


@pytest.mark.pico_long
@pytest.mark.req("H-FIRMWARE", "S-FAILSAFE")
def test_a_running_development_pico_takes_a_whole_deploy_with_no_watchdog_reset_midway(dealt, tmp_path):
    """mpremote stops the loop that fed the watchdog, which resets a development Pico 5 s later: the deploy's files
    copied between its feeds (sabot.mpremote_link's FEED), a session longer than that is never cut by a reset."""
    dist = tmp_path / "dist"
    made = sabot("firmware", "dist", ROOT / "build" / "rpi_pico", "--board", "rpi_pico", "--out", dist)
    assert made.returncode == 0, made.stderr
    with Pico(dealt[0] / "shoe.flash", image=False, development=True) as board:
        board.started()
        began = board.now_us()
        deployed = sabot("deploy", "--port", board.port, dist)
        ended = board.now_us()
        assert deployed.returncode == 0, deployed.stdout + deployed.stderr
        assert [b for b in board.boots() if began < b["t_us"] < ended] == []
    assert ended - began > 5_000_000, "the deploy outlasted no watchdog: the test proves nothing"
