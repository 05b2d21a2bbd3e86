"""H-FIRMWARE on the virtual board through mpremote: the release bundle deployed, the inspector's challenge
matching, a stored answer failing a new seed, one changed byte named, and that shoe refusing to unlock."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.devkey import DEVELOPMENT_KEY
from firmware.records import FAULT_FIRMWARE, R_ALARM, R_CARD, R_NO_MORE_BETS
from firmware.version import VERSION
from sabot.firmware import compare, expected_answer
from sabot.journalfile import CODE, TYPE, Reader, load_segments
from sabot.mpremote_link import mpremote
from tests.conftest import ROOT
from tests.host.test_vboard import VirtualBoard

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def bundle(mpy_build):
    subprocess.run(["make", "-s", "-C", str(ROOT), "dist"], check=True, capture_output=True)
    folder = ROOT / "dist" / ("sim-%s" % VERSION)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["board"] == "sim" and manifest["version"] == VERSION and len(manifest["files"]) > 20
    assert "source" in manifest["inputs"] and "mpy-cross" in manifest["inputs"]
    return folder


@pytest.fixture
def shoe(tmp_path, bundle):
    board = VirtualBoard(tmp_path, "--blank")
    assert sabot("deploy", "--port", board.port, bundle).returncode == 0
    yield board
    board.close()


@pytest.mark.req("H-FIRMWARE")
def test_the_challenge_matches_the_deployed_bundle_and_a_stored_answer_fails_a_new_seed(shoe, bundle):
    seed = bytes(range(32))
    run = sabot("firmware", "verify", "--port", shoe.port, "--bundle", bundle, "--seed", seed.hex())
    assert run.returncode == 0 and "MATCH" in run.stdout, run.stdout + run.stderr
    answer = json.loads(mpremote(shoe.port, "exec", "from firmware.identity import challenge\nchallenge(%r)"
                                 % seed.hex()).strip().splitlines()[-1])
    assert compare(answer, expected_answer(bundle, seed)) == []
    # The same answer replayed against a fresh seed matches nothing.
    replayed = compare(answer, expected_answer(bundle, bytes(range(1, 33))))
    assert len(replayed) == len(answer["files"])
    fresh = sabot("firmware", "verify", "--port", shoe.port, "--bundle", bundle)  # a random seed
    assert fresh.returncode == 0 and fresh.stdout.split()[1] != seed.hex()


@pytest.mark.req("H-FIRMWARE", "S-FAILSAFE", "J-EVENTS")
def test_one_changed_byte_is_named_and_that_shoe_refuses_to_unlock(shoe, bundle, tmp_path):
    changed = shoe.fs / "boards" / "sim" / "ramflash.mpy"
    data = bytearray(changed.read_bytes())
    data[len(data) // 2] ^= 0x01
    changed.write_bytes(bytes(data))
    run = sabot("firmware", "verify", "--port", shoe.port, "--bundle", bundle)
    assert run.returncode == 1
    assert "  differs: boards/sim/ramflash.mpy\n" in run.stdout and run.stdout.count("differs:") == 1
    assert "MISMATCH: 1 of" in run.stdout
    (tmp_path / "s.txt").write_text("seance\nshoe seed=1\nno_more_bets\ndraw 4\nclear_alarm\nno_more_bets\ndraw\n")
    mpremote(shoe.port, "fs", "cp", str(tmp_path / "s.txt"), ":scenario.txt")
    played = shoe.exec("from boards.vboard import board as vboard; vboard.play('scenario.txt')")
    assert "ALARM firmware differs from the approved release" in played
    assert "refused clear alarm: a firmware fault clears only when the approved release is deployed" in played
    assert sabot("pull-log", "--port", shoe.port, tmp_path / "pulled").returncode == 0
    records = list(Reader(load_segments([tmp_path / "pulled"]), DEVELOPMENT_KEY))
    kinds = [r.fields[TYPE] for r in records]
    assert R_NO_MORE_BETS not in kinds and R_CARD not in kinds  # nothing was dealt
    assert [r.fields[CODE] for r in records if r.fields[TYPE] == R_ALARM] == [FAULT_FIRMWARE]
    assert records[0].segment.firmware == bytes.fromhex(json.loads((bundle / "manifest.json").read_text())
                                                        ["digest"])  # whole (format 5)


@pytest.mark.req("H-FIRMWARE", "S-FAILSAFE")
def test_a_py_planted_beside_the_approved_mpy_is_a_mismatch_and_the_shoe_stays_locked(shoe, bundle, tmp_path):
    planted = tmp_path / "controller.py"  # MicroPython imports it before the approved controller.mpy beside it
    planted.write_text((ROOT / "firmware" / "controller.py").read_text() + "# changed by someone\n")
    mpremote(shoe.port, "fs", "cp", str(planted), ":firmware/controller.py")
    mpremote(shoe.port, "fs", "cp", str(planted), ":boot.py")  # a boot.py this board's release has none of
    run = sabot("firmware", "verify", "--port", shoe.port, "--bundle", bundle)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "  differs: firmware/controller.py (not in the release)\n" in run.stdout
    assert "  differs: boot.py (not in the release)\n" in run.stdout and run.stdout.count("differs:") == 2
    (tmp_path / "s.txt").write_text("seance\nshoe seed=1\nno_more_bets\ndraw 4\n")
    mpremote(shoe.port, "fs", "cp", str(tmp_path / "s.txt"), ":scenario.txt")
    played = shoe.exec("from boards.vboard import board as vboard; vboard.play('scenario.txt')")
    assert "firmware/controller.py differs from the release manifest" in played
    assert "ALARM firmware differs from the approved release" in played and "card 1" not in played
