"""The shoe's image on the emulated Raspberry Pi Pico (tools/pico/, docs/pico-emulator.md): a Pico commissioned,
a séance opened, coups dealt through its pins and reader; the gate's fall after each card's beam edge and the
cycles the core ran per card, in simulated time (rp2040js counts Cortex-M0+ cycles at 125 MHz, without flash wait
states), and the heap free once the controller runs. Skipped without `make image BOARD=rpi_pico`."""

import statistics
import subprocess
import sys
from pathlib import Path

from bench.report import figure, skipped
from sabot.pico import IMAGE_DIR, Pico, commission, play
from sabot.shoe_link import mpremote

BEAM_AFTER_OPEN_US = 8000  # tools/pico/pico.mjs: a card breaks the beam 8 ms after the gate opens
SHOE = "game chemin_de_fer\nshoe seed=4\nburn 1\n" + "no_more_bets\ndraw 6\n" * 3
NAMES = ("pico.gate_close_us.median", "pico.gate_close_us.max", "pico.cycles_per_card", "pico.heap_free_after_boot")


def measure(ctx):
    if not (IMAGE_DIR / "firmware.bin").exists():
        return {name: skipped("no Pico image: make image BOARD=rpi_pico") for name in NAMES}
    folder = ctx.scratch("pico")
    scenario = folder / "shoe.txt"
    scenario.write_text(SHOE)
    with Pico(folder / "shoe.flash", blank=True) as board:
        commission(board, folder)
        said = mpremote(board.port, "exec", "--no-follow", "import gc\ngc.collect()\nprint(gc.mem_free())\n"
                        "from firmware.remote import resume\nresume()")
        heap = int(said.strip().splitlines()[0]) if said.strip() else None
        opened = subprocess.run([str(Path(sys.executable).parent / "sabot"), "seance", "open", "--port", board.port,
                                 "--table", "3", "--by", "1"], capture_output=True, text=True)
        if opened.returncode:
            return {name: skipped("sabot seance open failed: %s" % opened.stderr.strip()) for name in NAMES}
        play(board, scenario)
        events = list(board.events)
    cards = [e for e in events if e["ev"] == "card"]
    closings = []
    for card in cards:
        broken = card["opened_us"] + BEAM_AFTER_OPEN_US
        closings.append(next(e["t_us"] for e in events if e["ev"] == "pin" and e["pin"] == 16 and not e["level"]
                             and e["t_us"] >= broken) - broken)
    how = "%d cards of 3 coups dealt through the pins on the emulated Pico (rp2040js 1.4.1), simulated" % len(cards)
    out = {
        NAMES[0]: figure(round(statistics.median(closings), 1), "us",
                         "beam edge to the gate pin's fall, median of " + how),
        NAMES[1]: figure(round(max(closings), 1), "us", "beam edge to the gate pin's fall, worst of " + how),
        NAMES[2]: figure(round((cards[-1]["cycles"] - cards[0]["cycles"]) / (len(cards) - 1)), "cycles/card",
                         "core cycles executed (not asleep) from one card's slide to the next's, the croupier's "
                         "presses and the main loop's idle passes included; " + how),
    }
    out[NAMES[3]] = (figure(heap, "bytes", "gc.mem_free() after gc.collect() with the controller booted (stopped "
                            "by mpremote, resumed after)") if heap else skipped("no answer from the Pico"))
    return out
