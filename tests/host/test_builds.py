"""Which build wrote a journal (H-FIRMWARE, issue 37's first part, issue 40's finding 2): format 5's headers name
the firmware in 32 bytes, every board's name whole; a production Pico's image says it is the production image, the
development image says it is a development build, and a boot under the development image after the approved one is a
finding `sabot log verify` and the report name, in French. Format 4's journals (tests/fixtures/journal-v4) verify
as they did before format 5."""

import io
import json
from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import identity, startup
from firmware.storage import FileStorage
from firmware.version import IMAGE, VERSION, development_identity
from sabot.boards import names as board_names
from sabot.journalfile import load_segments
from sabot.report.cli import report
from sabot.verify import verify
from tests.host.test_report import text_of

V4 = Path(__file__).resolve().parents[1] / "fixtures" / "journal-v4"
COUP = "shoe seed=5\nno_more_bets\ndraw 4\ncoup_end\n"


def said(folder, lang="fr", **options):
    out = io.StringIO()
    code = verify([str(folder)], None, lang == "json", out=out, allow_development_key=True,
                  lang="en" if lang == "json" else lang, **options)
    return code, out.getvalue()


@pytest.mark.req("H-FIRMWARE", "H-VERIFY")
@pytest.mark.parametrize("name,options", [("incidents", {}),
                                          ("element", {"public_key": V4 / "element" / "element.pub"})])
def test_format_4_journals_verify_as_they_did_before_format_5(name, options):
    folder = V4 / name / "journal" if name == "element" else V4 / name
    for lang, kept in (("json", "verify.json"), ("fr", "verify-fr.txt")):
        code, text = said(folder, lang, **options)
        assert code == 1 and text == (V4 / name / kept).read_text(), (name, lang)


@pytest.mark.req("H-FIRMWARE")
def test_every_boards_name_is_whole_in_a_format_5_header_for_both_kinds_of_build(tmp_path):
    for board in board_names() + ["vboard"]:
        for kind in (IMAGE, "dev"):
            name = development_identity(board, kind)
            shoe = SimBoard(FileStorage(str(tmp_path / (board + "-" + kind))))
            shoe.firmware = name
            run(parse("seance table=1\nshoe seed=1\n"), shoe)
            shoe.close()
            header = load_segments([tmp_path / (board + "-" + kind)])[-1]
            assert header.version == 5 and header.firmware.rstrip(b"\0").decode() == "sabot %s %s %s" % (
                VERSION, board, kind)
    assert development_identity("rpi_pico", IMAGE) != development_identity("rpi_pico")  # format 4: both "rpi_"


@pytest.mark.req("H-FIRMWARE")
def test_a_production_pico_names_its_image_and_a_development_pico_its_build(monkeypatch):
    monkeypatch.setattr(identity, "REGION", (0x10000000, 4096))  # boards/rpi_pico/board.py's production()
    assert startup.check_firmware("rpi_pico") == (development_identity("rpi_pico", IMAGE), None)
    monkeypatch.setattr(identity, "REGION", None)
    monkeypatch.setattr(identity, "IMAGE", "/nonexistent")  # no manifest: the development image
    assert startup.check_firmware("rpi_pico") == (development_identity("rpi_pico"), None)


def pico_journal(tmp_path, builds):
    """A Pico's journal, each step of builds (firmware kind, scenario) booted under that build over the same flash:
    the firmware starts a new segment whenever its name differs from the last header's."""
    folder = tmp_path / "journal"
    for kind, text in builds:
        shoe = SimBoard(FileStorage(str(folder)))
        shoe.firmware = development_identity("rpi_pico", kind)
        run(parse(text), shoe)
        shoe.power_cut()
    return folder


@pytest.mark.req("H-FIRMWARE", "H-VERIFY", "H-EXPORT")
def test_a_production_pico_journal_is_never_called_a_development_build(tmp_path):
    folder = pico_journal(tmp_path, [(IMAGE, "seance table=3\n" + COUP), (IMAGE, COUP)])
    code, text = said(folder)
    assert "image de production de la carte « rpi_pico »" in text and "développement (carte" not in text, text
    assert "H-FIRMWARE" not in text
    page = tmp_path / "report.html"
    report([folder], page, allow_development_key=True)
    page_text = text_of(page)
    assert "image de production de la carte « rpi_pico »" in page_text and "version de développement" not in page_text


@pytest.mark.req("H-FIRMWARE", "H-VERIFY", "H-EXPORT")
def test_the_development_image_loaded_over_the_production_one_is_named_by_verify_and_the_report(tmp_path):
    folder = pico_journal(tmp_path, [(IMAGE, "seance table=3\n" + COUP), ("dev", COUP), (IMAGE, COUP)])
    segments = load_segments([folder])
    kinds = [s.firmware.rstrip(b"\0").split(b" ")[-1] for s in segments]
    assert kinds.count(b"dev") == 1 and kinds[-1] == b"image"  # a boot under another build: a segment of its own
    dev = segments[kinds.index(b"dev")]
    code, text = said(folder, "json")
    found = [f for f in json.loads(text)["findings"] if f["id"] == "H-FIRMWARE"]
    assert code == 1 and len(found) == 1 and found[0]["seq"] == dev.seq_before + 1
    assert found[0]["message"].startswith("%s written by a development build (sabot %s rpi_pico dev) after the "
                                          "approved image" % (dev.path.name, VERSION))
    _, text = said(folder)
    assert ("%s écrit(s) par une version de développement (sabot %s rpi_pico dev) après l'image approuvée"
            % (dev.path.name, VERSION)) in text
    assert "segments %d à %d" % (dev.number, dev.number) in text.splitlines()[0]  # each build, its segments
    page = tmp_path / "report.html"
    report([folder], page, allow_development_key=True)
    assert "écrit(s) par une version de développement" in text_of(page)


@pytest.mark.req("H-FIRMWARE")
def test_a_factorys_development_boots_before_the_production_image_are_no_finding(tmp_path):
    folder = pico_journal(tmp_path, [("dev", "seance table=3\nshoe seed=2\n"), (IMAGE, COUP)])
    _, text = said(folder)
    assert "H-FIRMWARE" not in text and "(segments 1 à 2); " in text.splitlines()[0], text
