"""Commissioning a new shoe as README.md tells the technician, step by step on the virtual board through the real
mpremote: make deploy (the bundle, checked by hash), sabot key enrol (its element's public key into the registry),
sabot seance open, cards dealt, sabot pull-log, sabot log verify with the registry, sabot firmware verify. Then the
board behaves as a Pico does: a soft reset reboots the controller (journal recovered, gate locked), and its config
and journal survive a restart."""

import json
import os
import re
import subprocess
import sys
from hashlib import sha256
from pathlib import Path

import pytest

from firmware.mac import Key
from firmware.records import BOOT_POWER, BOOT_RESTART, R_AUTHORITY, R_BOOT, R_SEANCE
from firmware.version import VERSION
from sabot.journalfile import CODE, TYPE, Reader, load_segments
from sabot.mpremote_link import mpremote
from sabot.shoe_keys import shoe_secret
from sabot.verify import read_key
from tests.conftest import ROOT
from tests.host.test_vboard import VirtualBoard

SABOT = str(Path(sys.executable).parent / "sabot")
MPREMOTE = str(Path(sys.executable).parent / "mpremote")
DEAL = "shoe seed=4\nno_more_bets\ndraw 6\nno_more_bets\ndraw 6\n"


def run(*args, cwd=None):
    done = subprocess.run([*map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done


def sabot(*args):
    return run(SABOT, *args)


def gate_and_controller(port):
    said = mpremote(port, "exec", "from firmware.runtime import Runtime\nr = Runtime.current\n"
                    "print(r is not None, r.shell.gate.is_open if r else None)")
    return said.split()


def deal(port, tmp_path):
    (tmp_path / "deal.txt").write_text(DEAL)
    mpremote(port, "fs", "--no-verbose", "cp", str(tmp_path / "deal.txt"), ":deal.txt")
    mpremote(port, "exec", "from boards.vboard import board as vboard\nvboard.play('deal.txt')")


def readme_steps(marker="commissions a shoe"):
    """The commissioning block of README.md after marker, each command without its comment."""
    text = (ROOT / "README.md").read_text()
    block = text[text.index(marker):]
    block = block[block.index("```\n") + 4:]
    block = block[:block.index("```")]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip() and not line.startswith(" ")]


def on_the_virtual_board(step, port, tmp_path):
    """A README step as the README says to run it on the virtual board: its port, BOARD=sim, dist/sim-VERSION;
    make runs in the clone, its bundle in this test's folder."""
    step = step.replace("/dev/ttyACM0", port).replace("BOARD=rpi_pico", "BOARD=sim").replace("rpi_pico-", "sim-")
    step = step.replace("sim-0.3.0", "sim-" + VERSION)
    step = step.replace("mpremote ", MPREMOTE + " ", 1).replace("sabot ", SABOT + " ", 1)
    if step.startswith("make "):
        step += " -C %s DIST=%s" % (ROOT, tmp_path / "dist" / ("sim-" + VERSION))
    return step


@pytest.mark.req("H-FIRMWARE", "H-VERIFY", "J-TAMPER", "S-IDENT")
def test_a_new_shoe_commissioned_as_the_readme_says_verifies_clean_with_its_elements_public_key(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path, "--blank")
    (tmp_path / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 42, "table": 12,
                                                      "game": "chemin_de_fer"}))
    said = {}
    try:
        steps = readme_steps()
        assert [s.split()[:3] for s in steps] == [
            ["make", "deploy", "BOARD=rpi_pico"], ["mpremote", "connect", "/dev/ttyACM0"], ["sabot", "number", "set"],
            ["sabot", "key", "enrol"], ["sabot", "clock", "set"], ["sabot", "seance", "open"],
            ["sabot", "pull-log", "--port"], ["sabot", "log", "verify"], ["sabot", "firmware", "verify"]]
        for step in steps:
            done = run("bash", "-c", on_the_virtual_board(step, board.port, tmp_path), cwd=tmp_path)
            assert done.returncode == 0, (step, done.stdout, done.stderr)
            said[" ".join(step.split()[:3])] = done.stdout
            if step.startswith("sabot seance"):
                deal(board.port, tmp_path)
        secrets = element_secrets(board.fs.parent / (board.fs.name + ".element"))
        files = mpremote(board.port, "exec", EVERY_FILE % [s.hex() for s in secrets])
    finally:
        board.close()
    public = element_public_key(board)
    key_id = sha256(b"sabot element id " + public).digest()[:8]
    assert "files on %s match" % board.port in said["make deploy BOARD=rpi_pico"]
    assert "cp config.json :config.json" in said["mpremote connect /dev/ttyACM0"]
    assert "sabot 42 enrolled: element public key %s" % public.hex()[:16] in said["sabot key enrol"]
    assert json.loads((tmp_path / "shoes.json").read_text())["shoes"][0]["public_key"] == public.hex()
    renumbered = said["sabot number set"]
    assert "the journal of sabot 1" in renumbered and "kept on the shoe in /journal.1/" in renumbered
    assert re.search(r"set to [-\d]{10} [:\d]{8} UTC; it restarted: boot record 5 at ", said["sabot clock set"])
    assert "seance 1 opened at table 12, record 6" in said["sabot seance open"]  # the clock set's 3 records before
    pulled = said["sabot pull-log --port"]  # the journal kept aside by the new number, pulled and checked with it
    assert "the journals the shoe kept aside (a new number), pulled too: journal/journal.1;" in pulled
    assert "sabot log verify journal/journal.1 journal --registry shoes.json (sabot 42's element, key id %s" % (
        key_id.hex()) in pulled
    assert "résultat : conforme" in said["sabot log verify"] and "DÉVELOPPEMENT" not in said["sabot log verify"]
    assert "signés par l'élément sécurisé du sabot" in said["sabot log verify"]
    assert "MATCH" in said["sabot firmware verify"]
    assert "configuration : développement (development)" in said["sabot firmware verify"]  # its REPL answered
    files = files.split()
    assert "./journal/checkpoints.sbc" in files and not [f for f in files if f.endswith(".key") or "/keys" in f]
    assert "holds" not in files, files  # no file mpremote reads holds the element's seed or private key
    segments = load_segments([tmp_path / "journal"])
    assert {s.sabot for s in segments} == {42} and {s.key_id for s in segments} == {key_id}
    kinds = [r.fields[TYPE] for r in Reader(segments, None)]
    assert kinds[:6] == [R_BOOT] + [R_AUTHORITY] * 3 + [R_BOOT, R_SEANCE]  # the number's boot, the clock set
    # journalled (P-AUTHORITY: who, before, after), its boot, then the séance
    assert [r.fields[CODE] for r in Reader(segments, None) if r.fields[TYPE] == R_BOOT][:2] == [
        BOOT_RESTART, BOOT_RESTART]  # restarts with the power on, no power cut
    kept = board.fs / "journal.1"  # the journal begun before config.json was there, kept aside whole
    assert {s.sabot for s in load_segments([kept])} == {1}
    unsigned = sabot("log", "verify", "--lang", "en", tmp_path / "journal")
    assert unsigned.returncode == 1 and "signatures of the shoe's element were not checked" in unsigned.stdout


