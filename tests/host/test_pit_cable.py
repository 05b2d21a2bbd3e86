"""`sabot pit` reading a shoe through a cable that is not to be trusted (issue 39): answers garbled by noise are
dropped by their CRC and said (P-FRAME), the cable pulled out mid-coup and plugged in again; a journal read replayed
by a man in the middle (its CRC made good) fails verification, is said (J-TAMPER) and taken off the copy again;
either way the shoe is followed to its last record and the pit's copy is, byte for byte, what `sabot pull-log` pulls
afterwards."""

import json
import subprocess
import time
from pathlib import Path

import duckdb
import pytest

from firmware.format.commands import C_CHUNK
from tests.host.test_nuit import board, enrol
from tests.host.test_pit import SABOT, PitProcess, live_board

COUPS = 3
FAST_MS = "100"


def dealing(table, seed):
    return "game chemin_de_fer\nseance table=%d\nshoe seed=%d\n" % (table, seed) + "no_more_bets\ndraw 6\n" * COUPS


def through_cable(tmp_path, sabot, make_cable, table, seed):
    """An enrolled board dealing live, the registry's port for it the cable's: (shoe, its own port, the cable)."""
    shoe, port = board(tmp_path, sabot)
    enrol(tmp_path, port)
    shoe.close()
    registry = json.loads((tmp_path / "shoes.json").read_text())
    registry["shoes"][0]["port"] = "cable.tty"  # the pit reads the shoe through the cable
    (tmp_path / "shoes.json").write_text(json.dumps(registry))
    (tmp_path / "stranger").mkdir()
    shoe = live_board(tmp_path, sabot, dealing(table, seed), FAST_MS)
    return shoe, port, make_cable(shoe.port, tmp_path / "cable.tty")

