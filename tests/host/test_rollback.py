"""The shoe defends its own state (J-TAMPER, S-FORCED, S-STOP, K-COUNTER): a journal cut or rolled back on the
shoe's flash while it was off no longer reaches its last signed checkpoint, or its checkpoints no longer reach the
secure element's counter, and the shoe raises the journal-rollback fault: locked until a supervisor clears it,
closed after, so no coup is dealt from a shoe whose history was lost. The sim board here keeps its journal and its
checkpoints in files and has an element (the model, boards/sim/element.py), as the virtual board and a real board
do; the simulator's own sim board has none."""

from pathlib import Path

import pytest

from boards.mcu.atecc import ATECC, COUNTER_MAX
from boards.sim.board import SimBoard
from boards.sim.element import DEVELOPMENT_SEED, SimElement
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import layout as fmt
from firmware import records as rec
from firmware.checkpoints import Checkpoints
from firmware.controller import CLOSED, IDLE
from firmware.events import EV_CLEAR, EV_COUP_END, EV_NO_MORE_BETS
from firmware.format import checkpoint as cp
from firmware.storage import FileStorage
from tests.core.test_element import Bus

FORCED = "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\nforce\n"
STOP_COUP = "seance table=3\nshoe cards=AS,2S,3S,4S,5S,6S,7S,8S,9S,TS stop_after=0\nno_more_bets\ndraw 5\ncoup_end\n"


class CutAfterIncrement(SimElement):
    """The model, its power cut once right after a counter's increment, before the checkpoint that follows is
    signed (the write it was for never happens)."""

    armed = False

    def _execute(self, body):
        answer = super()._execute(body)
        if self.armed and body[1] == 0x24 and body[2] == 1:  # Counter, increment
            self.armed = False
            raise PowerCut
        return answer


class PowerCut(Exception):
    pass


def with_element(board, tmp_path, chip=None):
    chip = chip or SimElement(DEVELOPMENT_SEED, str(tmp_path / "element"))
    bus = Bus(chip)
    board.checkpoints = Checkpoints(str(tmp_path / "journal"), ATECC(bus, bus.sleep_ms), board.sabot)
    board.key = board.checkpoints.key()  # its headers name the element, as a board's do
    return chip


def played(tmp_path, text):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    with_element(board, tmp_path)
    run(parse(text), board)
    board.power_cut()
    return board


def checkpoints(tmp_path):
    return tmp_path / "journal" / cp.FILE


def segments(tmp_path):
    return sorted((tmp_path / "journal").glob("*.sbj"))


def cut_frames(path: Path, frames):
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - frames * fmt.FRAME_SIZE])


@pytest.mark.req("J-TAMPER", "S-FORCED")
def test_the_last_records_cut_on_the_shoe_raise_a_rollback_fault_that_only_the_supervisor_clears(tmp_path):
    board = played(tmp_path, FORCED)
    cut_frames(segments(tmp_path)[-1], 2)  # the forced card and its alarm: gone from the journal
    board.power_on()
    ctl = board.shell.ctl
    assert ctl.raised(rec.FAULT_ROLLBACK) and ctl.locked() and not ctl.raised(rec.ALARM_FORCED)
    board.power_cut()
    board.power_on()  # a second boot does not launder it: the fault is in the journal now
    assert board.shell.ctl.raised(rec.FAULT_ROLLBACK)
    board.press(EV_CLEAR)
    assert not board.shell.ctl.alarms and board.shell.ctl.phase == CLOSED  # no coup from this shoe


@pytest.mark.req("J-TAMPER")
def test_the_last_segment_deleted_or_the_whole_journal_or_the_checkpoints_is_a_rollback_too(tmp_path):
    for damage in ("segment", "journal", "checkpoints", "checkpoints cut", "all of it"):
        where = tmp_path / damage
        where.mkdir()
        # two segments, the last ending on a load (no checkpoint after it: a counter ahead is no cut during one)
        board = played(where, FORCED + "clear_alarm\npower_on\nseance table=4\nshoe seed=5\n")
        assert len(segments(where)) >= 2
        if damage == "segment":
            segments(where)[-1].unlink()
        elif damage == "journal":
            for path in segments(where):
                path.unlink()
        elif damage == "checkpoints":
            checkpoints(where).unlink()
        elif damage == "checkpoints cut":
            data = checkpoints(where).read_bytes()
            checkpoints(where).write_bytes(data[:-cp.SIZE])
        else:
            for path in (where / "journal").iterdir():
                path.unlink()
        board.power_on()
        assert board.shell.ctl.raised(rec.FAULT_ROLLBACK), damage


@pytest.mark.req("S-STOP", "J-TAMPER")
def test_after_the_stop_cards_coup_a_cut_journal_does_not_reopen_the_shoe(tmp_path):
    board = played(tmp_path, STOP_COUP)
    last = segments(tmp_path)[-1]
    assert board.shoe.remaining() > 0 and last.read_bytes()[-fmt.FRAME_SIZE + fmt.BODY_AT] == rec.R_CLOSED
    cut_frames(last, 1)  # the shoe's closing: the journal alone would let the next coup be dealt
    board.power_on()
    board.press(EV_CLEAR)
    assert board.shell.ctl.phase == CLOSED
    board.press(EV_NO_MORE_BETS)
    assert board.shell.ctl.refused and board.shell.ctl.locked()