EVERY_FILE = """
import os
from binascii import unhexlify
secrets = [unhexlify(s) for s in %r]
def walk(path):
    for name in os.listdir(path):
        full = path + "/" + name
        try:
            walk(full)
        except OSError:
            print(full)
            if secrets and holds(full):
                print("holds", full)
def holds(full):
    with open(full, "rb") as f:
        tail = b""
        while True:
            chunk = f.read(512)
            if not chunk:
                return False
            data = tail + chunk
            if any(s in data for s in secrets):
                return True
            tail = data[-31:]
walk(".")
"""  # every file on the shoe, and whether it holds any of the secrets given (hexadecimal)


def element_secrets(state):
    """An element's seed and private key, from its state file (beside the virtual board's folder, or the Pico's
    flash file)."""
    from boards.sim.element import SimElement

    chip = SimElement.load(str(state))
    keys = [chip._slot_key(0), chip._slot_key(1)]
    return [chip._seed] + [k.to_bytes(32, order) for k in keys for order in ("big", "little")]


def public_key_file(board):
    """A file of the board's element's public key, as `sabot log verify --public-key` takes it."""
    path = board.fs.parent / "element.pub"
    path.write_text(element_public_key(board).hex() + "\n")
    return path


def element_public_key(board):
    """The public key of the virtual board's element, from its state beside the board's folder (never in it)."""
    from boards.sim import p256
    from boards.sim.element import SimElement

    chip = SimElement.load(str(board.fs.parent / (board.fs.name + ".element")))
    return p256.public_key(chip._slot_key(1))  # slot 1's: the key that vouches for the journal


