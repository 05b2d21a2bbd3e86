"""The shoe's image on the emulated Raspberry Pi Pico (tools/pico/, docs/pico-emulator.md): a Pico commissioned, a
séance opened, a whole shoe dealt through its pins and reader to the stop card (sabot.pico.WHOLE_SHOE); the gate's
fall after each card's beam edge (the PIO's, and the interrupt path's own lock beside it) and the cycles the core ran
per card, in simulated time (rp2040js counts Cortex-M0+ cycles at 125 MHz; pico.mjs adds the XIP cache's misses,
56 cycles each), the flash's erases counted on the emulated chip, the heap
free once the controller runs, and how much slower than real time the emulator dealt. Skipped without `make image
BOARD=rpi_pico`."""

import statistics
import time

from bench.report import figure, skipped
from sabot.mpremote_link import mpremote, resume
from sabot.pico import (
    GATE,
    IMAGE_DIR,
    OPENING_US,
    PINS,
    Pico,
    commission,
    deal_whole_shoe,
    erases,
    gate_closings,
    heap_low_water,
    interrupt_closings,
    open_seance,
    steps,
)

NAMES = ("pico.gate_close_us.median", "pico.gate_close_us.max", "pico.cycles_per_card", "pico.heap_free_after_shoe",
         "pico.erases_per_card.ring", "pico.erases_per_card.littlefs", "pico.slower_than_real_time",
         "pico.heap_free_percent.low_water", "pico.no_more_bets_to_gate_ms.worst", "pico.element_ms_per_coup",
         "pico.element_commands_in_card_path", "pico.gate_close_us.interrupt_max")
# On a new Pico, coups whose first card the croupier asks for right after "no more bets" (its press 40 ms after the
# button's release), no wait for the opening's signature (the bets placed as before): how long before the gate opens.
QUICK_COUPS = "game chemin_de_fer\nshoe seed=7\nburn 1\n" + "no_more_bets\ndraw 4\ncoup_end\n" * 6


def measure(ctx):
    if not (IMAGE_DIR / "firmware-dev.bin").exists():
        return {name: skipped("no Pico image: make image BOARD=rpi_pico") for name in NAMES}
    folder = ctx.scratch("pico")
    work = []  # (simulated µs, opcode, ms at the chip's clock) of each command the element executed
    with Pico(folder / "shoe.flash", blank=True, development=True, element=recording(work)) as board:
        started = time.monotonic()
        deal = deal_whole_shoe(board, folder)
        wall = time.monotonic() - started
        said = mpremote(board.port, "exec", "import gc\ngc.collect()\nprint(gc.mem_free())")
        resume(board.port)
        heap = int(said.strip().splitlines()[0]) if said.strip() else None
        events = list(board.events)
    waits = quick_coups(folder / "quick")
    cards = [e for e in events if e["ev"] == "card"]
    closings = gate_closings(events)
    ring, littlefs = erases(events, deal["began_us"])
    dealt = [w for w in work if w[0] >= deal["began_us"]]
    coups = sum(1 for e in events if e["ev"] == "press" and e["pin"] == PINS["no_more_bets"]
                and e["t_us"] >= deal["began_us"])
    in_path = in_card_path(dealt, events)
    low = heap_low_water(events)
    simulated = (deal["t_us"] - events[0]["t_us"]) / 1e6
    how = ("%d cards of a whole shoe dealt through the pins on the emulated Pico (rp2040js 1.4.1, its PIO stepped "
           "with the core, the XIP cache modelled: tools/pico/pico.mjs), simulated" % len(cards))
    isr = interrupt_closings(events)
    return {
        NAMES[0]: figure(round(statistics.median(closings), 3), "us",
                         "beam edge to the gate pin's fall by the PIO's state machine, median of " + how),
        NAMES[1]: figure(round(max(closings), 3), "us",
                         "beam edge to the gate pin's fall by the PIO's state machine, worst of " + how),
        NAMES[11]: figure(round(max(isr), 1), "us", "beam edge to the interrupt path's own lock (the beam's hard "
                          "handler's native store into the gate's state machine, boards/rpi_pico/gate_irq.py: the "
                          "ESP32's path, the PIO aside), worst of the same cards (median %.1f), the XIP cache "
                          "flushed by each flash program and erase as the ROM does, so each card's first edge after "
                          "its release's record runs the handler from a cold cache; " % statistics.median(isr) + how),
        NAMES[2]: figure(round((cards[-1]["cycles"] - cards[0]["cycles"]) / (len(cards) - 1)), "cycles/card",
                         "core cycles executed (not asleep) from one card's slide to the next's, the croupier's "
                         "presses and the main loop's idle passes included; " + how),
        NAMES[3]: (figure(heap, "bytes", "gc.mem_free() after gc.collect() once the shoe was dealt (the controller "
                          "stopped by mpremote, resumed after)") if heap else skipped("no answer from the Pico")),
        NAMES[4]: figure(round(ring / len(cards), 4), "erases/card",
                         "4 KB sector erases of the journal's ring partition on the emulated flash during the deal, "
                         "per card; " + how),
        NAMES[5]: figure(round(littlefs / len(cards), 4), "erases/card",
                         "4 KB block erases of littlefs's region on the emulated flash during the deal (the journal's "
                         "drains to its segment files), per card; " + how),
        NAMES[7]: (figure(round(100 * low[0] / low[1], 1), "%", "the fewest bytes free after a garbage collection "
                          "(%d of the heap's %d), counted by the emulator in the allocation table as gc_collect_end "
                          "returns, from boot through the whole shoe and mpremote's reading of the heap; " % low + how)
                   if low else skipped("no gdb to find the image's heap")),
        NAMES[8]: (figure(round(max(waits), 1), "ms", "the press of \"no more bets\" to the gate's opening for the "
                          "dealer's request pressed right after it (40 ms after its release), worst of %d coups on "
                          "the emulated Pico's development image: the coup's opening counted up and signed by the "
                          "element model at its M0 worst times, then the request's release record (issue 37), "
                          "simulated" % len(waits)) if waits else skipped("no coup opened")),
        NAMES[9]: (figure(round(sum(w[2] for w in dealt) / coups, 1), "ms",
                          "the secure element's execution time a coup, at its M0 clock's worst times (cryptoauthlib's "
                          "table): every command the model executed during the whole shoe's deal (%d, the coups' "
                          "openings and ends, the séance's and the alarms' checkpoints) over its %d coups; %s" % (
                              len(dealt), coups, how)) if coups else skipped("no coup dealt")),
        NAMES[10]: figure(len(in_path), "commands", "element commands begun while the gate was open (a card's "
                          "path: from the release to the gate shut again) during the whole shoe's deal; " + how),
        NAMES[6]: figure(round(wall / simulated, 1), "x", "wall time over simulated time, commissioning and the deal, "
                         "on this machine's shared cores (the croupier's idle waits skipped)", deterministic=False),
    }


