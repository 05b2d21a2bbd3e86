"""README.md's development commissioning, step by step as written, on the emulated Pico (issue 22): its pty for
/dev/ttyACM0, through the real mpremote and sabot, each step's output what a technician sees. Every step's output is
in the failure message, so CI shows the whole session."""

import json
import re

import pytest

from firmware.journal import Key
from firmware.version import VERSION
from sabot.pico import Pico
from sabot.verify import read_key
from tests.conftest import ROOT
from tests.core.req import known_issue
from tests.host.test_commissioning import MPREMOTE, SABOT, readme_steps, run
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


@known_issue(22, "a restart's first mpremote (sabot key install's, clock set's) interrupts main.py while the Pico "
                 "recovers its journal: the controller never serves, the command finds none")
@pytest.mark.req("H-FIRMWARE", "H-VERIFY", "S-IDENT", "S-FAILSAFE")
def test_a_new_pico_commissioned_as_the_readme_says_verifies_clean_under_its_key(image, tmp_path):  # noqa: F811
    (tmp_path / "config.json").write_text(json.dumps({"board": "rpi_pico", "sabot": 42, "table": 12,
                                                      "game": "chemin_de_fer", "reader": True}))
    said, session = {}, []
    with Pico(tmp_path / "shoe.flash", blank=True) as board:
        # The DS3231 keeps its time on its battery: set at the bench, or the controller does not start (README).
        board.command("rtc", seconds=BENCH_TIME)
        steps = readme_steps()
        assert [s.split()[:3] for s in steps][:4] == [
            ["make", "deploy", "BOARD=rpi_pico"], ["mpremote", "connect", "/dev/ttyACM0"], ["sabot", "key", "new"],
            ["sabot", "key", "install"]]
        for step in steps:
            done = run("bash", "-c", on_the_pico(step, board.port, tmp_path), cwd=tmp_path)
            session.append("$ %s\n%s%s" % (step, done.stdout, done.stderr))
            assert done.returncode == 0, "\n".join(session) + "\nthe Pico's USB, last:\n" + bytes(
                board.console[-2000:]).decode(errors="replace")
            said[" ".join(step.split()[:3])] = done.stdout
            if step.startswith("mpremote"):  # plugged in with its config and no key: it serves, locked (docs/keys.md)
                board.command("power_cycle")
                board.started(len(board.boots()) + 1)
                session.append("(power cycled: the controller serves under the development key)")
    session = "\n".join(session)
    key = tmp_path / "sabot-0042.key"
    key_id = Key(read_key(key)).id.hex()
    assert re.search(r"\d+ files on %s match " % board.port, said["make deploy BOARD=rpi_pico"]), session
    assert "cp config.json :config.json" in said["mpremote connect /dev/ttyACM0"], session
    assert "key written to sabot-0042.key" in said["sabot key new"], session
    installed = said["sabot key install"]
    assert "key id %s installed" % key_id in installed and key.read_text().strip() not in installed, session
    assert "kept in /journal.1/" in installed, session  # begun under the development key at the power-up
    assert "already sabot 42: nothing changed" in said["sabot number set"], session
    assert re.search(r"set to [-\d]{10} [:\d]{8} UTC; it restarted: boot record \d+ at ", said["sabot clock set"]), \
        session
    assert re.search(r"seance 1 opened at table 12, record \d+", said["sabot seance open"]), session
    assert "sabot log verify journal --key KEY_FILE (sabot 42's key file, key id %s)" % key_id in said[
        "sabot pull-log --port"], session
    verified = said["sabot log verify"]
    assert "résultat : conforme" in verified and "DÉVELOPPEMENT" not in verified, session
    identity = said["sabot firmware verify"]
    assert "configuration : développement (development)" in identity and "MATCH" in identity, session
