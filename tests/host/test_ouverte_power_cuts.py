"""Article 61's count of the day survives a power cut (O-SEANCES, O-BREAK): recovery reads the journal's last
segment only, so a segment begun by a power-up (a torn tail) or by size restates the day at banque ouverte. The
bundled scenario is cut after each of its records; the shoe powered up on what flash held must refuse or accept a
séance as the uncut shoe would have, from its whole journal."""

import struct

import pytest

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import controller, games
from firmware import layout as fmt
from firmware.events import EV_SEANCE, REF_BREAK, REF_BUSY, REF_IN_COUP, REF_SEANCES
from firmware.records import R_OUVERTE_DAY, R_REFUSAL, pack_seance
from tests.conftest import SCENARIOS
from tests.core.play import journal_records
from tests.host.test_power_cuts import Recording

ARTICLE61 = (SCENARIOS / "banque_ouverte_article61.txt").read_text().splitlines()
PROBE = pack_seance(1, games.DEUX_TABLEAUX_OUVERTE, 0)  # the scenario's last line: a séance at banque ouverte
TORN = b"\xa5\x14torn"  # a frame begun, never finished: the power-up goes on in a new segment


def _seq(frame):
    return struct.unpack_from("<I", frame, fmt.SEQ_AT)[0]


def _probe(board):
    """The séance the scenario's last line opens, on a board powered up on what flash held: the refusal, or 0."""
    board.power_on()
    board.press(EV_SEANCE, PROBE)
    return board.shell.ctl.refused, board.shell.ctl.seconds


def _uncut(bodies, seconds):
    """The refusal of the uncut shoe, every record up to the cut replayed, for a séance opened then."""
    ctl = controller.Controller()
    for body in bodies:
        ctl.restore(body)
    ctl.seconds = seconds
    ctl.step(EV_SEANCE, PROBE, 0)
    return ctl.refused


@pytest.fixture(scope="module")
def reference():
    storage = Recording()
    board = SimBoard(storage)
    run(parse("\n".join(ARTICLE61[:-1])), board)  # all but the last séance: each cut probes it
    return storage.ops, board.clock.now


@pytest.mark.req("O-SEANCES", "O-BREAK", "S-FAILSAFE")
def test_a_third_seance_or_a_short_break_is_refused_after_a_power_cut_at_any_record(reference):
    ops, now = reference
    files, bodies, refused = {}, [], []
    for kind, segment, data in ops:
        if kind == "create":
            files[segment] = bytearray(data)
            continue
        files[segment] += data
        bodies.append(bytes(data[fmt.BODY_AT:fmt.LINK_AT]))
        storage = MemoryStorage()
        storage.files = {n: bytearray(d) for n, d in files.items()}
        board = SimBoard(storage)
        board.clock.now = now + 1000
        for _ in range(2):  # torn twice: the second power-up knows the day from the first's segment alone
            storage.files[max(storage.files)] += TORN
            board.power_on()
            board.power_cut()
        got, seconds = _probe(board)
        want = _uncut(bodies, seconds)
        if want in (REF_BUSY, REF_IN_COUP):  # cut in a coup: the power-up ends its release, the coup stays
            want = REF_IN_COUP
        assert got == want, "cut after seq %d" % _seq(data)
        refused.append(got)
    assert refused.count(REF_SEANCES) >= 3 and refused.count(REF_BREAK) > 5 and refused.count(0) >= 2


@pytest.mark.req("O-SEANCES", "O-BREAK")
def test_a_segment_begun_by_size_restates_the_day_and_the_third_seance_stays_refused():
    storage = MemoryStorage()
    board = SimBoard(storage, segment_records=3)  # segments of three records: rotations between the coups
    run(parse("\n".join(ARTICLE61[:-1] + ["power_cut", "power_on", ARTICLE61[-1]])), board)
    records = journal_records(storage)
    assert [r["code"] for r in records if r["type"] == R_REFUSAL] == [REF_BREAK, REF_SEANCES]
    assert any(r["type"] == R_OUVERTE_DAY for r in records)
    assert len(storage.segments()) > 10
