"""Heap allocated by the firmware at an uptime of an hour, 13 days (past time.ticks_ms()'s wrap), a year and ten
years: the recorded shoe (bench/shoe_events.py) replayed with its times shifted into the wrapping ticks of that
uptime, on a shell with the boards' own drivers (boards/mcu: gate, LED, buzzer, card reader) and clocks (Uptime and
WallClock, run up to that uptime on the same ticks), the collector off. Runs on both MicroPython VMs, from the
sim build with boards/mcu compiled in (bench/vmrun.py):

    micropython -m uptime EVENTS FOLDER          (compiled: bench/vmrun.py)

Per uptime, from the WARM-th card on: Shell.decide (its guard hooks) and Shell.handle per card, Journal.append
per record, and the main loop's pass (Runtime.step and the board's chores: reader, LED, buzzer) with nothing queued,
after every event whose time leaves no timer due. Prints one JSON line, with each run's uptime as its last
record's time stamp says.
"""

import gc
import json
import struct
import sys
from array import array

from replay import WARM, load

from boards.mcu import clock
from boards.mcu.buzzer import Buzzer
from boards.mcu.gate import Gate
from boards.mcu.indicator import Indicator
from boards.mcu.reader import CardReader
from boards.sim.board import FIRMWARE, START_S
from firmware.devkey import DEVELOPMENT_KEY
from firmware.events import EV_CARD
from firmware.journal import Journal
from firmware.mac import Key
from firmware.runtime import EventQueue, Runtime
from firmware.shell import Shell
from firmware.storage import FileStorage
from firmware.ticks import ticks_add, ticks_diff

UPTIMES = (("1h", 3600), ("13d", 13 * 86400), ("1y", 365 * 86400), ("10y", 3650 * 86400))  # seconds
_RUN_UP_S = 100000  # the clocks go up to an uptime by steps far under half the ticks' period (6.2 days)


class Ticks:
    """`time` as boards/mcu reads it, on the replay's clock: ticks_ms() is the shoe's time in wrapping ticks."""

    def __init__(self):
        self.now = 0
        self.ticks_diff = ticks_diff

    def ticks_ms(self):
        return self.now


class Rtc:
    """A DS3231 at the uptime's pace: its second turns as rtc_base first looks, then it reads the wall time."""

    def __init__(self, uptime):
        self._uptime = uptime
        self._turned = 0

    def seconds(self):
        seconds = START_S + self._turned + self._uptime.seconds
        self._turned = 1
        return seconds


class Pin:
    def __init__(self):
        self.level = 0

    def value(self, level=None):
        if level is not None:
            self.level = level
        return self.level


class Uart:
    """A card reader's UART with nothing received: poll() looks and finds nothing, as between cards."""

    def any(self):
        return 0


def nothing():
    pass


def board_at(folder, seconds, ticks):
    """(shell, chores) of a board powered for `seconds`, its journal recovered into folder; ticks at that uptime."""
    uptime = clock.Uptime()
    wall = clock.WallClock(Rtc(uptime), uptime)
    while seconds > 0:
        step = seconds if seconds < _RUN_UP_S else _RUN_UP_S
        ticks.now = ticks_add(ticks.now, step * 1000)
        wall.stamp()  # the clocks read the ticks at least every half period, as the journal's records make them
        seconds -= step
    journal = Journal(FileStorage(folder), Key(DEVELOPMENT_KEY), 1, FIRMWARE, wall)
    indicator, buzzer, reader = Indicator(Pin()), Buzzer(Pin()), CardReader(Uart())
    shell = Shell(Gate(Pin()), indicator, buzzer, journal)
    journal.recover(shell.ctl)

    def chores():
        """What boards/mcu/service.py's main loop does between events, less its sleep."""
        reader.poll()
        now = ticks.now
        indicator.update(now)
        buzzer.update(now)

    return shell, chores


def at_uptime(events, args, times, folder, seconds):
    """Bytes allocated from the WARM-th card on, per part, at an uptime of `seconds`."""
    ticks = Ticks()
    clock.time = ticks
    shell, chores = board_at(folder, seconds, ticks)
    base = ticks.now
    shifted = array("i", times)
    for i in range(len(times)):
        shifted[i] = ticks_add(base, times[i])
    warm = seen = 0
    while seen < WARM:
        seen += events[warm] == EV_CARD
        warm += 1
    cards = sum(1 for i in range(warm, len(events)) if events[i] == EV_CARD)
    mark = array("i", [0, 0, 0, 0, 0])  # start, decide, append, records, pass

    def before():
        mark[0] = gc.mem_alloc()

    def after():
        mark[1] += gc.mem_alloc() - mark[0]

    append = shell.journal.append

    def counted(body):
        start = gc.mem_alloc()
        append(body)
        mark[2] += gc.mem_alloc() - start
        mark[3] += 1

    loop = Runtime(shell, EventQueue(), ticks.ticks_ms, nothing, chores)
    ctl = shell.ctl
    handle = shell.handle
    gc.collect()
    gc.disable()
    for i in range(warm):
        ticks.now = shifted[i]
        handle(events[i], args[i], shifted[i])
    shell.guard = (before, after)
    shell.journal.append = counted
    passes = 0
    start = gc.mem_alloc()
    for i in range(warm, len(events)):
        now = shifted[i]
        ticks.now = now
        handle(events[i], args[i], now)
        if ctl.deadline(now) != 0:  # a pass with no timer due: nothing for the shell
            mark[4] -= gc.mem_alloc()
            loop.step()
            loop.idle()
            mark[4] += gc.mem_alloc()
            passes += 1
    handle_bytes = gc.mem_alloc() - start - mark[4]
    gc.enable()
    shell.journal.close()
    stamped = struct.unpack_from("<I", shell.journal.body, 1)[0] - START_S  # the last record's wall time
    return {"uptime_s": stamped, "cards": cards, "records": mark[3], "passes": passes, "decide_bytes": mark[1],
            "handle_bytes": handle_bytes, "append_bytes": mark[2], "pass_bytes": mark[4]}


def main(argv):
    events, args, times = load(argv[0])
    out = {}
    for name, seconds in UPTIMES:
        out[name] = at_uptime(events, args, times, "%s-%s" % (argv[1], name), seconds)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
