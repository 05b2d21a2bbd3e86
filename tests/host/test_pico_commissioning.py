"""README.md's development commissioning, step by step as written, on the emulated Pico (issue 22): its pty for
/dev/ttyACM0, through the real mpremote and sabot, each step's output what a technician sees. Every step's output is
in the failure message, so CI shows the whole session."""

import json
import re
from hashlib import sha256

import pytest

from boards.sim.element import SimElement
from firmware import records as rec
from firmware.version import VERSION
from sabot.journalfile import CODE, TYPE, Reader, load_segments
from sabot.pico import Pico
from tests.conftest import ROOT
from tests.host.test_commissioning import EVERY_FILE, MPREMOTE, SABOT, element_secrets, readme_steps, run
from tests.host.test_element import _element
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)

pytestmark = pytest.mark.pico

BENCH_TIME = 1796112000  # 2026-12-01 08:00 UTC: the DS3231's, set at the bench (below)


def on_the_pico(step, port, tmp_path):
    """A README step as written, the emulated Pico's port for /dev/ttyACM0 and this release's version; make runs in
    the clone, its bundle in this test's folder, where the later steps find it as dist/rpi_pico-VERSION."""
    step = step.replace("/dev/ttyACM0", port).replace("rpi_pico-0.3.0", "rpi_pico-" + VERSION)
    step = step.replace("mpremote ", MPREMOTE + " ", 1).replace("sabot ", SABOT + " ", 1)
    if step.startswith("make "):
        step += " -C %s DIST=%s" % (ROOT, tmp_path / "dist" / ("rpi_pico-" + VERSION))
    return step


@pytest.mark.req("H-FIRMWARE", "H-VERIFY", "S-IDENT", "S-FAILSAFE", "J-EVERY", "K-ELEMENT")
def test_a_new_pico_commissioned_as_the_readme_says_verifies_clean_with_its_elements_public_key(
        image, tmp_path):  # noqa: F811
    (tmp_path / "config.json").write_text(json.dumps({"board": "rpi_pico", "sabot": 42, "table": 12,
                                                      "game": "chemin_de_fer", "reader": True}))
    said, session = {}, []
    with Pico(tmp_path / "shoe.flash", blank=True, development=True) as board:
        # The DS3231 keeps its time on its battery: set at the bench, or the controller does not start (README).
        board.command("rtc", seconds=BENCH_TIME)
        steps = readme_steps()
        assert [s.split()[:3] for s in steps][:4] == [
            ["make", "deploy", "BOARD=rpi_pico"], ["mpremote", "connect", "/dev/ttyACM0"], ["sabot", "number", "set"],
            ["sabot", "key", "enrol"]]
        for step in steps:
            done = run("bash", "-c", on_the_pico(step, board.port, tmp_path), cwd=tmp_path)
            session.append("$ %s\n%s%s" % (step, done.stdout, done.stderr))
            assert done.returncode == 0, "\n".join(session) + "\nthe Pico's USB, last:\n" + bytes(
                board.console[-2000:]).decode(errors="replace")
            said[" ".join(step.split()[:3])] = done.stdout
            if step.split()[:2] in (["sabot", "key"], ["sabot", "firmware"]):  # it reads the shoe over mpremote
                booted = len(board.boots())  # then resumes its loop: 6 s on, past the watchdog's 5 s, no reset
                board.command("deal", steps=[{"wait_us": 6_000_000}])
                assert len(board.boots()) == booted, "%s left the controller stopped: the watchdog reset the Pico" % (
                    step,)
            if step.startswith("mpremote"):  # plugged in again with its config (README): its controller serves
                board.command("power_cycle")
                board.started(len(board.boots()) + 1)
                session.append("(unplugged and plugged in: the controller serves)")
        secrets = element_secrets(tmp_path / "shoe.flash.element")
        files = run(MPREMOTE, "connect", board.port, "resume", "exec", EVERY_FILE % [s.hex() for s in secrets]).stdout
    session = "\n".join(session)
    public = _element(SimElement.load(str(tmp_path / "shoe.flash.element"))).public_key(1)
    key_id = sha256(b"sabot element id " + public).digest()[:8]
    assert re.search(r"\d+ files on %s match " % board.port, said["make deploy BOARD=rpi_pico"]), session
    assert "cp config.json :config.json" in said["mpremote connect /dev/ttyACM0"], session
    assert "already sabot 42: nothing changed" in said["sabot number set"], session
    assert "sabot 42 enrolled: element public key %s" % public.hex()[:16] in said["sabot key enrol"], session
    assert re.search(r"set to [-\d]{10} [:\d]{8} UTC; it restarted: boot record \d+ at ", said["sabot clock set"]), \
        session
    assert re.search(r"seance 1 opened at table 12, record \d+", said["sabot seance open"]), session
    assert "sabot log verify journal --registry shoes.json (sabot 42's element, key id %s" % key_id.hex() in said[
        "sabot pull-log --port"], session
    verified = said["sabot log verify"]
    assert "résultat : conforme" in verified and "DÉVELOPPEMENT" not in verified, session
    assert "signés par l'élément sécurisé du sabot" in verified, session
    identity = said["sabot firmware verify"]
    assert "configuration : développement (development)" in identity and "MATCH" in identity, session
    assert "./journal/checkpoints.sbc" in files.split() and not re.search(r"\.key\b|keys/", files), files
    assert "holds" not in files, files  # no file mpremote reads holds the element's seed or private key
    segments = load_segments([tmp_path / "journal"])
    assert {s.key_id for s in segments} == {key_id}, session
    records = list(Reader(segments, None))
    assert (records[0].fields[TYPE], records[0].fields[CODE]) == (rec.R_BOOT, rec.BOOT_POWER), session
    assert not [r for r in records if r.fields[TYPE] == rec.R_ALARM], session  # its own element: no fault