def assert_the_casino_key_is_nowhere_on_the_shoe(casino_key, registry, places):
    """Issue 38 (P-AUTH): the casino's key, in bytes or in hexadecimal text, is in no file of the shoe's (its folder,
    its element's, the emulated Pico's flash); the shoe holds its own key, derived from the casino's and its element's
    public key, whose id the registry keeps."""
    secret = read_key(casino_key)
    files = [f for place in places for f in ([place] if place.is_file() else place.rglob("*")) if f.is_file()]
    assert files
    for f in files:
        data = f.read_bytes()
        for form in (secret, secret.hex().encode(), secret.hex().upper().encode()):
            assert form not in data, f
    (entry,) = json.loads(registry.read_text())["shoes"]
    own = shoe_secret(secret, bytes.fromhex(entry["public_key"]))
    assert entry["shoe_key"] == Key(own).id.hex() and entry["casino_key"] == Key(secret).id.hex()
    assert any(form in f.read_bytes() for f in files for form in (own, own.hex().encode())), \
        "the shoe's own key is on none of its files: where does it check the casino's commands?"


@pytest.mark.req("P-ENROL", "P-FROZEN", "P-AUTH", "H-FIRMWARE", "S-IDENT")
def test_a_production_shoe_commissioned_as_the_readme_says_every_step_over_the_protocol(tmp_path, mpy_build):
    steps = readme_steps("commissions a production shoe")
    assert [s.split()[:3] for s in steps] == [
        ["make", "dist", "BOARD=sim"], ["sabot", "key", "new"], ["sabot", "key", "signer"], ["sabot", "vboard", "--fs"],
        ["sabot", "key", "enrol"], ["sabot", "number", "set"], ["sabot", "key", "sign"], ["sabot", "clock", "set"],
        ["sabot", "seance", "open"], ["sabot", "pull-log", "--port"], ["sabot", "log", "verify"],
        ["sabot", "firmware", "verify"], ["sabot", "key", "export"]]
    said, board = {}, None
    try:
        for step in steps:
            command = on_the_virtual_board(step, "/dev/ttyACM0", tmp_path)  # its port: shoe.tty, as written
            if step.startswith("sabot vboard"):  # the shoe itself, running on beside the steps
                board = subprocess.Popen(command.rstrip(" &").split(), stdout=subprocess.PIPE, text=True, cwd=tmp_path)
                assert board.stdout.readline().startswith("virtual board on /dev/pts/")
                continue
            done = run("bash", "-c", command, cwd=tmp_path)
            assert done.returncode == 0, (step, done.stdout, done.stderr)
            said[" ".join(step.split()[:3])] = done.stdout
    finally:
        if board:
            board.terminate()
            board.wait(timeout=10)
    assert not (tmp_path / "shoe" / "main.py").exists()  # its folder holds data, its code is the image's
    assert "sabot 1 enrolled" in said["sabot key enrol"]
    assert "is sabot 42 (was 1)" in said["sabot number set"]
    assert "seance 1 opened at table 12" in said["sabot seance open"]
    assert "résultat : conforme" in said["sabot log verify"] and "DÉVELOPPEMENT" not in said["sabot log verify"]
    assert "signés par l'élément sécurisé du sabot" in said["sabot log verify"]  # the registry's key: K-ELEMENT
    assert "registre signé, signatures vérifiées avec les signataires de confiance donnés : le casino (clé " in said[
        "sabot log verify"]  # K-REGISTRY: the registry signed after number set, its signature checked
    assert "configuration : production" in said["sabot firmware verify"] and "MATCH" in said["sabot firmware verify"]
    shoes = (tmp_path / "shoes.csv").read_text().splitlines()
    casino_id = Key(read_key(tmp_path / "casino.key")).id.hex()
    assert_the_casino_key_is_nowhere_on_the_shoe(tmp_path / "casino.key", tmp_path / "shoes.json",
                                                 [tmp_path / "shoe", tmp_path / "shoe.element"])
    assert shoes[0] == "sabot,public_key,casino_key,enrolled" and shoes[1].startswith("42,")
    assert casino_id in shoes[1] and len(shoes) == 2