class NoisyCable:
    """A cable between the shoe's port and the pit that garbles a byte of a few of the shoe's answers: a pty the pit
    opens (path), the shoe's port behind it."""

    def __init__(self, port, path, skip=12, every=9, most=3):
        import os
        import pty
        import threading
        import tty

        self.shoe = os.open(port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.shoe)
        self.master, slave = pty.openpty()
        tty.setraw(self.master)
        tty.setraw(slave)
        Path(path).symlink_to(os.ttyname(slave))
        self.slave = slave
        self.skip, self.every, self.most, self.garbled, self.running = skip, every, most, 0, True
        self.thread = threading.Thread(target=self._carry, daemon=True)
        self.thread.start()

    def _carry(self):
        import os
        import select

        chunks = 0
        while self.running:
            ready, _, _ = select.select([self.shoe, self.master], [], [], 0.1)
            for fd in ready:
                try:
                    data = bytearray(os.read(fd, 4096))
                except OSError:
                    continue
                if fd == self.shoe:
                    chunks += 1
                    os.write(self.master, self._from_shoe(data, chunks))
                else:
                    os.write(self.shoe, data)

    def _from_shoe(self, data, chunks):
        if chunks > self.skip and chunks % self.every == 0 and self.garbled < self.most and len(data) > 8:
            data[len(data) // 2] ^= 0x5A
            self.garbled += 1
        return bytes(data)

    def close(self):
        import os

        self.running = False
        self.thread.join(timeout=5)
        for fd in (self.shoe, self.master, self.slave):
            os.close(fd)


class ReplayingCable(NoisyCable):
    """A man in the middle: once, the shoe's answer to a journal read is replaced by its answer to the read before
    (a well-formed frame, its sequence number the one awaited, its CRC made good: a CRC is no signature)."""

    def __init__(self, port, path, at=8):
        from firmware import protocol as p

        self.out, self.chunk_answers, self.previous, self.at = [], 0, None, at
        self.framer = p.Framer(self._frame)
        super().__init__(port, path)

    def _frame(self, view):
        from firmware import protocol as p

        command, seq, payload = view[2], view[3] | view[4] << 8, bytes(view[p.HEADER:])
        if command == C_CHUNK | p.ANSWER:
            self.chunk_answers += 1
            replay = self.chunk_answers >= self.at and not self.garbled and self.previous not in (None, payload)
            genuine, payload = payload, (self.previous if replay else payload)
            self.garbled += replay
            self.previous = genuine
        self.out.append(p.frame(command, seq, payload))

    def _from_shoe(self, data, chunks):
        self.framer.feed(bytes(data), int(time.monotonic() * 1000) & 0x3FFFFFFF)
        out, self.out = b"".join(self.out), []
        return out


def followed_to_the_end(tmp_path, monkeypatch, sabot, make_cable, table, seed, seen, unplugged=False):
    """The shoe dealt live through the cable into a pit until seen(its table) and its coups are over; the pit
    stopped, the shoe pulled over its own port: (the pit's last state, its output), the copy checked against the pull
    byte for byte. unplugged: the cable pulled out once the second coup is open, the shoe dealing on, and plugged
    in again 2 s later."""
    (tmp_path / "casino.key").write_text(bytes(range(32, 64)).hex())
    monkeypatch.chdir(tmp_path)
    shoe, port, cable = through_cable(tmp_path, sabot, make_cable, table, seed)
    pit = PitProcess(tmp_path)
    try:
        if unplugged:
            pit.wait(lambda t: t[sabot]["coup"] and t[sabot]["coup"]["number"] >= 2)  # dealing on meanwhile
            cable.close()  # its port gone, as a USB cable pulled out
            (tmp_path / "cable.tty").unlink()
            time.sleep(2)  # the shoe deals on meanwhile
            cable = make_cable(shoe.port, tmp_path / "cable.tty")
        state = pit.wait(lambda t: seen(t[sabot]) and len(t[sabot]["road"]) == COUPS and not t[sabot]["coup"]["open"])
        out = pit.stop()
        pit = None
        cable.close()
        cable = None
        pulled = subprocess.run([SABOT, "pull-log", "--port", port, "pulled", "--quiet"], capture_output=True,
                                text=True, timeout=300)
        assert pulled.returncode == 0, pulled.stderr
    finally:
        if pit:
            pit.stop()
        if cable:
            cable.close()
        shoe.close()
    copy = tmp_path / "pit" / ("sabot-%04d" % sabot)  # the shoe followed to its last record, nothing else kept
    for name in sorted(p.name for p in copy.iterdir()):
        assert (copy / name).read_bytes() == (tmp_path / "pulled" / name).read_bytes(), name
    return state, out


@pytest.mark.req("P-FRAME", "F-INGEST", "P-PULL")
def test_garbled_answers_and_the_cable_pulled_mid_coup_lose_nothing_and_the_copy_stays_the_journal_byte_for_byte(
        tmp_path, mpy_build, monkeypatch):
    state, out = followed_to_the_end(tmp_path, monkeypatch, 24, NoisyCable, 8, 80, lambda t: t["bad_frames"],
                                     unplugged=True)
    assert [f["id"] for f in state["findings"] if f["sabot"] == 24] == ["P-FRAME"], state["findings"]
    assert "P-FRAME" in out and "trames abîmées" in out
    assert raised(tmp_path) == [(24, 8, None, "P-FRAME", "Article 58")]  # in the casino's database too, once


@pytest.mark.req("J-TAMPER", "F-INGEST", "P-PULL")
def test_a_journal_read_replayed_on_the_cable_is_a_finding_nothing_of_it_kept_and_the_shoe_followed_on(
        tmp_path, mpy_build, monkeypatch):
    state, out = followed_to_the_end(tmp_path, monkeypatch, 25, ReplayingCable, 9, 81, lambda t: t["findings"])
    said = [f["said"] for f in state["findings"]]
    assert [f["id"] for f in state["findings"] if f["sabot"] == 25] == ["J-TAMPER"], said
    assert "CONSTAT sabot 25, table 9 : J-TAMPER" in out, out
    assert raised(tmp_path) == [(25, 9, None, "J-TAMPER", "Article 58")]


def raised(tmp_path):
    """The findings the pit kept in the casino's database: (sabot, table, seq, id, article)."""
    with duckdb.connect(str(tmp_path / "casino.duckdb"), read_only=True) as con:
        return con.execute("SELECT sabot, table_no, seq, id, article FROM pit_findings ORDER BY raised").fetchall()
