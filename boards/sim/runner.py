"""Plays a scenario on the sim board. Runs as is on CPython and inside the MicroPython unix port:

    micropython -m boards.sim.runner SCENARIO --log JOURNAL [--trace TRACE] [--quiet] [--heap-lock] [--receipt]

--receipt writes the simulated shoe's signed head into JOURNAL/receipt.json at the end, as `sabot pull-log`
does a shoe's (boards/sim/receipt.py).
"""

import gc
import sys

from boards.sim.shoe import shuffled_shoe, with_stop_card
from boards.sim.steps import decode
from firmware import events as ev
from firmware import games
from firmware.storage import FileStorage

GAP_MS = 500  # the croupier's rhythm between two actions
# A collection every 4 KB allocated rather than when the heap is full: the garbage of the journal's hashing never
# spreads through a small heap between the objects that live, so a whole shoe needs 2 KB less (bench/memory.py).
_GC_EVERY = 4096
_WAIT_STEP_MS = 1 << 29  # a wait of any length goes by in steps of at most half the ticks' period

_BUTTONS = {"no_more_bets": ev.EV_NO_MORE_BETS, "coup_end": ev.EV_COUP_END, "clear_alarm": ev.EV_CLEAR,
            "seance_close": ev.EV_SEANCE_CLOSE}


def run(steps, board):
    """Carry out checked scenario commands on a board whose power is off."""
    game = games.CHEMIN_DE_FER
    board.power_on()
    for _, command, a, b in steps:
        game = act(board, game, command, a, b)
    board.advance(GAP_MS)


def act(board, game, command, a, b):
    """One checked command on a running board; returns the game of the next shoe. The web page plays its
    croupier's actions one at a time through it, as run() plays a file's."""
    if command == "game":
        return a
    if command == "shoe_seed" or command == "shoe_cards":
        board.advance(GAP_MS)
        board.shoe.load(shuffled_shoe(game, a) if command == "shoe_seed"
                        else (bytearray(a) if b < 0 else with_stop_card(a, b)))
        board.press(ev.EV_LOAD, game)
    elif command == "seance":
        board.advance(GAP_MS)
        board.press(ev.EV_SEANCE, a)
    elif command in _BUTTONS:
        board.advance(GAP_MS)
        board.press(_BUTTONS[command])
    elif command == "draw" or command == "burn":
        _pull(board, a, ev.EV_DRAW if command == "draw" else ev.EV_BURN)
    elif command == "force":
        _pull(board, a, None)
    elif command == "candidate" or command == "adjudicate":
        board.advance(GAP_MS)
        board.press(ev.EV_CANDIDATE if command == "candidate" else ev.EV_ADJUDICATE, a)
    elif command == "stand":
        board.advance(GAP_MS)
        board.press(ev.EV_STAND, a)
    elif command == "reader":
        board.reader = a
    elif command == "double":
        board.shoe.double = True
    elif command == "jam":
        board.shoe.jam = True
    elif command == "wait":
        while a > _WAIT_STEP_MS:
            board.advance(_WAIT_STEP_MS)
            a -= _WAIT_STEP_MS
        board.advance(a)
    elif command == "power_cut":
        board.advance(GAP_MS)
        board.power_cut()
        if board.observer:
            board.observer.note(board.clock.now, "power cut: gate de-energised, locked")
    elif command == "power_on":
        board.advance(GAP_MS)
        if not board.shell:
            board.power_on()
    return game


def _pull(board, times, event):
    """Cards at the mouth, one every GAP_MS: each asked for by `event` then pulled, or forced past the gate (None).
    Apart from act(), whose frame then fits the VM's stack rather than its heap (H-SIM: 160 B less at a card's peak)."""
    for _ in range(times):
        board.advance(GAP_MS)
        if event is None:
            board.shoe.force()
        else:
            board.press(event)
            board.shoe.pull()


def _sim_board():
    """The sim board's class, its firmware loaded after the scenario's check has let go of the parser (H-SIM: the
    check and the shoe's code never share the small heap). MicroPython's heap never moves an object: code loaded from
    .mpy files between the loader's temporaries leaves holes a small heap cannot spare, so a few modules at a time,
    each load's garbage collected before the next."""
    for name in ("firmware.journal", "firmware.controller", "boards.sim.board"):
        __import__(name)
        gc.collect()
    from boards.sim.board import SimBoard

    return SimBoard


def _checked(path):
    """The scenario's steps as compact bytes (boards.sim.steps), or None once its fault is said. The checker's module
    is let go after: a small heap runs the shoe without it."""
    from boards.sim import scenario

    try:
        with open(path) as f:
            return scenario.compiled(f, path)
    except OSError as e:
        print("error: cannot read scenario %s: %s" % (path, e))
    except (scenario.ScenarioError, UnicodeError) as e:
        print("error: %s" % e)
    finally:
        if sys.implementation.name == "micropython":  # its heap holds the module's code: let it go
            del sys.modules["boards.sim.scenario"]
            del sys.modules["boards.sim"].scenario
    return None


def main(argv):
    usage = "usage: runner SCENARIO --log JOURNAL [--trace TRACE] [--quiet] [--heap-lock] [--receipt]"
    path, log, trace_path, quiet, heap_lock, receipt = None, None, None, False, False, False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--log", "--trace") and i + 1 < len(argv):
            i += 1
            if arg == "--log":
                log = argv[i]
            else:
                trace_path = argv[i]
        elif arg == "--quiet":
            quiet = True
        elif arg == "--heap-lock":
            heap_lock = quiet = True
        elif arg == "--receipt":
            receipt = True
        elif path is None and not arg.startswith("--"):
            path = arg
        else:
            print(usage)
            return 2
        i += 1
    if path is None or log is None:
        print(usage)
        return 2
    if sys.implementation.name == "micropython":
        gc.threshold(_GC_EVERY)
    steps = _checked(path)  # the whole file is checked before anything runs
    if steps is None:
        return 2
    gc.collect()  # the check's garbage and code, before what lives as long as the run
    trace = open(trace_path, "w") if trace_path and not heap_lock else None
    observer = None
    if trace or not quiet:
        from boards.sim.observer import Observer  # only when someone looks: it costs RAM on a small heap

        observer = Observer(None if quiet else sys.stdout, trace)
    board = _sim_board()(FileStorage(log), observer=observer, heap_lock=heap_lock)
    if observer:
        observer.wall_ms = board.wall_ms
    try:
        run(decode(steps), board)
        if receipt and board.shell:  # a shoe left without power signs nothing: verify will say so
            from boards.sim.receipt import write_receipt  # only then: it costs RAM on a small heap

            write_receipt(board, path, log)
    finally:
        board.close()
        if trace:
            trace.close()
    if observer:
        print(observer.summary(board))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