@pytest.mark.req("J-DURABLE")
def test_an_honest_power_cycle_raises_no_rollback_and_the_first_boot_neither(tmp_path):
    board = played(tmp_path, FORCED + "clear_alarm\npower_cut\npower_on\nno_more_bets\ndraw 2\n")
    board.power_on()
    ctl = board.shell.ctl
    assert not ctl.alarms and ctl.phase != IDLE
    board.press(EV_NO_MORE_BETS)  # the coup the power cut paused resumes
    assert not ctl.refused and not ctl.locked()


@pytest.mark.req("J-TAMPER", "S-FORCED", "K-COUNTER")
def test_the_journal_and_its_checkpoints_cut_together_before_a_forced_card_leave_the_counter_ahead(tmp_path):
    board = played(tmp_path, "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\n")
    cut_to = segments(tmp_path)[-1].stat().st_size
    kept = checkpoints(tmp_path).read_bytes()
    board.power_on()
    board.advance(500)
    board.shoe.force()  # the forced card and its alarm, and the alarm's checkpoint
    board.advance(500)
    assert board.shell.ctl.raised(rec.ALARM_FORCED)
    board.power_cut()
    assert len(checkpoints(tmp_path).read_bytes()) > len(kept)
    # Every file of the shoe put back as it was before the forced card: only the element's counter is not.
    path = segments(tmp_path)[-1]
    path.write_bytes(path.read_bytes()[:cut_to])
    for later in segments(tmp_path):
        if later.name > path.name:
            later.unlink()
    checkpoints(tmp_path).write_bytes(kept)
    board.power_on()
    assert board.shell.ctl.raised(rec.FAULT_ROLLBACK) and board.shell.ctl.locked()


@pytest.mark.req("J-TAMPER", "K-COUNTER")
def test_a_power_cut_between_the_counters_increment_and_its_checkpoint_is_said_at_boot_not_a_rollback(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    chip = with_element(board, tmp_path, CutAfterIncrement(DEVELOPMENT_SEED, str(tmp_path / "element")))
    run(parse("seance table=3\nshoe seed=4\n"), board)
    chip.armed = True
    with pytest.raises(PowerCut):
        board.press(EV_NO_MORE_BETS)  # the coup's opening journalled, then its checkpoint: the power fails in between
    board.power_cut()
    board.power_on()
    # The counter one ahead of an intact entry the journal reaches, the coup's opening after it: the boot says so
    # (R_ELEMENT, tests/host/test_element_faults.py), no rollback fault.
    assert not board.shell.ctl.raised(rec.FAULT_ROLLBACK) and not board.shell.ctl.alarms


@pytest.mark.req("J-TAMPER")
def test_the_last_checkpoint_deleted_with_every_record_kept_is_explained_as_a_cut_and_nothing_is_lost(tmp_path):
    """The journal ending on the step whose checkpoint is deleted reads as a cut during that checkpoint (the shoe
    cannot tell): every record is still there, and the boot journals the counter it found ahead."""
    board = played(tmp_path, FORCED)
    data = checkpoints(tmp_path).read_bytes()
    checkpoints(tmp_path).write_bytes(data[:-cp.SIZE])  # the forced card's alarm's checkpoint
    board.power_on()
    ctl = board.shell.ctl
    assert ctl.raised(rec.ALARM_FORCED) and not ctl.raised(rec.FAULT_ROLLBACK)


@pytest.mark.req("J-DURABLE", "K-COUNTER")
def test_checkpoints_follow_coups_seances_and_boots_never_a_card_inside_a_coup(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    chip = with_element(board, tmp_path)
    run(parse("seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\n"), board)
    data = checkpoints(tmp_path).read_bytes()
    reasons = [data[i + 1] for i in range(0, len(data), cp.SIZE)]
    assert reasons == [cp.BOOT, cp.SEANCE]  # none for the load nor for the coup's cards; its opening held
    assert chip._counters[0] == 3  # the opening counted up before its gate unlocked
    board.press(EV_COUP_END)
    data = checkpoints(tmp_path).read_bytes()
    assert [data[-2 * cp.SIZE + 1], data[-cp.SIZE + 1]] == [cp.OPENING, cp.COUP_END]  # written together
    assert len(data) == 4 * cp.SIZE and chip._counters[0] == 3  # the coup's end: its opening's value, not counted


def test_the_simulators_board_has_no_element_and_writes_no_checkpoint(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    run(parse(FORCED), board)
    assert board.checkpoints is None and not checkpoints(tmp_path).exists()


@pytest.mark.req("K-COUNTER", "S-FAILSAFE")
def test_a_shoe_whose_elements_counter_is_spent_stays_locked_at_every_boot(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    chip = with_element(board, tmp_path, SimElement(DEVELOPMENT_SEED, str(tmp_path / "element"),
                                                    counters=(COUNTER_MAX - 2, 0)))
    run(parse("seance table=3\nshoe seed=4\n"), board)  # the boot's and the séance's checkpoints: its last two
    assert chip._counters[0] == COUNTER_MAX
    board.power_cut()
    board.power_on()
    assert board.shell.ctl.raised(rec.FAULT_ROLLBACK)  # no checkpoint can follow: a cut would go unseen
    board.press(EV_CLEAR)  # the supervisor may clear it, and it comes back at the next boot
    board.power_cut()
    board.power_on()
    assert board.shell.ctl.raised(rec.FAULT_ROLLBACK)
