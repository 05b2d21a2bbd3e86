"""A whole hardware board put in service (boards/mcu/service.py through boards/rpi_pico/board.py and
boards/esp32/board.py) on a fake machine module: it comes up, deals, stops with the gate locked, and its journal
verifies as the approver would check it."""

import importlib
import json
import os
import sys
import time

import pytest

from boards.sim.ramflash import RamFlash
from firmware import cards, remote
from firmware import records as rec
from firmware.devkey import DEVELOPMENT_KEY
from firmware.format import checkpoint as cp
from firmware.runtime import Runtime
from sabot.boards import hardware
from sabot.journalfile import CARD, CODE, DISPOSITION, TYPE, Reader, load_segments
from sabot.verify import check
from tests.host.fake_machine import Bench, Script

BOARDS = hardware()
HARD_IRQS = ("rpi_pico",)  # the RP2040's pin interrupts are hard; the other boards' scheduled
CONFIG = {"sabot": 42, "game": "chemin_de_fer", "table": 7, "reader": True, "stop_detector": True}


BOOT_MS = 200  # before its buttons are attached, a board reads its element's public key (GenKey: 115 ms at most)


def booted(actions):
    """A bench's actions, timed from the end of the board's start rather than its beginning."""
    return [(at + BOOT_MS, act) for at, act in actions]


def on_bench(board, ticks, monkeypatch):
    """A board's device module and pin map, and the bench its machine module is faked on (hard interrupts on the
    RP2040, scheduled on the ESP32)."""
    device = importlib.import_module("boards.%s.board" % board)
    pins = importlib.import_module("boards.%s.pins" % board)
    bench = Bench(ticks, hard_irqs=board in HARD_IRQS)
    bench.install(monkeypatch)
    return device, pins, bench


@pytest.mark.req("S-ONE", "S-LOCK", "S-FAILSAFE", "S-IDENT", "J-EVERY")
@pytest.mark.parametrize("board", BOARDS)
def test_a_board_comes_up_deals_a_read_card_and_stops_on_ctrl_c_with_the_gate_locked(board, ticks, shop, tmp_path,
                                                                                      monkeypatch):
    device, pins, bench = on_bench(board, ticks, monkeypatch)
    gate_seen = {}
    actions = (bench.press(pins.SEANCE, 50) + bench.press(pins.LOAD, 300)
               + bench.press(pins.NO_MORE_BETS, 500, bounce=(1, 0, 1, 0)) + bench.press(pins.DRAW, 700)
               + [(750, lambda: gate_seen.update(draw=bench.levels[pins.GATE])),
                  (850, lambda: bench.uart.incoming.extend(b"AS\r\n")),
                  (900, lambda: bench.set_level(pins.BEAM, 0)),
                  (900, lambda: gate_seen.update(beam=bench.levels[pins.GATE])),
                  (950, lambda: bench.set_level(pins.BEAM, 1))]
               + bench.press(pins.COUP_END, 1000))
    monkeypatch.setattr(time, "sleep_ms", Script(ticks, booted(actions), end=1500 + BOOT_MS).sleep_ms)
    with pytest.raises(KeyboardInterrupt):
        device.start(dict(CONFIG, board=board))
    assert gate_seen == {"draw": 1 - pins.GATE_LOCKED, "beam": pins.GATE_LOCKED}
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED

    attached = bench.log[bench.log.index(("irq", pins.BEAM)) - 1:]  # interrupts last, once all else is built
    assert attached[::2] == [("pin", number) for kind, number in attached[1::2]]
    assert {kind for kind, number in attached[1::2]} == {"irq"} and len(attached) == 2 * 8
    assert len(bench.watchdogs) == 1 and bench.watchdogs[0].timeout == 5000 and bench.watchdogs[0].fed > 100

    _, reader, findings = check([tmp_path / "journal"], shop)
    assert not [f for f in findings if f.id == "J-TAMPER"]
    records = list(Reader(load_segments([tmp_path / "journal"]), shop))
    kinds = [r.fields[TYPE] for r in records]
    assert kinds[:6] == [rec.R_BOOT, rec.R_SEANCE, rec.R_LOAD, rec.R_NO_MORE_BETS,
                         rec.R_RELEASE, rec.R_CARD]
    assert rec.R_COUP_END in kinds[6:]
    seance, card = records[1], records[5]
    assert seance.fields[CODE] == 7
    assert (card.fields[CARD], card.fields[DISPOSITION]) == (cards.parse("AS"), rec.DEALT)
    boot_ms = 218188800000 + 250
    assert boot_ms <= records[0].time_ms <= boot_ms + 1000 and records[-1].time_ms - records[0].time_ms < 2000


