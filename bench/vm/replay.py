"""The whole shoe's events as the shell heard them on the sim board (bench/shoe_events.py), replayed into the
firmware with nothing of the sim around it, so that a measure sees the firmware's own work. Runs on MicroPython
(firmware from the .mpy build) and on CPython (from the sources):

    micropython -m replay MODE EVENTS FOLDER [RUNS]      (compiled: bench/vmrun.py)

Every mode does the same setup (imports, the events loaded, a shell whose journal is recovered into FOLDER) and
the same loop, which calls one function per event:
  base        an empty function: the loop alone
  controller  Controller.step of a controller of its own (the card path: what Shell.decide runs)
  handle      Shell.handle: the step, its records appended to the journal and flushed, its commands
  alloc       heap bytes allocated from the WARM-th card on, gc off (MicroPython): Controller.step alone,
              Shell.decide inside the shell, and Shell.handle whole
  time        RUNS timed loops of each of base, controller and handle, each run on a fresh shell and journal
              in FOLDER/runN (FOLDER must exist)
callgrind counts base, controller and handle whole: their differences are the controller's and the journal's work.
Prints one JSON line.
"""

import json
import struct
import sys
from array import array

from boards.sim.board import FIRMWARE, START_S
from boards.sim.devices import SimOutputs, SimWall
from firmware.controller import Controller
from firmware.devkey import DEVELOPMENT_KEY
from firmware.events import EV_CARD
from firmware.journal import Journal
from firmware.mac import Key
from firmware.shell import Shell
from firmware.storage import FileStorage

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter_ns

    def ticks_us():
        return perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


WARM = 20  # cards before the allocation count starts: the first coups warm whatever is made once


def load(path):
    """(events, args, times): the file's count, then its three columns, read straight into their arrays."""
    with open(path, "rb") as f:
        n = struct.unpack("<I", f.read(4))[0]
        events, args, times = bytearray(n), array("I", bytes(4 * n)), array("I", bytes(4 * n))
        for column in (events, args, times):
            f.readinto(column)
    return events, args, times


def make_shell(folder, clock):
    """A shell as the sim board's power-on makes it, its journal recovered (the recorded events hold the boot's)."""

    def uptime_ms():
        return clock[0]

    journal = Journal(FileStorage(folder), Key(DEVELOPMENT_KEY), 1, FIRMWARE, SimWall(uptime_ms, START_S))
    outputs = SimOutputs()
    shell = Shell(outputs, outputs, outputs, journal)
    journal.recover(shell.ctl)
    return shell


def nothing(event, arg, now):
    pass


def replay(call, events, args, times, clock):
    for i in range(len(events)):
        now = times[i]
        clock[0] = now
        call(events[i], args[i], now)


def allocated(events, args, times, folder):
    """Bytes allocated per function from the WARM-th card to the end of the shoe, the collector off."""
    import gc

    warm = 0
    seen = 0
    while seen < WARM:
        seen += events[warm] == EV_CARD
        warm += 1
    cards = sum(1 for i in range(warm, len(events)) if events[i] == EV_CARD)
    clock = array("I", [0])
    shell = make_shell(folder, clock)
    mark = array("i", [0, 0])

    def before():
        mark[0] = gc.mem_alloc()

    def after():
        mark[1] += gc.mem_alloc() - mark[0]

    step = Controller().step
    handle = shell.handle
    gc.collect()
    gc.disable()
    for i in range(warm):
        step(events[i], args[i], times[i])
    start = gc.mem_alloc()
    for i in range(warm, len(events)):
        step(events[i], args[i], times[i])
    step_bytes = gc.mem_alloc() - start
    for i in range(warm):
        clock[0] = times[i]
        handle(events[i], args[i], times[i])
    shell.guard = (before, after)  # around each Shell.decide, as the heap_lock test puts micropython.heap_lock
    start = gc.mem_alloc()
    for i in range(warm, len(events)):
        clock[0] = times[i]
        handle(events[i], args[i], times[i])
    handle_bytes = gc.mem_alloc() - start
    gc.enable()
    shell.journal.close()
    return {"cards": cards, "step_bytes": step_bytes, "decide_bytes": mark[1], "handle_bytes": handle_bytes}


def timed(events, args, times, folder, runs):
    """Microseconds of each loop, RUNS times; each run on a fresh controller, shell and journal folder."""
    out = {"base_us": [], "controller_us": [], "handle_us": []}
    for run in range(runs):
        clock = array("I", [0])
        shell = make_shell("%s/run%d" % (folder, run), clock)
        for name, call in (("base_us", nothing), ("controller_us", Controller().step), ("handle_us", shell.handle)):
            started = ticks_us()
            replay(call, events, args, times, clock)
            out[name].append(ticks_diff(ticks_us(), started))
        shell.journal.close()
    return out


def main(argv):
    mode, path, folder = argv[0], argv[1], argv[2]
    events, args, times = load(path)
    if mode == "alloc":
        print(json.dumps(allocated(events, args, times, folder)))
        return 0
    if mode == "time":
        print(json.dumps(timed(events, args, times, folder, int(argv[3]) if len(argv) > 3 else 5)))
        return 0
    clock = array("I", [0])
    shell = make_shell(folder, clock)
    ctl = Controller()
    call = {"base": nothing, "controller": ctl.step, "handle": shell.handle}[mode]
    replay(call, events, args, times, clock)
    shell.journal.close()
    print(json.dumps({"mode": mode, "events": len(events)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
