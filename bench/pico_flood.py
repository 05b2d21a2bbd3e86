"""A flood on the emulated Pico's production image (issue 38): a Pico from the factory's bench, a séance opened on
its panel, coups dealt through its pins and reader while its USB cable sends eleven firmware challenges in one write
(each the whole 640 KB program region), then a mebibyte of well-framed requests; the longest pass of its loop, in
the chip's simulated time (its status's longest_pass), its boots, the cards dealt. Shared by
tests/host/test_pico_flood.py. Skipped without `make image BOARD=rpi_pico`."""

import threading
import time

from bench.report import figure, skipped
from firmware import protocol as p

COUPS = 8
FLOOD = 1 << 20
NAMES = ("pico.flood.longest_pass_ms", "pico.flood.watchdog_resets")


def eleven_challenges():
    """Eleven firmware challenges, each a new seed, in one 495-byte write (45 bytes a frame)."""
    import os

    return b"".join(p.frame(p.C_FIRMWARE, n, os.urandom(32) + b"\0\0") for n in range(11))


def flood_bytes(size=FLOOD):
    """size bytes of well-framed requests, expensive and cheap mixed: a challenge, receipts, chunks, status."""
    block = b"".join((p.frame(p.C_FIRMWARE, 1, bytes(32) + b"\0\0"), p.frame(p.C_RECEIPT, 2, bytes(16)),
                      p.frame(p.C_CHUNK, 3, bytes(8) + b"\xfc\x01"), p.frame(p.C_STATUS, 4)))
    return (block * (size // len(block) + 1))[:size]


def send(port, data, piece=4096):
    """data written to the port as a cable would, what it says back read all along by another thread (a pty's
    buffers are small: a writer that stopped reading would block the shoe's answers, then its own writes); the
    bytes said."""
    from sabot.protocol import SerialLink

    link = SerialLink(port)
    said = [0]
    writing = threading.Event()

    def drain():
        while writing.is_set():
            said[0] += len(link.read())

    writing.set()
    reader = threading.Thread(target=drain)
    reader.start()
    try:
        for at in range(0, len(data), piece):
            link.port.write(data[at:at + piece])
        time.sleep(1)
    finally:
        writing.clear()
        reader.join()
        link.close()
    return said[0]


def flooded(folder, size=FLOOD):
    """The Pico flooded while it deals: its status after, its boots, the deal's reply, the cards seen."""
    from sabot.pico import Pico, steps
    from sabot.pico_vboard import factory
    from sabot.production_link import production, restarted_production

    flash = folder / "shoe.flash"
    factory(flash)
    board = Pico(flash).start()
    try:
        restarted_production(board.port)
        scenario = folder / "deal.txt"
        scenario.write_text("seance table=1\ngame chemin_de_fer\nshoe seed=2026\nburn 1\n"
                            + "no_more_bets\ndraw 6\n" * COUPS)
        reply = {}
        deal = threading.Thread(target=lambda: reply.update(board.command("deal", timeout=1800,
                                                                         steps=steps(scenario))))
        deal.start()
        board.wait(lambda: any(e["ev"] == "card" for e in list(board.events)), 600)
        said = send(board.port, eleven_challenges()) + send(board.port, flood_bytes(size))
        flooding_ended = sum(1 for e in list(board.events) if e["ev"] == "card")
        deal.join()
        client = production(board.port, timeout=5)
        status = client.status()
        client.link.close()
        boots = board.boots()
        cards = sum(1 for e in list(board.events) if e["ev"] == "card")
    finally:
        board.stop()
    return {"status": status, "boots": boots, "reply": reply, "cards": cards, "said": said,
            "cards_before_flood_end": flooding_ended}


def measure(ctx):
    from sabot.pico import IMAGE_DIR

    if not (IMAGE_DIR / "firmware.bin").exists():
        return {name: skipped("no Pico image: make image BOARD=rpi_pico") for name in NAMES}
    got = flooded(ctx.scratch("pico_flood"))
    how = ("the production image on the emulated Pico dealing %d coups while its USB takes 11 firmware challenges "
           "in one write then %d bytes of requests; its status's longest_pass, simulated ms" % (COUPS, FLOOD))
    resets = sum(1 for b in got["boots"] if b["cause"] == "watchdog")
    return {NAMES[0]: figure(got["status"]["longest_pass"], "ms", how),
            NAMES[1]: figure(resets, "resets", how)}
