"""The virtual board through the real mpremote, as a technician reaches a Pico: deploy the build and check it
by hash, run a scenario, interrupt the controller, pull the journal and verify it on the host."""

import subprocess
import sys
from pathlib import Path

import pytest

import boards.sim.runner
from firmware.devkey import DEVELOPMENT_KEY
from firmware.records import R_RELEASE
from sabot.journalfile import TYPE, Reader, load_segments
from sabot.mpremote_link import mpremote
from sabot.verify import check
from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")


class VirtualBoard:
    """`sabot vboard` in the development configuration (mpremote reaches its REPL), or production's."""

    def __init__(self, tmp_path, *flags, production=False):
        self.fs = tmp_path / "fs"
        flags = flags if production or "--blank" in flags else ("--development", *flags)
        self.process = subprocess.Popen([SABOT, "vboard", "--fs", str(self.fs), *flags], stdout=subprocess.PIPE,
                                        text=True)
        first = self.process.stdout.readline()
        assert first.startswith("virtual board on /dev/pts/"), first
        self.port = first.split()[3]

    def exec(self, code, *flags):
        return mpremote(self.port, "exec", *flags, code)

    def code(self):
        """The one-time enrolment code on the board's label, FS.code (the factory's, written with a new board)."""
        return (self.fs.parent / (self.fs.name + ".code")).read_text().strip()

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def blank_board(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path, "--blank")
    yield board
    board.close()


def sabot(*args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300)


def _cpython_segments(scenario, tmp_path, board):
    """The segments the sim writes on CPython for the scenario, its headers naming the virtual board's element."""
    from boards.sim.board import SimBoard
    from boards.sim.scenario import parse
    from firmware.checkpoints import ElementKey
    from firmware.storage import FileStorage
    from tests.host.test_commissioning import element_public_key

    journal = tmp_path / "cpython.journal"
    sim = SimBoard(FileStorage(str(journal)))
    sim.key = ElementKey(element_public_key(board))
    boards.sim.runner.run(parse(scenario.read_text()), sim)
    sim.close()
    return {p.name: p.read_bytes() for p in sorted(journal.glob("*.sbj"))}


@pytest.mark.req("H-SIM", "J-TAMPER", "H-VERIFY")
def test_deploy_run_a_whole_shoe_pull_the_journal_and_verify_it(blank_board, mpy_build, tmp_path):
    deployed = sabot("deploy", "--port", blank_board.port, mpy_build)
    assert deployed.returncode == 0, deployed.stderr
    assert "files on %s match" % blank_board.port in deployed.stdout
    scenario = SCENARIOS / "full_shoe_chemin_de_fer.txt"
    mpremote(blank_board.port, "fs", "cp", str(scenario), ":scenario.txt")
    played = blank_board.exec("from boards.vboard import board as vboard; vboard.play('scenario.txt')")
    assert "shoe closed: no other coup until a new shoe is loaded" in played
    pulled = sabot("pull-log", "--port", blank_board.port, tmp_path / "pulled")
    assert pulled.returncode == 0, pulled.stderr
    _, reader, findings = check([tmp_path / "pulled"], DEVELOPMENT_KEY)
    assert findings == [] and reader.records > 700
    segments = {p.name: p.read_bytes() for p in sorted((tmp_path / "pulled").glob("*.sbj"))}
    assert segments == _cpython_segments(scenario, tmp_path, blank_board)  # the very same bytes


@pytest.mark.req("S-FAILSAFE", "J-DURABLE")
def test_ctrl_c_over_mpremote_leaves_the_gate_locked_and_the_journal_intact(blank_board, mpy_build, tmp_path):
    assert sabot("deploy", "--port", blank_board.port, mpy_build).returncode == 0
    (tmp_path / "open.txt").write_text("seance\nshoe seed=4\nno_more_bets\ndraw 4\nno_more_bets\njam\ndraw\n")
    mpremote(blank_board.port, "fs", "cp", str(tmp_path / "open.txt"), ":scenario.txt")
    blank_board.exec("from boards.vboard import board as vboard; vboard.play('scenario.txt')")
    gate = blank_board.exec("from boards.vboard import board as vboard; print(vboard.BOARD.gate.is_open)")
    assert gate.strip() == "True"
    # The controller's loop runs on; the technician's mpremote interrupts it with Ctrl-C.
    blank_board.exec("from boards.vboard import board as vboard; vboard.serve()", "--no-follow")
    assert sabot("pull-log", "--port", blank_board.port, tmp_path / "pulled").returncode == 0
    state = blank_board.exec("from boards.vboard import board as vboard; print(vboard.BOARD.gate.is_open)")
    assert state.strip() == "False"
    _, reader, findings = check([tmp_path / "pulled"], DEVELOPMENT_KEY)
    assert not [f for f in findings if f.id == "J-TAMPER"]
    records = list(Reader(load_segments([tmp_path / "pulled"]), DEVELOPMENT_KEY))
    assert records[-1].fields[TYPE] == R_RELEASE  # the gate was open for a release when Ctrl-C came


@pytest.mark.req("H-FIRMWARE")
def test_deploy_check_names_a_file_changed_on_the_device(blank_board, mpy_build):
    assert sabot("deploy", "--port", blank_board.port, mpy_build).returncode == 0
    changed = blank_board.fs / "firmware" / "controller.mpy"
    data = bytearray(changed.read_bytes())
    data[-1] ^= 1
    changed.write_bytes(bytes(data))
    checked = sabot("deploy", "--port", blank_board.port, "--check-only", mpy_build)
    assert checked.returncode == 1
    assert "differs or missing on the device: firmware/controller.mpy" in checked.stdout
    assert checked.stdout.count("differs") == 1


@pytest.mark.req("H-SIM", "S-STOP")
def test_a_board_started_with_a_scenario_runs_it_at_boot_and_answers_mpremote(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path, "--scenario", str(SCENARIOS / "deux_tableaux_ouverte.txt"))
    try:
        assert board.exec("import os; print(sorted(os.listdir('journal')))").strip().startswith("['00000001.sbj'")
        assert sabot("pull-log", "--port", board.port, tmp_path / "pulled").returncode == 0
    finally:
        board.close()
    _, reader, findings = check([tmp_path / "pulled"], DEVELOPMENT_KEY)
    assert not [f for f in findings if f.id == "J-TAMPER"] and reader.records > 50
