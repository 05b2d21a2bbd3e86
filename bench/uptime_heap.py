"""Heap on both MicroPython VMs at an uptime of an hour, 13 days (past time.ticks_ms()'s wrap at 2**30 ms), a year
and ten years: bytes allocated per card by Shell.decide (none: the path from a sensed card to the gate's command)
and Shell.handle, per record by Journal.append, and per pass of the main loop with nothing to do (none). On the
32-bit VM an int of 2**30 or more is a heap object, so these figures show that no time or counter grows into one.
The shoe's events are replayed from then on, in that uptime's wrapping ticks, on the boards' own clocks and drivers
(boards/mcu), gc.mem_alloc() read before and after each part with the collector off (bench/vm/uptime.py)."""

from bench import vmrun
from bench.report import figure
from sabot import vms

UPTIMES = {"1h": 3600, "13d": 13 * 86400, "1y": 365 * 86400, "10y": 3650 * 86400}  # bench/vm/uptime.py's, seconds
HEAP = "1M"  # the collector is off while a shoe is replayed; gc.mem_alloc() walks the whole heap, so no bigger


def measure(ctx):
    build = ctx.build  # the sim build holds boards/mcu (boards/sim/board.json): bench/vm/uptime.py runs its clocks
    out = {}
    for vm, vm_name in vms.NAMES.items():
        cwd = ctx.scratch("uptime-" + vm)
        got = vmrun.last_json(vmrun.vm("uptime.py", [vmrun.link(cwd, "events.bin", ctx.events), "journal"], build,
                                       cwd, heapsize=HEAP, vm=vm))
        for uptime, seconds in UPTIMES.items():
            at = got[uptime]
            if not seconds <= at["uptime_s"] < seconds + 86400:
                raise AssertionError("the %s run stamped its records %d s after power-on" % (uptime, at["uptime_s"]))
            how = "%s, %s of uptime, %d cards (bench/vm/uptime.py)" % (vm_name, uptime, at["cards"])
            name = "uptime_heap.%s.%s." % (vm, uptime)
            out[name + "decide_per_card"] = figure(round(at["decide_bytes"] / at["cards"], 1), "B/card",
                                                   "Shell.decide, the card path; " + how)
            out[name + "handle_per_card"] = figure(round(at["handle_bytes"] / at["cards"], 1), "B/card",
                                                   "Shell.handle whole, the journal's frames and hashes; " + how)
            out[name + "append_per_record"] = figure(round(at["append_bytes"] / at["records"], 1), "B/record",
                                                     "Journal.append, %d records; %s" % (at["records"], how))
            out[name + "loop_pass"] = figure(round(at["pass_bytes"] / at["passes"], 1), "B/pass",
                                             "the main loop's idle pass (Runtime.step, reader, LED, buzzer), %d "
                                             "passes; %s" % (at["passes"], how))
    return out
