"""A checkpoint signed over the loop's passes (issue 38): on a board with a secure element whose model is busy for the
datasheet's times (boards/sim/element.py, its clock moved 1 ms a pass of the loop), the loop's passes go on while the
element signs, none waiting for it, and the events queued meanwhile wait for the entry: no record comes between a
step and its checkpoint, and a coup's gate opens only once its opening is signed (issue 37)."""

import struct

import pytest

from boards.mcu.atecc import ATECC
from boards.sim.board import SimBoard
from boards.sim.element import DEVELOPMENT_SEED, SimElement
from boards.sim.runner import act, run
from boards.sim.scenario import parse
from firmware import games
from firmware.checkpoints import Checkpoints
from firmware.events import EV_COUP_END, EV_DRAW, EV_NO_MORE_BETS, EV_SEANCE_CLOSE
from firmware.format import checkpoint as cp
from firmware.records import R_NO_MORE_BETS, R_RELEASE
from firmware.storage import FileStorage
from tests.core.test_element import Bus, Clock

LOADED = "seance table=3\nshoe seed=4\n"
WAKE_MS = 2  # the driver's wait after the wake pulse (tWHI, 1.5 ms), a run's first step
PASSES_MAX = 2000  # far more than the element's 185 ms of an opening at 1 ms a pass


def loaded(tmp_path):
    """A board with an element busy as the chip is, its séance open and its shoe loaded; the driver's waits counted
    (bus.waited: what a pass would have slept for the element)."""
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    clock = Clock()
    chip = SimElement(DEVELOPMENT_SEED, str(tmp_path / "element"), clock=clock)
    bus = Bus(chip, clock)
    board.on_pass = lambda: _pass(board, clock)
    board.checkpoints = Checkpoints(str(tmp_path / "journal"), ATECC(bus, bus.sleep_ms), board.sabot)
    board.key = board.checkpoints.key()
    run(parse(LOADED), board)
    bus.waited = 0  # the power-up's checkpoint is waited for: its loop has not begun
    return board, chip, bus


def _pass(board, clock):
    """A pass of the loop on the chip's clock: at least its idle's 1 ms sleep."""
    clock.us += 1000


def passes(board, bus, *events, until):
    """events queued at once, as a croupier's quick presses are, then the loop's passes (1 ms each, its idle's) until
    until() holds; each pass's (the journal's last record type, records so far, the gate's releases, the queue's
    events left, the file's entries, the ms the driver slept in it)."""
    for event in events:
        board.events.put(event, 0)
    seen = []
    for _ in range(PASSES_MAX):
        waited = bus.waited
        board.runtime.step()
        shell = board.shell
        seen.append((shell.journal.body[0], shell.journal.seq, board.gate.releases, _queued(board),
                     len(entries(board)), bus.waited - waited))
        if until():
            return seen
        board.on_pass()
    raise AssertionError("not done after %d passes" % PASSES_MAX)


def _queued(board):
    events = board.events
    return (events._head - events._tail) % events._size


def entries(board):
    points = board.shell.checkpoints
    try:
        with open(points.path, "rb") as f:
            data = f.read()
    except OSError:
        return []
    return [struct.unpack_from(cp.ENTRY, data, at) for at in range(0, len(data) - cp.SIZE + 1, cp.SIZE)]


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "S-FAILSAFE", "P-FUZZ")
def test_a_coups_opening_is_signed_over_passes_none_waiting_and_its_first_draw_waits_for_the_signature(tmp_path):
    board, chip, bus = loaded(tmp_path)
    counted = chip._counters[0]
    seen = passes(board, bus, EV_NO_MORE_BETS, EV_DRAW, until=lambda: board.gate.releases == 1)
    assert max(s[5] for s in seen) <= WAKE_MS  # no pass slept for the element but its wake: each polled it once
    assert len(seen) > 150  # the increment, Nonce, GenDig and Sign's datasheet times, a pass a millisecond
    first = seen[0]
    assert first[0] == R_NO_MORE_BETS and first[3] == 1  # "no more bets" durable, its draw still queued
    assert all(s[2] == 0 and s[3] == 1 for s in seen[:-1])  # the gate shut, the draw waiting, until it is signed
    assert seen[-1][0] == R_RELEASE and chip._counters[0] == counted + 1  # then the draw's release, the count spent


def dealt(board):
    """The coup opened and its four cards dealt, as a scenario deals them."""
    game = games.CHEMIN_DE_FER
    for _, command, a, b in parse(LOADED + "no_more_bets\ndraw 4\n")[len(parse(LOADED)):]:
        game = act(board, game, command, a, b)


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "P-FUZZ")
def test_a_coups_end_is_signed_over_passes_and_the_next_opening_comes_after_its_entry(tmp_path):
    board, chip, bus = loaded(tmp_path)
    dealt(board)
    written = len(entries(board))
    seen = passes(board, bus, EV_COUP_END, EV_NO_MORE_BETS, until=lambda: board.shell.ctl.in_coup)
    assert max(s[5] for s in seen) <= WAKE_MS
    ended = seen[0][1]  # the coup's end journalled in the first pass
    assert seen[0][3] == 1  # the next "no more bets" still queued
    waiting = [s for s in seen if s[4] == written]
    assert len(waiting) > 100 and all(s[1] == ended and s[3] == 1 for s in waiting)  # nothing journalled meanwhile
    got = entries(board)
    assert [e[1] for e in got[written:]] == [cp.OPENING, cp.COUP_END]  # the opening held, written with the end
    assert got[-1][5] == ended  # the entry where its step ended
    assert seen[-1][0] == R_NO_MORE_BETS and seen[-1][1] == ended + 1  # then the next coup's opening


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_a_step_from_the_cable_while_a_checkpoint_is_on_its_way_finishes_it_first(tmp_path):
    board, chip, bus = loaded(tmp_path)
    dealt(board)
    written = len(entries(board))
    shell = board.shell
    board.events.put(EV_COUP_END, 0)
    board.runtime.step()  # the coup's end journalled, its entry begun
    assert shell.checkpoints.job is not None and len(entries(board)) == written
    ended = shell.journal.seq
    waited = bus.waited
    shell.handle(EV_SEANCE_CLOSE, 0, board.clock.ticks())  # the protocol's séance close, in the same pass
    assert [e[1] for e in entries(board)[written:]] == [cp.OPENING, cp.COUP_END]  # the coup's end's first
    assert bus.waited - waited > 100  # waited for, in the pass that asked: the element's 160 ms of signing
    closed = shell.journal.seq
    passes(board, bus, until=lambda: shell.checkpoints.job is None)  # the séance's own, over the next passes
    got = entries(board)
    assert [e[1] for e in got[written:]] == [cp.OPENING, cp.COUP_END, cp.SEANCE]
    assert got[written + 1][5] == ended < got[written + 2][5] == closed  # each where its step ended
