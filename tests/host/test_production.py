"""The production virtual board as it ships (issue 24): no prompt whatever a technician's cable sends, at boot and
while dealing; no code but its image's ever runs, whatever is planted in its folder; its enrolment, number and
firmware challenge over the protocol alone, and the casino's registry of its shoes."""

import csv
import io
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boards.mcu.atecc import ATECC
from boards.sim.element import SimElement, journal_key
from firmware.devkey import DEVELOPMENT_KEY
from firmware.events import EV_SEANCE_CLOSE
from firmware.format import commands as c
from firmware.mac import Key
from sabot.enrolment_code import code_secret, new_code
from sabot.production_link import production, restarted_production
from sabot.protocol import SerialLink
from sabot.verify import check
from tests.conftest import SCENARIOS
from tests.host.protocol_shoe import CASINO, Shoe
from tests.host.test_vboard import VirtualBoard, sabot

MPREMOTE = str(Path(sys.executable).parent / "mpremote")
CONTROLS = (b"\x03", b"\x01", b"\x02", b"\x04", b"\x05", b"\r\n", b"\x03\x03\x01", b"\r\x01", b"\x05A\x01")
REPL = (b">>>", b"raw REPL", b"Traceback", b"MicroPython", b"paste mode")


def attack(port, seed, rounds=60):
    """A cable's worth of Ctrl-C, Ctrl-A, Ctrl-B, Ctrl-D, Ctrl-E, line ends, breaks and garbage, in a random order;
    everything the port said back."""
    draw = random.Random(seed)
    link = SerialLink(port)
    said = b""
    try:
        for _ in range(rounds):
            choice = draw.random()
            if choice < 0.15:
                try:
                    link.port.send_break(0.01)
                except (OSError, ValueError):
                    pass  # a pty that takes no break
            elif choice < 0.4:
                link.write(draw.randbytes(draw.randrange(1, 200)))
            else:
                link.write(draw.choice(CONTROLS))
            said += link.read()
        time.sleep(0.5)
        said += link.read()
    finally:
        link.close()
    return said