@pytest.mark.req("S-FAILSAFE", "J-DURABLE")
def test_a_soft_reset_reboots_the_controller_and_a_restart_keeps_config_and_journal(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path, "--blank")
    try:
        assert sabot("deploy", "--port", board.port, mpy_build).returncode == 0
        (board.fs / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 42}))
        deal(board.port, tmp_path)
        # mpremote without `resume`: a soft reset, as a technician's plain `mpremote exec` does on a Pico; through
        # the link `sabot vboard` printed, which names the live pty across the restart.
        link = tmp_path / "fs.tty"
        reset = run(MPREMOTE, "connect", link, "exec", "print('after the reset')")
        assert reset.returncode == 0 and "after the reset" in reset.stdout, reset.stderr
        assert os.path.realpath(link) == board.port
        assert gate_and_controller(str(link)) == ["True", "False"]  # recovered, gate locked
    finally:
        board.close()
    again = VirtualBoard(tmp_path)  # the same filesystem: a Pico powered off and on
    try:
        assert json.loads((again.fs / "config.json").read_text()) == {"board": "vboard", "sabot": 42}
        assert sabot("seance", "open", "--port", again.port, "--table", 3).returncode == 0
        assert sabot("pull-log", "--port", again.port, tmp_path / "journal").returncode == 0
    finally:
        again.close()
    segments = load_segments([tmp_path / "journal"])
    key_id = sha256(b"sabot element id " + element_public_key(again)).digest()[:8]
    assert {s.sabot for s in segments} == {42} and {s.key_id for s in segments} == {key_id}
    kinds = [r.fields[TYPE] for r in Reader(segments, None)]
    assert kinds.count(R_BOOT) == 3 and kinds[-1] == R_SEANCE  # the deal's, the soft reset's, the power-up's
    causes = [r.fields[CODE] for r in Reader(segments, None) if r.fields[TYPE] == R_BOOT]
    # The scenario's power-on (the sim runner's), the soft reset's restart, `sabot vboard` again.
    assert causes == [BOOT_POWER, BOOT_RESTART, BOOT_POWER]
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--public-key", public_key_file(again))
    assert verified.returncode == 0, verified.stdout


@pytest.mark.req("S-IDENT", "J-TAMPER", "H-VERIFY")
def test_a_new_number_keeps_the_old_journal_and_begins_one_that_verifies_and_a_second_close_is_refused(
        tmp_path, mpy_build):
    board = VirtualBoard(tmp_path)  # numbered 1 by sabot vboard's config.json
    try:
        assert sabot("seance", "open", "--port", board.port, "--table", 3).returncode == 0
        closed = sabot("seance", "close", "--port", board.port)
        assert closed.returncode == 0 and "seance 1 closed at table 3, record " in closed.stdout
        again = sabot("seance", "close", "--port", board.port)
        assert again.returncode == 1 and again.stdout == ""
        assert again.stderr == "sabot seance: error: the shoe on %s refused: no séance open\n" % board.port
        renumbered = sabot("number", "set", "--port", board.port, 42)
        assert renumbered.returncode == 0, renumbered.stderr
        assert "is sabot 42 (was 1); the journal of sabot 1 (key id " in renumbered.stdout
        assert "kept on the shoe in /journal.1/, a new one begun; it restarted: boot record 1" in renumbered.stdout
        assert sabot("seance", "open", "--port", board.port, "--table", 3).returncode == 0
        assert sabot("pull-log", "--port", board.port, tmp_path / "journal").returncode == 0
    finally:
        board.close()
    assert {s.sabot for s in load_segments([tmp_path / "journal"])} == {42}
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--public-key", public_key_file(board))
    assert verified.returncode == 0 and "result: clean" in verified.stdout, verified.stdout
    assert {s.sabot for s in load_segments([board.fs / "journal.1"])} == {1}
    kept = sabot("log", "verify", "--lang", "en", board.fs / "journal.1", "--public-key", public_key_file(board))
    assert "integrity: intact" in kept.stdout and "result: 1 finding(s)" in kept.stdout  # whole; pulled with no
    assert "no receipt from the shoe" in kept.stdout  # receipt, as any journal copied off the shoe by hand


