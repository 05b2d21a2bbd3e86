"""The sim board runs the shell as a Pico does: its interrupts queue events, the loop of firmware/runtime.py hands
them to the shell (docs/architecture.md), so the sim shows the boards' path and not a shortcut of its own."""

from firmware.events import EV_CARD, EV_SEANCE
from firmware.records import R_SEANCE, TABLE_MAX
from firmware.runtime import EventQueue, Runtime
from firmware.shell import Shell
from tests.core.play import play
from tests.core.req import covers


def _looped(method, depth):
    def run(self):
        depth[0] += 1
        try:
            method(self)
        finally:
            depth[0] -= 1

    return run


@covers("H-SIM", "S-IDENT")
def test_every_event_the_sim_boards_shell_hears_comes_through_the_queue_and_the_loop():
    in_loop = [0]
    heard = []  # (event, heard while the loop's step or boot ran)
    queued = []
    step, boot, handle, put = Runtime.step, Runtime.boot, Shell.handle, EventQueue.put

    def hear(self, event, arg, now):
        heard.append((event, in_loop[0] > 0))
        handle(self, event, arg, now)

    def queue(self, event, arg):
        queued.append(event)
        return put(self, event, arg)

    Runtime.step, Runtime.boot = _looped(step, in_loop), _looped(boot, in_loop)
    Shell.handle, EventQueue.put = hear, queue
    try:
        played = play("seance table=%d" % TABLE_MAX, "shoe seed=3", "no_more_bets", "draw 4", "coup_end", "force 1",
                      "power_cut", "power_on", "clear_alarm", "wait 60000")
    finally:
        Runtime.step, Runtime.boot, Shell.handle, EventQueue.put = step, boot, handle, put
    assert len(heard) > 10 and [h for h in heard if not h[1]] == [], heard
    assert queued.count(EV_CARD) == len(played.cards()) >= 5
    assert queued.count(EV_SEANCE) == 1
    # The queue carries a byte: the séance's table rides on the panel's séance, as a board's config gives it.
    assert played.of_type(R_SEANCE)[0]["code"] == TABLE_MAX
