"""Cost per card over a whole chemin de fer shoe on the MicroPython VM, split into the controller's path
(Controller.step: what Shell.decide runs right after the sensor) and the journal's write (Shell.handle less the
step: records framed, chained, written and flushed, then the commands): instructions counted by callgrind,
and times (VM and CPython) that are reported, never budgeted."""

import statistics

from bench import callgrind, vmrun
from bench.report import figure, skipped
from bench.shoe_events import journal_bytes

SCRIPT = "replay.py"
MODES = ("base", "controller", "handle")
HEAP = "128K"  # the journal's cost grows with the heap (gc_alloc scans garbage): a Pico has about 190K


def _instructions(ctx):
    cwds = {mode: ctx.scratch("cost-" + mode) for mode in MODES}
    counts = callgrind.vm_instructions_all({mode: (SCRIPT, [mode, vmrun.link(cwd, "events.bin", ctx.events),
                                                            "journal"], cwd)
                                            for mode, cwd in cwds.items()}, ctx.build, HEAP)
    if journal_bytes(cwds["handle"] / "journal") != journal_bytes(ctx.sim_journal):
        raise AssertionError("the replayed events did not write the sim's journal: the replay is not the shoe")
    return counts


def instructions(ctx):
    ok, why = callgrind.available()
    names = ("instructions_per_card.controller", "instructions_per_card.journal", "instructions_per_card.handle")
    if not ok:
        return {name: skipped(why) for name in names}
    counts = _instructions(ctx)
    cards = ctx.cards
    how = ("callgrind Ir in MicroPython's main_, the shoe's %d events (%d cards) replayed from the mpy build in a "
           "%s heap" % (ctx.shoe["events"], cards, HEAP))
    return {
        names[0]: figure(round((counts["controller"] - counts["base"]) / cards), "instr/card",
                         "Controller.step over every event; " + how + ", less the empty replay"),
        names[1]: figure(round((counts["handle"] - counts["controller"]) / cards), "instr/card",
                         "Shell.handle less Controller.step: %d records appended and flushed (with gc); %s" % (
                             ctx.shoe["records"], how)),
        names[2]: figure(round((counts["handle"] - counts["base"]) / cards), "instr/card",
                         "Shell.handle whole; " + how + ", less the empty replay"),
        "instructions.vm_setup": figure(counts["base"], "instr",
                                        "the empty replay: VM start, imports, journal recovered, events loaded"),
    }


def _per_card(runs, name, cards):
    """Median over runs of a loop's microseconds less the empty loop's, per card."""
    return statistics.median(c - b for c, b in zip(runs[name], runs["base_us"], strict=True)) / cards


def times(ctx):
    runs = 3 if ctx.quick else 7
    on = {}
    for runtime in ("vm", "cpython"):
        cwd = ctx.scratch("time-" + runtime)
        (cwd / "runs").mkdir()
        args = ["time", vmrun.link(cwd, "events.bin", ctx.events), "runs", runs]
        on[runtime] = vmrun.last_json(vmrun.vm(SCRIPT, args, ctx.build, cwd, HEAP) if runtime == "vm"
                                      else vmrun.cpython(SCRIPT, args, cwd))
    vm, cpy = on["vm"], on["cpython"]
    out = {}
    for part, key in (("controller", "controller_us"), ("handle", "handle_us")):
        on_vm, on_cpython = _per_card(vm, key, ctx.cards), _per_card(cpy, key, ctx.cards)
        what = "Controller.step" if part == "controller" else "Shell.handle with the journal flushed to a tmp folder"
        out["time_per_card.vm.%s" % part] = figure(round(on_vm, 1), "us/card", "%s, median of %d replays of the "
                                                   "shoe in one VM (%s heap), less the empty loop" % (what, runs, HEAP),
                                                   deterministic=False)
        out["time_per_card.cpython.%s" % part] = figure(round(on_cpython, 2), "us/card", "the same on CPython "
                                                        "from the sources", deterministic=False)
        out["time_per_card.vm_to_cpython.%s" % part] = figure(round(on_vm / on_cpython, 1), "x",
                                                              "VM time / CPython time", deterministic=False)
    return out


def measure(ctx):
    out = instructions(ctx)
    if not ctx.check:
        out.update(times(ctx))
    return out
