"""A restart costs the secure element no count unless a checkpoint is due (issue 38): an idle shoe restarted again
and again (a cable that resets it every 8 s) spends nothing after its first power-up's checkpoint; a restart after
records the last checkpoint does not cover (a card dealt in a coup) checkpoints them; the journal verifies."""

import pytest

from bench.restarts import counts_per_restart
from boards.sim.board import SimBoard
from firmware.events import EV_LOAD, EV_SEANCE
from firmware.records import BOOT_RESTART, pack_seance
from firmware.storage import FileStorage
from tests.host.test_rollback import with_element


@pytest.mark.req("K-COUNTER", "J-TAMPER")
def test_an_idle_shoe_restarted_again_and_again_spends_no_count(tmp_path):
    assert counts_per_restart(str(tmp_path), restarts=12) == 0


@pytest.mark.req("K-COUNTER", "J-TAMPER")
def test_a_restart_after_records_no_checkpoint_covers_spends_one_and_the_next_idle_ones_none(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    chip = with_element(board, tmp_path)
    board.power_on()
    board.press(EV_SEANCE, pack_seance(3, 0, 7))  # its own checkpoint
    board.press(EV_LOAD, 0)  # a record after the séance's checkpoint, none of its own
    counter = chip._counters[0]
    board.power_cut()
    board.power_on(BOOT_RESTART)
    assert chip._counters[0] == counter + 1  # due: the record is vouched for now
    for _ in range(3):
        board.power_cut()
        board.power_on(BOOT_RESTART)
    assert chip._counters[0] == counter + 1
    assert not board.shell.ctl.alarms  # no rollback seen: the journal reaches its last checkpoint
