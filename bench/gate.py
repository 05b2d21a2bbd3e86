"""Gate reaction: the work the beam sensor's interrupt handler does, whose first statement shuts the gate (S-ONE,
S-FAILSAFE), counted by callgrind over N calls on the VM with builtin pins and the heap locked as in a hard
interrupt, less N calls of an empty handler."""

import ast

from bench import callgrind, vmrun
from bench.report import figure, skipped
from sabot.boards import hardware

SCRIPT = "isr.py"
HEAP = "512K"  # the ring holds every call's event: no call finds it full
BEAM = vmrun.ROOT / "boards" / "mcu" / "beam.py"
FIRST = "self._gate.close()"  # bench/vm/isr.py's FirstStatement copies it


def first_statement():
    """on_break's first statement after its docstring, as source."""
    tree = ast.parse(BEAM.read_text())
    handler = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "on_break")
    body = handler.body[1:] if ast.get_docstring(handler) else handler.body
    return ast.unparse(body[0])


def _drivers_build():
    """The boards' drivers (boards/mcu), compiled for a hardware board (boards/*/board.json): any will do."""
    return vmrun.build(hardware()[0])


def instructions(ctx, calls):
    names = ("gate.instructions.to_gate_shut", "gate.instructions.handler_bare", "gate.instructions.handler_fitted")
    ok, why = callgrind.available()
    if not ok:
        return {name: skipped(why) for name in names}
    build = _drivers_build()
    count = callgrind.vm_instructions_all({mode: (SCRIPT, [mode, calls], ctx.scratch("isr"))
                                           for mode in ("empty", "first", "bare", "fitted")}, build, HEAP)
    how = "callgrind Ir over %d calls on the VM under heap_lock, less as many calls of an empty handler, / %d" % (
        calls, calls)
    out = {}
    if first_statement() == FIRST:
        out[names[0]] = figure(round((count["first"] - count["empty"]) / calls), "instr/call",
                               "a handler of on_break's first statement alone (%s), on Gate and a builtin pin: "
                               "the handler's work until the gate is shut; %s" % (FIRST, how))
    else:
        out[names[0]] = skipped("on_break no longer starts with %s (bench/vm/isr.py copies it)" % FIRST)
    out[names[1]] = figure(round((count["bare"] - count["empty"]) / calls), "instr/call",
                           "BeamSensor.on_break whole, no reader nor stop-card detector: gate shut, card queued "
                           "(EventQueue.put); " + how)
    out[names[2]] = figure(round((count["fitted"] - count["empty"]) / calls), "instr/call",
                           "the same with a card reader holding a fresh identity (CardReader.take); " + how)
    return out


def times(ctx):
    got = vmrun.last_json(vmrun.vm(SCRIPT, ["time", 20000], _drivers_build(), ctx.scratch("isr-time"), HEAP))
    how = ("less an empty handler, best of 5 runs of 20000 calls on the VM under heap_lock (x86-64; a Cortex-M0+ is "
           "far slower)")
    return {"gate.time_us.to_gate_shut": figure(round(got["first"] - got["empty"], 3), "us/call",
                                                "on_break's first statement " + how, deterministic=False),
            "gate.time_us.handler_bare": figure(round(got["bare"] - got["empty"], 3), "us/call",
                                                "BeamSensor.on_break " + how, deterministic=False)}


def measure(ctx):
    out = instructions(ctx, 2000 if ctx.check else 10000)
    if not ctx.check:
        out.update(times(ctx))
    return out
