"""Random sequences of scenario commands never break the shoe's invariants (hypothesis, on CPython)."""

import struct

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards.sim.board import SimBoard
from boards.sim.observer import Observer
from boards.sim.runner import run
from boards.sim.scenario import parse
from boards.sim.storage import MemoryStorage
from firmware import cards
from firmware.controller import DEALING, DEALT, R_ALARM, R_CARD, R_CLEAR, R_COUP_END, R_LOAD, R_NO_MORE_BETS
from firmware.journal import BODY, records
from tests.core.req import covers

_ACTIONS = st.one_of(
    st.sampled_from(["no_more_bets", "coup_end", "double", "jam", "power_cut", "power_on", "clear_alarm",
                     "wait 3000", "force"]),
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
            assert self.doing == "draw" and ctl.phase == DEALING and ctl.alarm == 0
        self.release += 1

    def record(self, body, seq):
        super().record(body, seq)
        fields = struct.unpack(BODY, body)
        if fields[0] == R_CARD and fields[7] == DEALT:
            # Never two dealt cards out of one release (S-ONE).
            assert self.release not in self.dealt_by_release
            self.dealt_by_release[self.release] = seq


@covers("S-LOCK", "S-ONE", "S-STOP", "S-FORCED", "J-EVERY")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ACTIONS, max_size=60))
def test_random_scenarios_keep_the_shoes_invariants(actions):
    text = "\n".join(["shoe cards=AS,2H,3D,4C,5S,6H,7D,8C stop_after=4"] + actions)
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

    journal = [fields for _, fields in records(storage.bytes())]
    card_records = [r for r in journal if r[0] == R_CARD]
    # Every card that left a powered shoe has its record (J-EVERY); none is recorded twice.
    assert len(card_records) == board.shoe.out - board.unseen
    assert not board.gate.is_open or board.shell.ctl.phase == DEALING or board.shell.ctl.deadline() >= 0

    # Read from the card records alone, not from the controller's own R_CLOSED.
    stop = in_coup = closed = alarmed = False
    for r in journal:
        if r[0] == R_LOAD:
            stop = in_coup = closed = False
        elif r[0] == R_NO_MORE_BETS:
            in_coup = True
        elif r[0] == R_COUP_END:
            in_coup = False
            closed = stop
        elif r[0] == R_CARD and r[6] == cards.STOP:
            stop = True
            closed = not in_coup
        elif r[0] == R_ALARM:
            alarmed = True
        elif r[0] == R_CLEAR:
            alarmed = False
        elif r[0] == R_CARD and r[7] == DEALT:
            assert not closed, "a card dealt after the stop card's coup (S-STOP)"
            assert not alarmed, "a card dealt under an alarm (S-FORCED)"
