"""A loop no request can starve (issue 38): eleven firmware challenges in one write, then a megabyte of valid
requests, sent to a production virtual board while it deals: each pass answers one expensive request at most and a
few cheap ones, the rest busy, counted by burst; no restart, every card journalled, the journal verified clean."""

import os
import threading
import time

import pytest

from firmware import protocol as p
from firmware.devkey import DEVELOPMENT_KEY
from firmware.format import commands as c
from firmware.record_names import R_BURST
from firmware.records import BOOT_POWER, R_BOOT
from sabot.journalfile import CODE, TYPE, Reader, load_segments
from sabot.production_link import production, restarted_production
from sabot.protocol import SerialLink
from sabot.verify import check
from tests.conftest import SCENARIOS
from tests.host.test_production import casino_board
from tests.host.test_vboard import sabot

FLOOD = 1 << 20


def eleven_challenges():
    """Eleven firmware challenges, each a new seed, in one 495-byte write (45 bytes a frame)."""
    return b"".join(p.frame(c.C_FIRMWARE, n, os.urandom(32) + b"\0\0") for n in range(11))


def flood_bytes(size=FLOOD):
    """size bytes of well-framed requests, expensive and cheap mixed: challenges, receipts, chunks, status."""
    frames = (p.frame(c.C_FIRMWARE, 1, bytes(32) + b"\0\0"), p.frame(c.C_RECEIPT, 2, bytes(16)),
              p.frame(c.C_CHUNK, 3, bytes(4) + bytes(4) + b"\xfc\x01"), p.frame(c.C_STATUS, 4))
    block = b"".join(frames)
    return (block * (size // len(block) + 1))[:size]


def send(port, data, piece=4096):
    """data written to the port as a cable would, what it says back read all along by another thread (a pty's
    buffers are small: a writer that stopped reading would block the shoe's answers, then its own writes); the
    bytes said."""
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


@pytest.mark.req("S-FAILSAFE", "P-FUZZ", "J-EVERY")
def test_eleven_challenges_and_a_megabyte_flood_while_dealing_neither_restart_nor_stop_a_production_board(
        mpy_build, tmp_path):
    board, _ = casino_board(tmp_path, "--scenario", str(SCENARIOS / "full_shoe_chemin_de_fer.txt"))
    try:
        said = {}
        flood = threading.Thread(target=lambda: said.update(
            eleven=send(board.port, eleven_challenges()), flood=send(board.port, flood_bytes())))
        flood.start()  # from the boot on: the scenario being dealt
        flood.join(timeout=900)
        assert not flood.is_alive()
        status = restarted_production(board.port)
        client = production(board.port)
        client.link.close()
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "pulled", "--quiet")
        assert pulled.returncode == 0, pulled.stderr
    finally:
        board.close()
    assert said["eleven"] + said["flood"] > 0  # answered (the eleven maybe once the scenario is dealt)
    assert status["busy"] > 0 and status["bursts"] >= 1 and status["alarms"] == 0 and not status["broken"], status
    _, reader, findings = check([tmp_path / "pulled"], DEVELOPMENT_KEY)
    assert findings == [] and reader.records > 700  # the whole shoe dealt, every card journalled
    boots = (tmp_path / "fs.log").read_text() if (tmp_path / "fs.log").exists() else ""
    assert "Traceback" not in boots
    records = list(Reader(load_segments([tmp_path / "pulled"]), None))
    assert [r.fields[CODE] for r in records if r.fields[TYPE] == R_BOOT] == [BOOT_POWER]  # never restarted
    # Each burst journalled between coups, the bursts since power-up in the record: a record a minute at most, so the
    # flood's many bursts are fewer records, their counts going up to the status's.
    said = [r.fields[CODE] for r in records if r.fields[TYPE] == R_BURST]
    assert said and said == sorted(set(said)) and said[-1] <= status["bursts"], (said, status)
    shown = sabot("log", "show", tmp_path / "pulled", "--lang", "fr")
    assert shown.returncode == 0 and "rafale n° %d depuis la mise sous tension" % said[0] in shown.stdout