def no_prompt(port, said):
    """mpremote, as a technician types it, finds no prompt; neither did anything the port sent."""
    with subprocess.Popen([MPREMOTE, "connect", port, "exec", "print(1)"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as tried:
        try:
            out = tried.communicate(timeout=20)[0]  # it gives up: "could not enter raw repl", and what it read
        except subprocess.TimeoutExpired:
            tried.kill()
            out = tried.communicate()[0]  # it waits for a prompt for ever
    assert tried.returncode != 0 and "1\n" not in out, out
    for words in REPL:
        assert words not in said and words.decode() not in out, (words, said, out)


def casino_board(tmp_path, *flags, build=None):
    """A production board whose casino key is enrolled in its folder, and the key's file."""
    casino = tmp_path / "casino.key"
    casino.write_text(bytes(range(32, 64)).hex())
    (tmp_path / "fs" / "keys").mkdir(parents=True, exist_ok=True)
    (tmp_path / "fs" / "keys" / "casino.key").write_text(casino.read_text())
    extra = ("--build", str(build)) if build else ()
    return VirtualBoard(tmp_path, *flags, *extra, production=True), casino


@pytest.mark.req("P-NOREPL", "S-FAILSAFE")
def test_no_prompt_ever_after_control_keys_breaks_and_garbage_at_boot_while_dealing_and_after_a_restart(
        mpy_build, tmp_path):
    board, casino = casino_board(tmp_path, "--scenario", str(SCENARIOS / "full_shoe_chemin_de_fer.txt"))
    try:
        no_prompt(board.port, attack(board.port, 1))  # at boot: the scenario being dealt
        assert restarted_production(board.port)["alarms"] == 0  # it answers its protocol once dealt, nothing raised
        restarted = sabot("clock", "set", "--port", board.port, "--at", "2027-02-01T00:00:00", "--casino-key", casino,
                          "--force")
        assert restarted.returncode == 0, restarted.stderr
        no_prompt(board.port, attack(board.port, 2))  # right after the VM started again
        client = production(board.port)
        status = client.status()
        client.link.close()
        assert status["alarms"] == 0 and not status["broken"] and status["bad_frames"] > 0
        assert sabot("pull-log", "--port", board.port, tmp_path / "pulled", "--quiet").returncode == 0
    finally:
        board.close()
    _, reader, findings = check([tmp_path / "pulled"], DEVELOPMENT_KEY)
    assert findings == [] and reader.records > 700  # every release within its coup: the gate never opened else
    assert "Traceback" not in (tmp_path / "fs.log").read_text()  # nothing raised, even out of sight


PLANTS = {  # code a development session, or a hand in the folder, could leave: none of it may run
    "firmware/controller.py": "raise SystemExit('planted controller')\n",
    "boards/vboard/board.py": "raise SystemExit('planted board')\n",
    "boards/__init__.py": "import os\nos.mkdir('planted')\n",
    "firmware/__init__.py": "import os\nos.mkdir('planted')\n",
    "main.py": "import os\nos.mkdir('planted')\n",
    "boot.py": "import os\nos.mkdir('planted')\n",
}


def _dealt(tmp_path, build, plant):
    """The journal a production board writes dealing a scenario, with or without code planted in its folder."""
    fs = tmp_path / "fs"
    fs.mkdir(parents=True)
    SimElement(bytes(range(32)), str(tmp_path / "fs.element"))._save()  # the same element in both: the same ids
    for name, code in PLANTS.items() if plant else ():
        (fs / name).parent.mkdir(parents=True, exist_ok=True)
        (fs / name).write_text(code)
    board, casino = casino_board(tmp_path, "--scenario", str(SCENARIOS / "incidents.txt"), build=build)
    try:
        restarted_production(board.port)  # it answers its protocol once dealt: its own board module runs
        verified = sabot("firmware", "verify", "--port", board.port, "--bundle", build)
        other = sabot("firmware", "verify", "--port", board.port, "--bundle", tmp_path.parent / "other")
        assert sabot("pull-log", "--port", board.port, tmp_path / "pulled", "--quiet").returncode == 0
    finally:
        board.close()
    assert not (fs / "planted").exists()
    assert verified.returncode == 0 and "configuration : production" in verified.stdout, verified.stdout
    assert "MATCH" in verified.stdout
    assert other.returncode == 1 and "MISMATCH" in other.stdout and "firmware/controller.mpy" in other.stdout
    return {path.name: path.read_bytes() for path in sorted((tmp_path / "pulled").glob("*.sbj"))}


@pytest.mark.req("P-FROZEN", "H-FIRMWARE")
def test_code_planted_in_the_folder_never_runs_and_firmware_verify_matches_only_the_approved_image(mpy_build,
                                                                                                   tmp_path):
    bundle = tmp_path / "dist"
    assert sabot("firmware", "dist", mpy_build, "--board", "sim", "--out", bundle).returncode == 0
    other = tmp_path / "other"  # an image that is not the approved one: one module changed
    assert sabot("firmware", "dist", mpy_build, "--board", "sim", "--out", other).returncode == 0
    with open(other / "firmware" / "controller.mpy", "ab") as f:
        f.write(b"\0")
    subprocess.run([sys.executable, "-c", "import json, sys; from pathlib import Path; "
                    "from sabot.firmware import manifest_of; out = Path(sys.argv[1]); "
                    "(out / 'manifest.json').write_text(json.dumps(manifest_of(out, 'sim')))", str(other)], check=True)
    clean = _dealt(tmp_path / "clean", bundle, plant=False)
    planted = _dealt(tmp_path / "planted", bundle, plant=True)
    assert clean == planted and len(clean) >= 1  # byte for byte: nothing planted ran, nor was even checked


def element_shoe(casino=None, enrolment=None):
    """A shoe in memory whose secure element is the model, through the chip's driver; its séance closed, as at the
    bench (a key changes with no séance open: P-AUTHORITY). enrolment: the Key of the code on its label."""
    shoe = Shoe(casino=casino, enrolment=enrolment)
    shoe.board.shell.handle(EV_SEANCE_CLOSE, 0, shoe.board.clock.ticks())
    chip = SimElement(bytes(32))
    shoe.protocol.element = ATECC(chip, lambda ms: None)
    return shoe, journal_key(bytes(32))  # slot 1's: the key that vouches for its journal


@pytest.mark.req("P-ENROL", "P-AUTH")
def test_enrolment_reads_the_element_installs_a_first_casino_key_and_changes_it_only_under_the_current_one(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    secret = code_secret(new_code())  # the code printed on the shoe's label at the factory, its key on the shoe
    label = Key(secret)
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "enrolment.key").write_text(secret.hex())
    shoe, public = element_shoe(enrolment=label)
    client = shoe.client
    assert client.enrol() == public
    sent = []
    write = shoe.link.write
    shoe.link.write = lambda data: (sent.append(bytes(data)), write(data))
    thief = bytes(range(50, 82))
    assert client.casino_key(Key(thief), thief)[0] == c.E_AUTH  # a stranger's key, self-authenticated: refused
    assert client.status()["code"] is True and client.status()["casino"] is None  # nothing taken, the code kept
    first = bytes(range(1, 33))
    status, answer = client.casino_key(label, first)
    assert status == c.OK and answer == {"casino": Key(first).id.hex(), "by_key": label.id.hex()}
    assert (tmp_path / "keys" / "casino.key").read_text().strip() == first.hex()  # read again at each boot
    assert not (tmp_path / "keys" / "enrolment.key").exists() and client.status()["code"] is False  # spent
    assert client.casino_key(label, thief)[0] == c.E_AUTH  # the label's code opens nothing any more
    assert client.casino_key(Key(thief), thief)[0] == c.E_AUTH
    second = bytes(range(200, 232))
    assert client.casino_key(Key(first), second) == (c.OK, {"casino": Key(second).id.hex(),
                                                            "by_key": Key(first).id.hex()})
    assert not any(key in frame for frame in sent for key in (first, second))  # wrapped: never in clear
    assert client.seance(Key(first), 12, "chemin_de_fer", 1)[0] == c.E_AUTH
    assert client.seance(Key(second), 12, "chemin_de_fer", 1)[0] == c.OK


@pytest.mark.req("P-ENROL", "S-IDENT")
def test_the_number_is_set_only_under_the_casinos_key_and_the_shoe_restarts_under_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 1}))
    shoe = Shoe()
    shoe.board.shell.handle(EV_SEANCE_CLOSE, 0, shoe.board.clock.ticks())  # a new number with no séance open
    assert shoe.client.set_number(Key(bytes(32)), 42)[0] == c.E_AUTH
    assert json.loads((tmp_path / "config.json").read_text())["sabot"] == 1 and not shoe.protocol.restart
    status, answer = shoe.client.set_number(CASINO, 42)
    assert status == c.OK and answer["sabot"] == 42 and answer["was"] == 1 and shoe.protocol.restart
    assert json.loads((tmp_path / "config.json").read_text())["sabot"] == 42


