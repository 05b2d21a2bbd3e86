"""The production image on the emulated Raspberry Pi Pico (issue 24), in one emulator session after its factory's
bench: no prompt whatever its USB cable sends, at boot and while the croupier deals; code planted on its filesystem
never runs; README.md's production commissioning of a Pico, every step over the shoe's protocol through sabot as
written, a stranger's first enrolment refused before the casino's (without the label's code, and with his own); the
firmware challenge over its flash, MATCH for the approved image alone. Every step's output is in the failure
message, so CI shows the whole session."""

import threading
from hashlib import sha256
from pathlib import Path

import pytest

from boards.sim.element import SimElement
from firmware.records import BOOT_RESTART, R_BOOT
from sabot.enrolment_code import new_code
from sabot.journalfile import CODE, TYPE, Reader, load_segments
from sabot.pico import Pico, steps
from sabot.pico_vboard import factory
from sabot.production_link import restarted_production
from tests.conftest import ROOT
from tests.host.test_commissioning import SABOT, assert_the_casino_key_is_nowhere_on_the_shoe, readme_steps, run
from tests.host.test_element import _element
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)
from tests.host.test_production import attack, no_prompt
from tests.parallel import one_worker_at_a_time

pytestmark = pytest.mark.pico

PLANTED = "print('PLANTED')\nfrom machine import Pin\nPin(16, Pin.OUT, value=1)\n"  # said, and the gate opened
PLANTS = {name: PLANTED for name in ("main.py", "boot.py", "firmware/__init__.py", "firmware/controller.py",
                                     "boards/__init__.py", "boards/rpi_pico/board.py", "lib/boards/__init__.py")}
COUPS = 6  # dealt while the cable attacks: far more than the attack waits for (CARDS_SEEN)
CARDS_SEEN = 3  # cards that slid out during the attack before mpremote tries too


def dealt(board):
    return sum(1 for e in list(board.events) if e["ev"] == "card")


def attack_while_dealing(board):
    """The croupier deals COUPS coups on the Pico's pins and reader while a cable sends control keys, breaks and
    garbage, then mpremote tries for a prompt: the attack goes on until CARDS_SEEN cards slid out since it began
    (the emulator's progress, never a wall-clock wait), and mpremote starts while the deal is still under way.
    Returns the cards dealt during the attack and the deal's reply."""
    scenario = Path(board.flash).parent / "deal.txt"
    scenario.write_text("game chemin_de_fer\nshoe seed=2026\nburn 1\n" + "no_more_bets\ndraw 6\n" * COUPS)
    reply = {}
    deal = threading.Thread(target=lambda: reply.update(board.command("deal", timeout=1800,
                                                                     steps=steps(scenario))))
    deal.start()
    board.wait(lambda: dealt(board) > 0, 600)  # the deal under way
    before, said, rounds = dealt(board), b"", 0
    while dealt(board) - before < CARDS_SEEN and deal.is_alive():
        rounds += 1
        said += attack(board.port, rounds, rounds=20)
    assert dealt(board) - before >= CARDS_SEEN, "the deal ended before %d cards slid out during the attack" % (
        CARDS_SEEN)
    assert deal.is_alive(), "the deal ended before mpremote tried: deal more than %d coups" % COUPS
    no_prompt(board.port, said)
    during = dealt(board) - before
    deal.join()
    return during, reply


def stranger_enrols(board, folder):
    """A stranger's key enrolled on the factory-fresh production Pico without its label's code, then with a code of
    his own making: sabot's two answers (issue 38)."""
    stranger = folder / "stranger.key"
    assert run(SABOT, "key", "new", stranger).returncode == 0
    enrol = (SABOT, "key", "enrol", "--port", board.port, "--casino-key", stranger, "--registry",
             folder / "stranger.json")
    return run(*enrol), run(*enrol, "--code", new_code())


