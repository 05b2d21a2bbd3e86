"""The shoe defends its own state (J-TAMPER, S-FORCED, S-STOP): a journal cut or rolled back on the shoe's flash
while it was off comes back shorter than the head it kept beside the journal, and the shoe raises the
journal-rollback fault: locked until a supervisor clears it, closed after, so no coup is dealt from a shoe whose
history was lost. The sim board here keeps its journal and its head in files, as the virtual board and a real
board do."""

from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import layout as fmt
from firmware import records as rec
from firmware.controller import CLOSED, IDLE
from firmware.events import EV_CLEAR, EV_NO_MORE_BETS
from firmware.head import FileHead
from firmware.storage import FileStorage

FORCED = "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\nforce\n"
STOP_COUP = "seance table=3\nshoe cards=AS,2S,3S,4S,5S,6S,7S,8S,9S,TS stop_after=0\nno_more_bets\ndraw 5\ncoup_end\n"


def played(tmp_path, text, head=True):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    if head:
        board.head = FileHead(str(tmp_path / "head.bin"))
    run(parse(text), board)
    board.power_cut()
    return board


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
def test_the_last_segment_deleted_or_the_whole_journal_or_the_head_is_a_rollback_too(tmp_path):
    for damage in ("segment", "journal", "head"):
        where = tmp_path / damage
        where.mkdir()
        board = played(where, FORCED + "power_on\nseance table=4\nshoe seed=5\n")  # two segments
        assert len(segments(where)) >= 2
        if damage == "segment":
            segments(where)[-1].unlink()
        elif damage == "journal":
            for path in segments(where):
                path.unlink()
        else:
            (where / "head.bin").unlink()
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