@pytest.mark.req("P-ENROL")
def test_the_casinos_registry_of_its_shoes_exports_for_the_ministry(tmp_path, mpy_build):
    fresh = tmp_path / "fresh.key"
    assert sabot("key", "new", fresh).returncode == 0
    registry = tmp_path / "shoes.json"
    board = VirtualBoard(tmp_path, production=True)
    try:
        enrolled = sabot("key", "enrol", "--port", board.port, "--casino-key", fresh, "--registry", registry,
                         "--code", board.code())
        assert enrolled.returncode == 0 and "sabot 1 enrolled" in enrolled.stdout, enrolled.stderr
        other = tmp_path / "other.key"
        other.write_text(bytes(range(32)).hex())
        refused = sabot("key", "enrol", "--port", board.port, "--casino-key", other, "--registry", registry)
        assert refused.returncode == 2 and "--current" in refused.stderr
        renumbered = sabot("number", "set", "--port", board.port, 42, "--casino-key", fresh, "--registry", registry)
        assert renumbered.returncode == 0, renumbered.stderr
    finally:
        board.close()
    rows = list(csv.DictReader(io.StringIO(sabot("key", "export", "--registry", registry).stdout)))
    key_id = Key(bytes.fromhex(fresh.read_text().strip())).id.hex()
    assert [(r["sabot"], r["casino_key"], len(r["public_key"])) for r in rows] == [("42", key_id, 128)]
    exported = json.loads(sabot("key", "export", "--registry", registry, "--format", "json").stdout)
    assert exported["shoes"][0]["public_key"] == rows[0]["public_key"]
    assert fresh.read_text().strip() not in json.dumps(exported)  # ids, never the secret


@pytest.mark.req("P-PULL")
def test_a_port_another_program_holds_is_said_as_such_and_its_answers_left_to_it(mpy_build, tmp_path):
    """`sabot pull-log` while another program holds the shoe's port (a `sabot pit follow` left running): one line
    that says so, exit 2, nothing pulled; the port let go, the same command pulls."""
    board, _ = casino_board(tmp_path)
    try:
        held = SerialLink(board.port)  # as the pit's link holds it
        try:
            refused = sabot("pull-log", "--port", board.port, tmp_path / "pulled")
            assert held.port.is_open and held.read() == b""  # no request of the refused command reached the shoe
        finally:
            held.close()
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "pulled", "--quiet")
    finally:
        board.close()
    assert refused.returncode == 2 and refused.stdout == "", refused.stdout + refused.stderr
    assert refused.stderr.count("\n") == 1 and "held by another program" in refused.stderr, refused.stderr
    assert pulled.returncode == 0, pulled.stderr
    assert sorted(p.suffix for p in (tmp_path / "pulled").iterdir())[-1] == ".sbj"