@pytest.mark.req("S-FAILSAFE")
@pytest.mark.parametrize("board", BOARDS)
def test_the_maintenance_jumper_keeps_the_controller_stopped_and_the_gate_locked(board, ticks, shop, tmp_path,
                                                                                 monkeypatch):
    device, pins, bench = on_bench(board, ticks, monkeypatch)
    bench.levels[pins.MAINTENANCE] = pins.PRESSED
    device.start(dict(CONFIG, board=board))
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED
    assert not bench.handlers and not bench.watchdogs and not (tmp_path / "journal").exists()


@pytest.mark.req("S-FAILSAFE", "J-EVERY")
def test_a_board_whose_rtc_lost_its_time_does_not_start(ticks, shop, tmp_path, monkeypatch):
    device, pins, bench = on_bench("rpi_pico", ticks, monkeypatch)
    bench.osf = 0x80
    with pytest.raises(RuntimeError, match="RTC lost its time"):
        device.start(dict(CONFIG, board="rpi_pico"))
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED
    assert not bench.handlers and not (tmp_path / "journal").exists()


@pytest.mark.req("J-DURABLE", "J-EVERY")
@pytest.mark.parametrize("board", BOARDS)
def test_a_board_with_the_ring_partition_journals_through_it(board, ticks, shop, tmp_path, monkeypatch):
    device, pins, bench = on_bench(board, ticks, monkeypatch)
    bench.ring = RamFlash(128)
    statvfs = os.statvfs
    # The Pico's littlefs made on the first 896 KB of its storage only, leaving the ring's place free.
    monkeypatch.setattr(os, "statvfs", lambda path: (4096, 4096, 224) + tuple(statvfs(path))[3:]
                        if path == "/" else statvfs(path))
    actions = (bench.press(pins.SEANCE, 50) + bench.press(pins.LOAD, 300) + bench.press(pins.NO_MORE_BETS, 500)
               + bench.press(pins.DRAW, 700) + [(900, lambda: bench.set_level(pins.BEAM, 0)),
                                                (950, lambda: bench.set_level(pins.BEAM, 1))]
               + bench.press(pins.COUP_END, 1000))
    monkeypatch.setattr(time, "sleep_ms", Script(ticks, booted(actions), end=1500 + BOOT_MS).sleep_ms)
    with pytest.raises(KeyboardInterrupt):
        device.start(dict(CONFIG, board=board))
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED
    assert bench.ring.programs > 6  # every record went through the ring first
    _, _, findings = check([tmp_path / "journal"], shop)
    assert not [f for f in findings if f.id == "J-TAMPER"]
    kinds = [r.fields[TYPE] for r in Reader(load_segments([tmp_path / "journal"]), shop)]
    assert kinds[:6] == [rec.R_BOOT, rec.R_SEANCE, rec.R_LOAD, rec.R_NO_MORE_BETS, rec.R_RELEASE, rec.R_CARD]
    assert rec.R_COUP_END in kinds
    segments = load_segments([tmp_path / "journal"])
    assert bench.ring.programs == len(kinds) + len(segments)  # one page program a record, and one a segment header


@pytest.mark.req("S-STOP")
def test_a_board_that_can_see_no_stop_card_does_not_start(ticks, shop, tmp_path, monkeypatch):
    device, pins, bench = on_bench("rpi_pico", ticks, monkeypatch)
    with pytest.raises(ValueError, match="stop card"):
        device.start(dict(CONFIG, board="rpi_pico", reader=False, stop_detector=False))
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED
    assert not bench.handlers and not (tmp_path / "journal").exists()


