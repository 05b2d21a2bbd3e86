"""`sabot log export` for other programs and `sabot log show` for people (H-EXPORT)."""

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SCENARIOS
from tests.host.forge import restarted

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def incidents(tmp_path_factory):
    folder = tmp_path_factory.mktemp("j") / "incidents"
    assert sabot("sim", SCENARIOS / "incidents.txt", "--log", folder).returncode == 0
    return folder


@pytest.mark.req("H-EXPORT", "J-EVERY")
def test_export_gives_one_row_per_record_with_the_card_fields(incidents):
    lines = sabot("log", "export", incidents).stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1))
    cards = [r for r in rows if r["event"] == "card"]
    assert len(cards) == 24 and all(r["time"].endswith("Z") and r["time"].startswith("2026-11-30T") for r in rows)
    first = cards[2]
    assert {k: first[k] for k in ("seance", "taille", "coup", "position", "card", "hand", "disposition",
                                  "condition")} == {"seance": 1, "taille": 1, "coup": 1, "position": 3,
                                                    "card": "AC", "hand": "ponte", "disposition": "dealt",
                                                    "condition": "normal"}
    assert {(r["disposition"], r["condition"]) for r in cards} == {
        ("dealt", "normal"), ("burned", "normal"), ("burned", "forced"), ("burned", "double_feed")}
    results = [r["detail"] for r in rows if r["event"] == "result"]
    assert results[0] == "ponte 1, banque 8; winner: banque; bank: gagnant"  # Article 62's words for the bank
    table = list(csv.DictReader(io.StringIO(sabot("log", "export", incidents, "--format", "csv").stdout)))
    assert len(table) == len(rows) and table[4]["card"] == rows[4]["card"] == "TH"
    assert table[0]["card"] == "" and rows[0]["card"] is None  # CSV's null is an empty cell


@pytest.mark.req("H-EXPORT")
def test_show_reads_coup_by_coup(incidents):
    text = sabot("log", "show", incidents, "--lang", "en").stdout
    assert "Taille 1, séance 1, 2026-11-30 08:00:01 UTC: chemin de fer" in text
    assert "Séance 1 opened 2026-11-30 08:00:00 UTC: table 5, chemin de fer, assigned by employee 0" in text
    assert "coup 1    ponte: AC QC | banque: AS 7C  ->  ponte 1, banque 8; winner: banque; bank: gagnant" in text
    assert "burned    AH(forced)" in text and "ALARM: forced extraction" in text


@pytest.mark.req("H-EXPORT", "J-EVENTS")
def test_show_and_export_tell_a_restart_from_a_power_cut(tmp_path):
    journal = restarted(tmp_path / "j")
    french = [line for line in sabot("log", "show", journal).stdout.splitlines() if "mise sous tension" in line]
    assert [line.split("mise sous tension", 1)[1] for line in french] == [
        "", " : coupure de courant, puis remise sous tension", " : redémarrage, sans coupure de courant"]
    english = [line for line in sabot("log", "show", journal, "--lang", "en").stdout.splitlines() if "boot" in line]
    assert [line.split("boot", 1)[1] for line in english] == [
        "", ": power cut, then power back", ": restart, no power cut"]
    boots = [json.loads(line) for line in sabot("log", "export", journal).stdout.splitlines()]
    assert [r["detail"] for r in boots if r["event"] == "boot"] == [None, "power cut, then power back",
                                                                     "restart, no power cut"]


