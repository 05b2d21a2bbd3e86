"""The gate's close on the emulated Pico while its core is busy at the beam's edge (issue 36): the PIO's state
machine shuts the gate on the edge whatever the core does. On the development image (its REPL), the loop stopped, the
gate's state machine armed for a card held at the mouth until the core is busy (tools/pico/pico.mjs's `card`
command, break_when): in a sector erase (interrupts off, the core in the ROM), in a garbage collection, in USB's
interrupt handler while the REPL prints. The production image never erases with the gate armed (the housekeeping
waits for no release pending, firmware/checkpoint_hook.py) and has no REPL to make it: its figure is a whole shoe
dealt to the stop card, from the factory's bench, the core's state at each edge counted. Skipped without `make
image BOARD=rpi_pico`."""

from bench.pico_flood import PATIENCE_US, gate_closes
from bench.report import figure, skipped
from sabot.mpremote_link import FEED, mpremote
from sabot.pico import IMAGE_DIR, WHOLE_SHOE, Pico, commission, gate_falls, interrupt_closings, steps

NAMES = ("pico.gate_close_us.busy_core", "pico.gate_close_us.busy_core.interrupt",
         "pico.gate_close_us.production_shoe")
ARM = FEED + "import rp2\nrp2.StateMachine(0).put(1)\n"  # the gate's machine (boards/rpi_pico/pio_gate.py)
# What keeps the core busy once armed, a card breaking the beam meanwhile: the ring's last sector erased (a scratch
# Pico's), collections, prints over USB, each for up to 200 ms of the chip's time.
BUSY = {
    "flash": "import rp2\nrp2.Flash(start=896 * 1024 + 127 * 4096, len=4096).ioctl(6, 0)\n",
    "gc": "import gc, time\nt = time.ticks_ms()\nwhile time.ticks_diff(time.ticks_ms(), t) < 200:\n    gc.collect()\n",
    "usb": "import time\nt = time.ticks_ms()\nwhile time.ticks_diff(time.ticks_ms(), t) < 200:\n    print('x' * 60)\n",
}
WAIT_US = 100_000  # the card breaks the beam anyway this long after the gate opened


def measure(ctx):
    if not (IMAGE_DIR / "firmware-dev.bin").exists():
        return {name: skipped("no Pico image: make image BOARD=rpi_pico") for name in NAMES}
    shoe = production_shoe(ctx.scratch("pico-gate-production"))
    folder = ctx.scratch("pico-gate")
    with Pico(folder / "shoe.flash", blank=True, development=True) as board:
        commission(board, folder)
        for busy, script in BUSY.items():
            card = board.command("card", line=None, break_when=busy, break_us=WAIT_US)["id"]
            mpremote(board.port, "exec", ARM + script)
            board.wait(lambda card=card: any(e["ev"] == "card" and e["id"] == card for e in board.events),
                       timeout=300)
        events = list(board.events)
    closes = gate_closes(shoe)
    busy = {what: sum(1 for _, core in closes if core[what]) for what in ("usb", "gc", "flash")}
    production = figure(round(max(t for t, _ in closes), 3), "us", "beam edge to the gate pin's fall by the PIO's "
                        "state machine, worst of the %d cards of a whole shoe dealt to its stop card on the production "
                        "image (from the factory's bench, its séance opened on its panel; the core at the edges: %d "
                        "in USB's handler, %d in a collection, %d in a flash operation) on the emulated Pico (rp2040js "
                        "1.4.1, its PIO stepped with the core, the XIP cache modelled), simulated" % (
                            len(closes), busy["usb"], busy["gc"], busy["flash"]))
    cards = [e for e in events if e["ev"] == "card" and e.get("busy")]
    if sorted(c["busy"] for c in cards) != sorted(BUSY):
        return {NAMES[2]: production, **{name: skipped("the core was not busy so at a card's edge: %s" % [
                c.get("busy") for c in cards]) for name in NAMES[:2]}}
    pio = {c["busy"]: us for c, (us, _) in zip(cards, gate_falls(events, cards))}
    isr = dict(zip((c["busy"] for c in cards), interrupt_closings(events, cards)))
    where = ("the development image on the emulated Pico (rp2040js 1.4.1, its PIO stepped with the core, the XIP "
             "cache modelled), the loop stopped and the gate's state machine armed over mpremote, simulated")
    return {
        NAMES[2]: production,
        NAMES[0]: figure(round(max(pio.values()), 3), "us", "beam edge to the gate pin's fall by the PIO, worst of "
                         "three edges, each while the core was busy: in a sector erase %.3f, a garbage collection "
                         "%.3f, USB's interrupt handler %.3f; " % (pio["flash"], pio["gc"], pio["usb"]) + where),
        NAMES[1]: figure(round(max(isr.values()), 1), "us", "beam edge to the interrupt path's own lock (the beam's "
                         "handler's store into the gate's state machine, boards/rpi_pico/gate_irq.py) for the same "
                         "edges: it waits for the erase's end (%.1f), runs within the collection (%.1f) and after "
                         "USB's handler (%.1f); " % (isr["flash"], isr["gc"], isr["usb"]) + where),
    }


def production_shoe(folder):
    """A whole shoe dealt on the production image, from the factory's bench (sabot.pico_vboard.factory), its séance
    opened on its panel: the emulator's events."""
    from sabot.pico_vboard import factory
    from sabot.production_link import restarted_production

    flash = folder / "shoe.flash"
    factory(flash)
    with Pico(flash) as board:
        restarted_production(board.port)
        scenario = folder / "whole-shoe.txt"
        scenario.write_text("seance table=1\n" + WHOLE_SHOE)
        board.command("deal", timeout=3600, steps=steps(scenario), no_card_us=PATIENCE_US)
        return list(board.events)