@pytest.mark.req("J-TAMPER", "S-FAILSAFE")
def test_a_board_whose_element_does_not_answer_has_no_key_of_its_own_and_starts_locked_saying_so(ticks, shop, tmp_path,
                                                                                                  monkeypatch):
    """No key file signs a journal (docs/keys.md): a board without its element answering names no key of its own;
    it starts locked, with the development key's fault beside the rollback fault, and no supervisor's key clears
    the former."""
    device, pins, bench = on_bench("rpi_pico", ticks, monkeypatch)
    bench.element = None
    actions = (bench.press(pins.SEANCE, 50) + bench.press(pins.LOAD, 300) + bench.press(pins.CLEAR, 400)
               + bench.press(pins.NO_MORE_BETS, 500) + bench.press(pins.DRAW, 700)
               + [(750, lambda: gate_seen.append(bench.levels[pins.GATE]))])
    gate_seen = []
    monkeypatch.setattr(time, "sleep_ms", Script(ticks, booted(actions), end=1000 + BOOT_MS).sleep_ms)
    with pytest.raises(KeyboardInterrupt):
        device.start(dict(CONFIG, board="rpi_pico"))
    assert gate_seen == [pins.GATE_LOCKED]
    records = list(Reader(load_segments([tmp_path / "journal"]), DEVELOPMENT_KEY))
    alarms = [r.fields[CODE] for r in records if r.fields[TYPE] == rec.R_ALARM]
    assert alarms == [rec.FAULT_ROLLBACK, rec.FAULT_DEVKEY]
    assert rec.R_NO_MORE_BETS not in [r.fields[TYPE] for r in records]
    assert [r.fields[CODE] for r in records if r.fields[TYPE] == rec.R_CLEAR] == [rec.FAULT_ROLLBACK]  # not the other


@pytest.mark.req("J-TAMPER", "K-COUNTER", "S-FAILSAFE")
@pytest.mark.parametrize("board", BOARDS)
def test_a_board_writes_signed_checkpoints_and_one_whose_element_does_not_answer_starts_in_rollback_fault(
        board, ticks, shop, tmp_path, monkeypatch):
    """The element on the DS3231's bus counts a checkpoint at each power-up; a board whose element does not answer
    cannot tell whether its journal was cut, and starts locked in the rollback fault (docs/keys.md)."""
    device, pins, bench = on_bench(board, ticks, monkeypatch)
    for chip in (bench.element, None):
        bench.element = chip
        monkeypatch.setattr(time, "sleep_ms", Script(ticks, [], end=1000).sleep_ms)
        with pytest.raises(KeyboardInterrupt):
            device.start(dict(CONFIG, board=board))
        if chip is not None:
            assert chip._counters[0] == 1 and (tmp_path / "journal" / "checkpoints.sbc").stat().st_size == cp.SIZE
    records = list(Reader(load_segments([tmp_path / "journal"]), DEVELOPMENT_KEY))
    alarms = [r.fields[CODE] for r in records if r.fields[TYPE] == rec.R_ALARM]
    assert alarms == [rec.FAULT_ROLLBACK, rec.FAULT_DEVKEY]  # the second power-up's, without its element


@pytest.mark.req("S-FAILSAFE", "J-EVENTS")
@pytest.mark.parametrize("board", BOARDS)
def test_a_ctrl_c_sent_during_the_boot_lands_in_the_serving_loop_the_journal_recovered(board, ticks, shop, tmp_path,
                                                                                       monkeypatch, capsys):
    """mpremote right after a restart (sabot number set's, clock set's) sends Ctrl-C while the shoe recovers its
    journal (issue 22): the boot finishes, then the loop is interrupted, so remote.py's commands find the
    controller; mpremote's Ctrl-A is left for the REPL."""
    device, pins, bench = on_bench(board, ticks, monkeypatch)
    monkeypatch.setattr(Runtime, "current", None)
    booting = Runtime.boot
    monkeypatch.setattr(Runtime, "boot", lambda runtime: (bench.type(b"\r\x03"), booting(runtime),
                                                          bench.type(b"\r\x01")))
    monkeypatch.setattr(time, "sleep_ms", Script(ticks, [], end=1000).sleep_ms)
    with pytest.raises(KeyboardInterrupt):
        device.start(dict(CONFIG, board=board))
    assert bench.levels[pins.GATE] == pins.GATE_LOCKED and bench.interrupt_char == 3
    remote.state()  # what sabot number set asks next: the controller answers, its boot record written
    assert json.loads(capsys.readouterr().out)["sabot"] == 42
    assert [r.fields[TYPE] for r in Reader(load_segments([tmp_path / "journal"]), shop)] == [rec.R_BOOT]
    assert sys.stdin.buffer.read(2) == b"\r\x01"