@pytest.mark.req("P-NOREPL", "P-FROZEN", "P-ENROL", "P-AUTH", "H-FIRMWARE", "S-IDENT", "S-FAILSAFE")
def test_a_production_pico_commissioned_as_the_readme_says_never_prompts_and_runs_its_image_alone(
        image, tmp_path):  # noqa: F811
    steps_ = readme_steps("commissions a production Pico")
    assert [s.split()[:3] for s in steps_] == [
        ["make", "image", "BOARD=rpi_pico"], ["sabot", "key", "new"], ["sabot", "vboard", "--board"],
        ["sabot", "key", "enrol"], ["sabot", "number", "set"],
        ["sabot", "clock", "set"], ["sabot", "seance", "open"], ["sabot", "pull-log", "--port"],
        ["sabot", "log", "verify"], ["sabot", "firmware", "verify"]]
    session, said, board, refused = [], {}, None, []

    def step(line):
        command = line.replace("sabot ", SABOT + " ", 1).replace("build/rpi_pico-image/", str(image) + "/")
        if line.startswith("make "):
            command += " -C %s" % ROOT
        done = run("bash", "-c", command, cwd=tmp_path)
        session.append("$ %s\n%s%s" % (line, done.stdout, done.stderr))
        usb = bytes(board.console[-1000:]).decode(errors="replace") if board else ""
        assert done.returncode == 0, "\n".join(session) + "\nthe Pico's USB, last:\n" + usb
        said[" ".join(line.split()[:3])] = done.stdout

    try:
        for line in steps_:
            if line.startswith("make "):
                with one_worker_at_a_time("image"):
                    step(line)
            elif line.startswith("sabot vboard"):  # the test's own emulator: its croupier and its events
                factory(tmp_path / "shoe.flash", PLANTS)
                board = Pico(tmp_path / "shoe.flash").start()  # the production image, as a UF2 drop
                no_prompt(board.port, attack(board.port, 0))  # at boot: the bytes wait for USB's enumeration
                restarted_production(board.port)  # as sabot vboard names its port: once the shoe serves
                (tmp_path / "shoe.flash.tty").symlink_to(board.port)
                session.append("$ %s\n(the factory's bench, then the production image; attacked at boot)" % line)
            else:
                if line.startswith("sabot key enrol"):  # a stranger first, with the cable and without the label
                    refused.extend(stranger_enrols(board, tmp_path))
                step(line)
                if line.startswith("sabot seance open"):
                    during, reply = attack_while_dealing(board)
                    session.append("(dealt %s while attacked: %d cards during the attack)" % (reply, during))
        mismatch = run(SABOT, "firmware", "verify", "--port", board.port, "--bundle", image / "firmware-dev.uf2")
        console = bytes(board.console)
    finally:
        if board:
            board.stop()
    session = "\n".join(session)
    public = _element(SimElement.load(str(tmp_path / "shoe.flash.element"))).public_key(1)  # the journal's key
    assert_the_casino_key_is_nowhere_on_the_shoe(tmp_path / "casino.key", tmp_path / "shoes.json",
                                                 [tmp_path / "shoe.flash", tmp_path / "shoe.flash.element"])
    key_id = sha256(b"sabot element id " + public).digest()[:8].hex()
    assert "sabot 1 enrolled: element public key %s" % public.hex()[:16] in said["sabot key enrol"], session
    assert "is sabot 42 (was 1)" in said["sabot number set"], session
    assert "seance 1 opened at table 12" in said["sabot seance open"], session
    assert "key id %s" % key_id in said["sabot pull-log --port"], session
    records = Reader(load_segments([tmp_path / "journal"]), None)
    boots = [r.fields[CODE] for r in records if r.fields[TYPE] == R_BOOT]
    assert boots == [BOOT_RESTART, BOOT_RESTART], session  # the number's and the clock's: restarts, not watchdogs
    assert "résultat : conforme" in said["sabot log verify"] and "DÉVELOPPEMENT" not in said["sabot log verify"], \
        session
    # format 5 names the image whole (format 4 said "sabot 0.3.0 rpi_" for both images): never "a development build"
    assert "image de production de la carte « rpi_pico »" in said["sabot log verify"], session
    assert "version de développement" not in said["sabot log verify"].splitlines()[0], session
    identity = said["sabot firmware verify"]
    assert "configuration : production" in identity and "MATCH: " in identity, session
    assert mismatch.returncode == 1 and "MISMATCH" in mismatch.stdout and "differs: flash" in mismatch.stdout, \
        mismatch.stdout
    assert b"PLANTED" not in console, session  # nothing planted ran, and the shoe served its own code throughout
    without, other = refused  # before the casino's: a stranger's key refused without the label's code, and with another
    assert without.returncode == 2 and "--code" in without.stderr and without.stderr.count("\n") == 1, without.stderr
    assert other.returncode == 2 and "not the code on its label" in other.stderr, other.stderr
    assert reply["dealt"] >= 2 * COUPS and during >= CARDS_SEEN, reply  # a shoe in service, dealing throughout


@pytest.mark.req("P-NOREPL", "S-FAILSAFE")
def test_a_production_pico_that_cannot_start_restarts_by_its_watchdog_gate_locked_and_never_prompts(
        image, tmp_path):  # noqa: F811
    # A new flash with no config.json: the loop raises before it serves; the way out locks the gate and lets the
    # watchdog reset the chip, again and again, and never reaches the REPL that follows main.py.
    with Pico(tmp_path / "shoe.flash", blank=True) as board:
        board.wait(lambda: sum(1 for b in board.boots() if b["cause"] == "watchdog") >= 2, 600)
        no_prompt(board.port, attack(board.port, 3))
        restarts = sum(1 for b in board.boots() if b["cause"] == "watchdog")
        board.wait(lambda: sum(1 for b in board.boots() if b["cause"] == "watchdog") > restarts, 600)
        opened = [e for e in board.pin_events(16) if e["level"] == 1]
        console = bytes(board.console)
    assert opened == [] and b">>>" not in console and b"Traceback" not in console, console[-500:]