@pytest.mark.req("H-EXPORT")
def test_every_code_a_record_carries_has_words_in_english_and_french():
    """A code added to firmware/records.py or firmware/events.py without its words would read "code N" in `log
    show`, the report, the sim's timeline and the web page; the journal's codes have an identifier too, for the
    export's columns and the trace."""
    from firmware import events, record_names, records
    from firmware.format import words

    prefixes = {"R_": words.RECORDS, "ALARM_": words.ALARMS, "FAULT_": words.ALARMS, "F_": words.FINDINGS,
                "END_": words.ENDS, "REL_": words.RELEASES, "WIN_": words.WINNERS, "EV_": words.EVENTS,
                "CMD_": words.COMMANDS, "IND_": words.INDICATORS, "REF_": words.REFUSALS, "BOOT_": words.BOOTS}
    codes = {id(table): set() for table in prefixes.values()}
    named_apart = [("R_BURST", record_names.R_BURST)]  # a record the sim board never writes, named with the readers
    for name, value in list(vars(records).items()) + list(vars(events).items()) + named_apart:
        for prefix, table in prefixes.items():
            if name.startswith(prefix) and name not in ("REL_NONE", "ALARM_MAX"):
                codes[id(table)].add(value)
    for table in prefixes.values():
        assert set(table) == codes[id(table)]  # every code has words, and no words stand for no code
    assert set(words.DISPOSITIONS) == {records.DEALT, records.BURNED, records.STOP_CARD}
    assert set(words.CONDITIONS) == {records.NORMAL, records.FORCED, records.DOUBLE_FEED}
    for table in (*prefixes.values(), words.DISPOSITIONS, words.CONDITIONS):
        for code, entry in table.items():
            english, french = entry[:2]
            assert english and french and words.said(table, code, words.FR) == french, (code, english)
            assert table is words.REFUSALS or entry[words.ID].isidentifier(), entry
    assert words.said(words.ALARMS, 99) == "code 99"


@pytest.mark.req("H-EXPORT", "J-TAMPER")
def test_show_and_export_of_a_record_forged_with_its_crc_recomputed_warn_and_exit_1(incidents, tmp_path, capsys):
    """Any body, its CRC made right again: the HMAC gives it away. show and export then say on stderr, in one line,
    that the journal is broken, and end 1; they never raise on the values they print."""
    import shutil
    import struct
    from zlib import crc32

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from firmware import layout as fmt
    from sabot.logview import export, show

    segment = max(incidents.glob("*.sbj"), key=lambda p: p.stat().st_size)
    frames = (segment.stat().st_size - fmt.HEADER_SIZE) // fmt.FRAME_SIZE

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.integers(0, frames - 1), st.integers(0, fmt.BODY_SIZE - 1), st.integers(0, 255))
    def forged(frame, at, value):
        copy = tmp_path / "forged"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(incidents, copy)
        path = copy / segment.name
        data = bytearray(path.read_bytes())
        start = fmt.HEADER_SIZE + frame * fmt.FRAME_SIZE
        if data[start + fmt.BODY_AT + at] == value:
            value ^= 0xFF
        data[start + fmt.BODY_AT + at] = value
        struct.pack_into("<I", data, start + fmt.CRC_AT, crc32(bytes(data[start:start + fmt.CRC_AT])))
        path.write_bytes(bytes(data))
        for run in (lambda out: show([copy], None, out), lambda out: show([copy], None, out, lang="fr"),
                    lambda out: export([copy], "csv", None, out), lambda out: export([copy], "jsonl", None, out)):
            capsys.readouterr()
            assert run(io.StringIO()) == 1
            warning = capsys.readouterr().err.splitlines()
            assert len(warning) == 1 and "integrity is BROKEN" in warning[0]

    forged()


@pytest.mark.req("C-ANNOUNCE", "T-DT")
def test_the_banks_result_is_said_gagnant_perdant_or_egalite_by_tableau(tmp_path):
    from firmware.format import words
    from firmware.records import WIN_BANQUE, WIN_EGALITE, WIN_PONTE, pack_result

    code = pack_result((8, 6, 8), WIN_EGALITE, WIN_BANQUE)
    assert words.result(code, 3, words.FR).endswith(" ; banque : tableau1 égalité, tableau2 gagnant")
    assert words.result(code, 3, words.EN).endswith("; bank: tableau1 égalité, tableau2 gagnant")
    assert words.result(pack_result((9, 7, 0), WIN_PONTE, 0), 2, words.FR).endswith(" ; banque : perdant")
