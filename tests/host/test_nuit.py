"""`sabot nuit`, the casino's night in one command (issue 40), on four production virtual boards and an emulated
production Pico enrolled with their ports: one shoe dealt a forced card, one put in fault between two nights (a
config.json copied from another shoe, README's documented fault). Both are named first, every other shoe is
conforme, each verified against the previous night's receipt, and the two nights' receipts sit side by side."""

import datetime
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sabot import keys, nuit
from sabot.pico import Pico
from sabot.pico_vboard import factory
from sabot.production_link import restarted_production
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)
from tests.host.test_vboard import VirtualBoard

SABOT = str(Path(sys.executable).parent / "sabot")
FORCED = ("game chemin_de_fer\nseance table=5\nshoe seed=77\nno_more_bets\ndraw 6\nforce\nclear_alarm\n"
          "no_more_bets\ndraw 6\n")  # a card pulled past the locked gate: burned, the alarm cleared (S-FORCED)
BOARDS = (11, 12, 13, 14)  # the virtual boards' sabot numbers; 13 is dealt the forced card, 12 put in fault
FORCED_SHOE, FAULT_SHOE, PICO_SHOE = 13, 12, 15


def night(tmp_path, date):
    started = time.monotonic()
    done = subprocess.run([SABOT, "nuit", "journaux", "--registry", "shoes.json", "--db", "casino.duckdb",
                           "--casino", "deauville", "--casino-key", "casino.key", "--date", date, "--json"],
                          capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert "Traceback" not in done.stderr and done.stdout.startswith("{"), done.stdout + done.stderr
    return done, json.loads(done.stdout), time.monotonic() - started


def board(tmp_path, sabot, scenario=None):
    """A production virtual board numbered sabot, the casino's key in its folder, its port tmp_path/bN/fs.tty."""
    folder = tmp_path / ("b%d" % sabot)
    fs = folder / "fs"
    (fs / "keys").mkdir(parents=True, exist_ok=True)
    (fs / "keys" / "casino.key").write_text((tmp_path / "casino.key").read_text())
    (fs / "config.json").write_text(json.dumps({"board": "vboard", "sabot": sabot}))
    flags = ()
    if scenario:
        (folder / "scenario.txt").write_text(scenario)
        flags = ("--scenario", str(folder / "scenario.txt"))
    shoe = VirtualBoard(folder, *flags, production=True)
    restarted_production(shoe.port)  # it serves (its scenario dealt)
    return shoe, "b%d/fs.tty" % sabot  # as a technician in the casino's folder types it


def enrol(tmp_path, port, code=None):
    assert keys.enrol(port, str(tmp_path / "casino.key"), str(tmp_path / "shoes.json"), code=code) == 0


@pytest.mark.pico
@pytest.mark.req("H-VERIFY", "J-TAMPER", "S-FORCED", "S-IDENT", "F-INGEST", "P-PULL")
def test_the_night_names_the_shoe_in_fault_and_the_forced_card_first_and_keeps_both_nights_receipts(
        tmp_path, mpy_build, image, monkeypatch):  # noqa: F811
    (tmp_path / "casino.key").write_text(bytes(range(32, 64)).hex())
    monkeypatch.chdir(tmp_path)  # the registry's ports as key enrol writes them: relative to shoes.json
    boards, pico = {}, None
    try:
        for sabot in BOARDS:
            boards[sabot] = board(tmp_path, sabot, FORCED if sabot == FORCED_SHOE else None)
            enrol(tmp_path, boards[sabot][1])
        flash = tmp_path / "pico" / "shoe.flash"
        flash.parent.mkdir()
        code = factory(flash, {"config.json": json.dumps({"board": "rpi_pico", "sabot": PICO_SHOE, "table": 3,
                                                   "game": "chemin_de_fer", "reader": True})})
        pico = Pico(flash).start()  # the production image
        restarted_production(pico.port)
        (flash.parent / "shoe.flash.tty").symlink_to(pico.port)
        enrol(tmp_path, "pico/shoe.flash.tty", code)  # under the code on its label, the factory's
        registry = json.loads((tmp_path / "shoes.json").read_text())["shoes"]
        assert [(s["sabot"], s["port"]) for s in registry] == [(n, "b%d/fs.tty" % n) for n in BOARDS] + [
            (PICO_SHOE, "pico/shoe.flash.tty")]

        first, one, first_time = night(tmp_path, "2026-12-01")
        assert first.returncode == 1 and one["look"] == [FORCED_SHOE], first.stdout + first.stderr
        assert "[5/5] sabot %d : conforme" % PICO_SHOE in first.stderr  # a progress line a shoe

        shoe, _ = boards.pop(FAULT_SHOE)  # a config.json copied from another shoe: a fault at its next start
        shoe.close()
        (tmp_path / ("b%d" % FAULT_SHOE) / "fs" / "config.json").write_text(json.dumps({"board": "vboard",
                                                                                       "sabot": 11}))
        boards[FAULT_SHOE] = (VirtualBoard(tmp_path / ("b%d" % FAULT_SHOE), production=True), None)
        restarted_production(boards[FAULT_SHOE][0].port)
        second, two, second_time = night(tmp_path, "2026-12-02")
        said = subprocess.run([SABOT, "nuit", "journaux", "--registry", "shoes.json", "--db", "casino.duckdb",
                               "--casino", "deauville", "--date", "2026-12-02", "--quiet"],
                              capture_output=True, text=True, timeout=900, cwd=tmp_path)  # run again: in French
    finally:
        for shoe, _ in boards.values():
            shoe.close()
        if pico:
            pico.stop()
    assert second.returncode == 1, second.stdout + second.stderr
    assert two["look"] == [FAULT_SHOE, FORCED_SHOE], two  # the fault first, then the findings
    by = {shoe["sabot"]: shoe for shoe in two["shoes"]}
    assert by[FAULT_SHOE]["state"] == "défaut" and "sabot 11" in by[FAULT_SHOE]["said"][0]
    assert by[FAULT_SHOE]["journal"] is None  # nothing pulled from a shoe in fault
    assert by[FORCED_SHOE]["state"] == "constats" and {f["id"] for f in by[FORCED_SHOE]["findings"]} == {"S-FORCED"}
    for sabot in (11, 14, PICO_SHOE):
        shoe = by[sabot]
        assert shoe["state"] == "conforme" and shoe["ingested"], shoe
        assert shoe["previous_receipt"] == "journaux/sabot-%04d/2026-12-01/receipt.json" % sabot, shoe
        assert Path(tmp_path / shoe["report"]).read_text().count("CONFORME") >= 1
    # the receipts of two nights, side by side: each night's pull folder and the night's own copies
    journals = tmp_path / "journaux"
    for sabot in (11, 14, PICO_SHOE):
        assert [p.parent.name for p in sorted((journals / ("sabot-%04d" % sabot)).glob("*/receipt.json"))] == [
            "2026-12-01", "2026-12-02"]
    for date in ("2026-12-01", "2026-12-02"):
        kept = sorted(p.name.split("-")[1] for p in (journals / ("nuit-" + date) / "recus").glob("*.json"))
        assert kept == ["%04d" % n for n in (11, 12, 13, 14, 15) if date == "2026-12-01" or n != FAULT_SHOE], kept
    first_receipt = json.loads((journals / "sabot-0011" / "2026-12-01" / "receipt.json").read_text())
    assert json.loads((journals / "sabot-0011" / "2026-12-02" / "receipt.json").read_text())["nonce"] != \
        first_receipt["nonce"]  # each night's own receipt, yesterday's kept where it was pulled
    assert (journals / "nuit-2026-12-02" / "parc" / "deauville.html").is_file()
    text = said.stdout  # the second run takes what this night already pulled, and says it in French, verdict first
    assert said.returncode == 1 and said.stderr == "", said.stderr
    lines = text.splitlines()
    assert lines[0].startswith("Nuit du 2026-12-02, casino deauville : NON CONFORME : 2 sabot(s) à voir sur 5"), text
    look = text.split("À voir d'abord :")[1].split("Conformes :")[0]
    assert look.index("sabot %d" % FAULT_SHOE) < look.index("sabot %d" % FORCED_SHOE), text
    assert "EN DÉFAUT" in look and "S-FORCED" in look, text
    assert "Conformes : sabot 11, sabot 14, sabot 15" in text, text
    print("the first night %.0f s, the second %.0f s" % (first_time, second_time))


@pytest.mark.req("H-VERIFY")
def test_a_night_without_a_registry_or_with_a_bad_port_or_date_is_unusable_input_in_one_line(tmp_path):
    def run(*args):
        return subprocess.run([SABOT, "nuit", "journaux", "--casino", "deauville", *args], capture_output=True,
                              text=True, timeout=60, cwd=tmp_path)

    missing = run()
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "sabot key enrol" in missing.stderr
    (tmp_path / "shoes.json").write_text(json.dumps({"shoes": [{"sabot": 42, "public_key": "00" * 64}]}))
    for args, said in ((("--port", "42:/dev/ttyACM0"), "N=PATH"), (("--port", "7=/dev/ttyACM0"), "sabot 7 is not"),
                       (("--date", "01/12/2026"), "2026-12-01")):
        done = run(*args)
        assert done.returncode == 2 and said in done.stderr and done.stderr.count("\n") == 1, done.stderr
    (tmp_path / "journaux").write_text("")
    assert run().returncode == 2


@pytest.mark.req("H-VERIFY")
def test_a_shoe_with_no_port_or_that_does_not_answer_is_named_and_the_night_is_not_conforme(tmp_path):
    (tmp_path / "shoes.json").write_text(json.dumps({"shoes": [
        {"sabot": 42, "public_key": "00" * 64}, {"sabot": 43, "public_key": "01" * 64, "port": "nowhere.tty"}]}))
    done = subprocess.run([SABOT, "nuit", "journaux", "--casino", "deauville", "--date", "2026-12-01"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == ("Nuit du 2026-12-01, casino deauville : NON CONFORME : 2 sabot(s) à voir sur 2 (2 ne "
                        "répondent pas)"), done.stdout
    assert "sabot 42 (aucun port) : NE RÉPOND PAS" in done.stdout and "--port 42=CHEMIN" in done.stdout
    assert "sabot 43 (nowhere.tty) : NE RÉPOND PAS" in done.stdout
    assert json.loads((tmp_path / "journaux" / "nuit-2026-12-01" / "nuit.json").read_text())["look"] == [42, 43]
    at_four = datetime.datetime(2026, 12, 2, 4, 0, tzinfo=datetime.UTC)
    assert nuit.casino_day(at_four) == "2026-12-01"  # a pull at 04:00 UTC is the night before's