@pytest.mark.req("S-IDENT", "J-TAMPER")
def test_a_config_copied_over_with_another_number_is_a_fault_every_command_reports(tmp_path, mpy_build):
    assert sabot("firmware", "dist", mpy_build, "--board", "sim", "--out", tmp_path / "bundle").returncode == 0
    board = VirtualBoard(tmp_path, "--build", tmp_path / "bundle")
    try:
        (tmp_path / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 42}))
        run(MPREMOTE, "connect", board.port, "cp", tmp_path / "config.json", ":config.json")
        run(MPREMOTE, "connect", board.port, "exec", "pass")  # a soft reset: the shoe restarts under it
        opened = sabot("seance", "open", "--port", board.port, "--table", 12)
        assert opened.returncode == 1 and "seance" not in opened.stdout
        assert "is in fault and journalled nothing: its journal is sabot 1's" in opened.stderr
        assert "sabot number set --port %s N" % board.port in opened.stderr
        checked = sabot("firmware", "verify", "--port", board.port, "--bundle", tmp_path / "bundle")
        assert checked.returncode == 1 and "MATCH" in checked.stdout, checked.stdout + checked.stderr
        assert checked.stderr.count("\n") == 1 and "is in fault" in checked.stderr  # its firmware, not its journal
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "journal")
        assert pulled.returncode == 1 and pulled.stdout == "" and not (tmp_path / "journal").exists()
        assert pulled.stderr.count("\n") == 1 and "its journal is sabot 1's" in pulled.stderr, pulled.stderr
        assert sabot("number", "set", "--port", board.port, 42).returncode == 0
        opened = sabot("seance", "open", "--port", board.port, "--table", 12)
        assert opened.returncode == 0 and "seance 1 opened at table 12, record 2" in opened.stdout
    finally:
        board.close()


@pytest.mark.req("J-TIME", "S-FAILSAFE")
def test_a_clock_set_before_the_journal_is_refused_and_a_shoe_in_fault_opens_no_seance(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path)  # its journal begins at the sim's start, 2026-11-30 08:00 UTC
    try:
        assert sabot("seance", "open", "--port", board.port, "--table", 3).returncode == 0
        earlier = sabot("clock", "set", "--port", board.port, "--at", "2026-01-01T00:00:00")
        assert earlier.returncode == 1 and earlier.stdout == ""
        assert re.fullmatch(r"sabot clock set: error: the shoe on %s refused 2026-01-01 00:00:00 UTC: its journal's "
                            r"last record is at 2026-11-30 [:\d]{8} UTC, later\n" % re.escape(board.port),
                            earlier.stderr), earlier.stderr
        assert gate_and_controller(board.port)[0] == "True"  # still in service, its clock as it was
        (tmp_path / "jam.txt").write_text("shoe seed=4\nno_more_bets\ndraw 2\njam\ndraw\nwait 3000\n")
        mpremote(board.port, "fs", "--no-verbose", "cp", str(tmp_path / "jam.txt"), ":jam.txt")
        mpremote(board.port, "exec", "from boards.vboard import board as vboard\nvboard.play('jam.txt')")
        opened = sabot("seance", "open", "--port", board.port, "--table", 4)
        assert opened.returncode == 1 and opened.stdout == ""
        assert opened.stderr == "sabot seance: error: the shoe on %s is in fault (jam) and journalled nothing\n" % (
            board.port)
    finally:
        board.close()


@pytest.mark.req("S-IDENT", "J-TAMPER", "K-ELEMENT")
def test_a_replaced_element_is_said_and_number_set_keeps_the_old_journal_aside_for_one_of_its_own(tmp_path, mpy_build):
    """Another element is another key: the journal the old one vouched for cannot go on under it. The shoe says so
    and journals nothing; `sabot number set` with its own number keeps that journal whole in /journal.1/ and the shoe
    begins one its new element vouches for (docs/keys.md)."""
    board = VirtualBoard(tmp_path)
    try:
        deal(board.port, tmp_path)
    finally:
        board.close()
    (tmp_path / "fs.element").unlink()  # the chip replaced: the model makes a new one, its key new
    board = VirtualBoard(tmp_path)
    try:
        refused = sabot("seance", "open", "--port", board.port, "--table", 3)
        renumbered = sabot("number", "set", "--port", board.port, 1)
        opened = sabot("seance", "open", "--port", board.port, "--table", 3)
        assert sabot("pull-log", "--port", board.port, tmp_path / "journal").returncode == 0
    finally:
        board.close()
    assert refused.returncode == 1 and "is in fault and journalled nothing: its journal is sabot 1's" in refused.stderr
    assert renumbered.returncode == 0 and "kept on the shoe in /journal.1/, a new one begun" in renumbered.stdout
    assert opened.returncode == 0 and "seance 1 opened at table 3" in opened.stdout
    new_id = sha256(b"sabot element id " + element_public_key(board)).digest()[:8]
    assert {s.key_id for s in load_segments([tmp_path / "journal"])} == {new_id}
    assert {s.key_id for s in load_segments([board.fs / "journal.1"])} != {new_id}  # the old element's, kept whole
    verified = sabot("log", "verify", "--lang", "en", tmp_path / "journal", "--public-key", public_key_file(board))
    assert verified.returncode == 0, verified.stdout
