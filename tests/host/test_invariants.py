"""Random sequences of scenario commands never break the shoe's invariants (hypothesis, on CPython)."""

import os
import struct

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from boards.sim.observer import Observer
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import cards
from firmware.controller import DEALING
from firmware.layout import BODY, FIELDS
from firmware.records import DEALT, R_ALARM, R_CARD, R_CLEAR, R_COUP_END, R_LOAD, R_NO_MORE_BETS
from tests.core.play import journal_records
from tests.core.req import covers

TYPE, CARD, DISPOSITION = (FIELDS.index(name) for name in ("type", "card", "disposition"))  # in a body's fields

_ACTIONS = st.one_of(
    st.sampled_from(["no_more_bets", "coup_end", "double", "jam", "power_cut", "power_on", "clear_alarm",
                     "wait 3000", "force", "seance", "seance_close"]),
    st.integers(1, 7).map("draw {}".format),
    st.integers(3, 7).map("no_more_bets\ndraw {}\ncoup_end".format),  # a whole coup: what a shoe mostly does
    st.integers(1, 3).map("burn {}".format),
    st.integers(0, 1000).map("shoe seed={}".format),
    st.builds(lambda stack, k: "shoe cards=%s stop_after=%d" % (",".join(stack), k % (len(stack) + 1)),
              st.lists(st.sampled_from([cards.name(c) for c in range(52)]), min_size=4, max_size=30),
              st.integers(0, 30)),
)


class Watcher(Observer):
    """Checks, as it happens, what the journal alone cannot show: when the gate opened and why."""

    def __init__(self):
        super().__init__()
        self.board = None
        self.doing = None
        self.release = 0
        self.dealt_by_release = {}

    def watch(self, steps):
        for step in steps:
            self.doing = step[1]
            yield step

    def gate_opened(self):
        ctl = self.board.shell.ctl
        if self.doing == "burn":
            assert not ctl.in_coup and ctl.phase != DEALING
        else:
            # The gate never opens while bets are open (S-LOCK), nor under an alarm (S-FORCED, S-ONE).
            assert self.doing == "draw" and ctl.phase == DEALING and ctl.alarms == 0
        self.release += 1

    def record(self, body, seq):
        super().record(body, seq)
        fields = struct.unpack(BODY, body)
        if fields[TYPE] == R_CARD and fields[DISPOSITION] == DEALT:
            # Never two dealt cards out of one release (S-ONE).
            assert self.release not in self.dealt_by_release
            self.dealt_by_release[self.release] = seq


@covers("S-LOCK", "S-ONE", "S-STOP", "S-FORCED", "J-EVERY")
# SABOT_INVARIANT_EXAMPLES=3000 for the 3,000 sequences (about 10 minutes); CI runs 300.
@settings(max_examples=int(os.environ.get("SABOT_INVARIANT_EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ACTIONS, max_size=60))
def test_random_scenarios_keep_the_shoes_invariants(actions):
    text = "\n".join(["seance", "shoe cards=AS,2H,3D,4C,5S,6H,7D,8C stop_after=4"] + actions)
    storage = MemoryStorage(1 << 20)
    watcher = Watcher()
    board = SimBoard(storage, observer=watcher)
    watcher.board = board
    opened = board.gate.open

    def open_and_check():
        watcher.gate_opened()
        opened()

    board.gate.open = open_and_check
    run(watcher.watch(parse(text)), board)

    journal = [tuple(r[name] for name in FIELDS) for r in journal_records(storage)]
    card_records = [r for r in journal if r[TYPE] == R_CARD]
    # Every card that left a powered shoe has its record (J-EVERY); none is recorded twice.
    assert len(card_records) == board.shoe.out - board.unseen
    shell = board.shell
    assert not board.gate.is_open or shell.ctl.phase == DEALING or shell.ctl.deadline(board.clock.ticks()) >= 0

    # Read from the card records alone, not from the controller's own R_CLOSED.
    stop = in_coup = closed = alarmed = False
    for r in journal:
        if r[TYPE] == R_LOAD:
            stop = in_coup = closed = False
        elif r[TYPE] == R_NO_MORE_BETS:
            in_coup = True
        elif r[TYPE] == R_COUP_END:
            in_coup = False
            closed = stop
        elif r[TYPE] == R_CARD and r[CARD] == cards.STOP:
            stop = True
            closed = not in_coup
        elif r[TYPE] == R_ALARM:
            alarmed = True
        elif r[TYPE] == R_CLEAR:
            alarmed = False
        elif r[TYPE] == R_CARD and r[DISPOSITION] == DEALT:
            assert not closed, "a card dealt after the stop card's coup (S-STOP)"
            assert not alarmed, "a card dealt under an alarm (S-FORCED)"
