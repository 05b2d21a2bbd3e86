"""The secure element at the factory bench (issue 35), on the virtual board through the real mpremote: a blank generic
ATECC608B is provisioned by `sabot element provision`, takes the board's address at its next power-up and is
enrolled; a part provisioned already, a Trust&GO and a part where none answers are refused in one line, exit 2,
changing nothing; a shoe whose element does not answer is locked in a named fault, its journal kept."""

import json

import pytest

from firmware.records import FAULT_DEVKEY
from tests.host.test_vboard import VirtualBoard, sabot


def _state(board):
    return json.loads(board.exec("from firmware.remote import state\nstate()").strip().splitlines()[-1])


def _one_line(done):
    return done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.req("K-ELEMENT", "S-FAILSAFE")
def test_a_blank_generic_part_is_provisioned_by_the_command_moved_to_the_boards_address_then_enrolled(
        tmp_path, mpy_build):
    registry = tmp_path / "shoes.json"
    board = VirtualBoard(tmp_path, "--element", "ATECC608B")  # the generic part as it ships: 0x60, no key
    try:
        refused = sabot("key", "enrol", "--port", board.port, "--registry", registry)
        assert _one_line(refused) and "no element answers at 0x35" in refused.stderr, refused.stderr
        assert not registry.exists()
        locked = _state(board)
        assert locked["alarms"] >> FAULT_DEVKEY - 1 & 1  # "aucun élément sécurisé ne répond": the gate stays locked
        done = sabot("element", "provision", "--port", board.port)
        assert done.returncode == 0, done.stderr
        assert "element provisioned and locked: public key" in done.stdout and "power the shoe off and on" in (
            done.stdout)
        assert "kept aside in /journal.1" in done.stdout  # the journal begun with no key: kept, never deleted
        again = sabot("element", "provision", "--port", board.port)  # locked now: refused, nothing written
        assert _one_line(again) and "provisioned already" in again.stderr and "nothing written" in again.stderr
    finally:
        board.close()
    element = (tmp_path / "fs.element").read_bytes()
    board = VirtualBoard(tmp_path)  # powered off and on: the element answers at 0x35, as a Trust&GO
    try:
        enrolled = sabot("key", "enrol", "--port", board.port, "--registry", registry)
        assert enrolled.returncode == 0, enrolled.stderr
        public = done.stdout.split("public key ")[1][:16]
        assert json.loads(registry.read_text())["shoes"][0]["public_key"].startswith(public)
        assert _state(board)["alarms"] == 0  # its own journal, begun under its own element's key
        files = board.exec("import os\nprint(sorted(os.listdir()))")
        assert "journal.1" in files and "'journal'" in files
    finally:
        board.close()
    assert (tmp_path / "fs.element").read_bytes()[:32] == element[:32]  # the same chip


@pytest.mark.req("K-ELEMENT")
def test_a_trust_and_go_part_needs_no_provisioning_and_the_command_changes_nothing(tmp_path, mpy_build):
    board = VirtualBoard(tmp_path)  # the board's own part: a Trust&GO at 0x35 (board.json)
    try:
        assert _state(board)["alarms"] == 0  # served: its power-up's checkpoint counted
        state = (tmp_path / "fs.element").read_bytes()
        nobody = sabot("element", "provision", "--port", board.port)  # a generic part's 0x60: nobody there
        assert _one_line(nobody) and "no element answers at 0x60" in nobody.stderr, nobody.stderr
        ready = sabot("element", "provision", "--port", board.port, "--address", "0x35")
        assert _one_line(ready) and "ready as it is" in ready.stderr and "nothing written" in ready.stderr
        assert (tmp_path / "fs.element").read_bytes() == state
    finally:
        board.close()