def recording(work):
    """An element loader (sabot.pico.Pico's) whose model notes each command it executes: (simulated µs, opcode, its
    time at the chip's clock in ms, the model's own table)."""
    from boards.sim.element import SimElement

    def load(path, clock):
        chip = SimElement.load(str(path), clock=clock)
        chip.on_command = lambda now, opcode, ms: work.append((now, opcode, ms))
        return chip

    return load


def in_card_path(work, events):
    """The element commands begun while the gate pin was high (open): a card's path."""
    opened, spans = None, []
    for e in events:
        if e["ev"] == "pin" and e["pin"] == GATE:
            if e["level"] == 1 and opened is None:
                opened = e["t_us"]
            elif e["level"] == 0 and opened is not None:
                spans.append((opened, e["t_us"]))
                opened = None
    return [w for w in work if any(a <= w[0] <= b for a, b in spans)]


def quick_coups(folder):
    """A Pico commissioned, a séance opened, QUICK_COUPS dealt: no_more_bets_to_gate's ms."""
    folder.mkdir()
    with Pico(folder / "shoe.flash", blank=True, development=True) as board:
        commission(board, folder)
        open_seance(board)
        scenario = folder / "quick-coups.txt"
        scenario.write_text(QUICK_COUPS)
        dealt = steps(scenario)
        quick = [s for i, s in enumerate(dealt) if not (s.get("wait_us") == OPENING_US and i and
                                                        dealt[i - 1].get("press") == PINS["no_more_bets"])]
        began = board.now_us()
        board.command("deal", timeout=3600, steps=quick, no_card_us=2_000_000)
        return no_more_bets_to_gate(list(board.events), began)


def no_more_bets_to_gate(events, since_us):
    """ms from each press of "no more bets" after since_us to the gate's next opening."""
    waits = []
    for press in (e for e in events if e["ev"] == "press" and e["pin"] == PINS["no_more_bets"]
                  and e["t_us"] >= since_us):
        opened = [e["t_us"] for e in events if e["ev"] == "pin" and e["pin"] == GATE and e["level"] == 1
                  and e["t_us"] > press["t_us"]]
        if opened:
            waits.append((opened[0] - press["t_us"]) / 1000)
    return waits
