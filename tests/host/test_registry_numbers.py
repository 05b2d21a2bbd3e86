"""Two shoes never carry one number in the casino's registry (issue 40, finding 5; K-REGISTRY): `number set` refuses
a number the registry holds under another element unless --replace, which the registry records; `key export` never
gives the ministry two rows for one number; verify, report and fleet ingest with --registry name such a sabot."""

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from boards.sim import p256
from sabot.journalfile import load_segments
from tests.host.test_keys import _signed_and_pulled
from tests.host.test_vboard import VirtualBoard

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args, cwd=None):
    done = subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def _commissioned(folder, casino, registry, number, *flags):
    """A new production virtual board (an element of its own), enrolled under the casino's key, then `number set`."""
    folder.mkdir()
    board = VirtualBoard(folder, production=True)
    try:
        enrolled = sabot("key", "enrol", "--port", board.port, "--casino-key", casino, "--registry", registry,
                         "--code", board.code())
        assert enrolled.returncode == 0, enrolled.stderr
        public = json.loads(registry.read_text())["shoes"]
        return sabot("number", "set", "--port", board.port, number, "--casino-key", casino, "--registry", registry,
                     *flags), public
    finally:
        board.close()


@pytest.mark.req("K-REGISTRY", "P-ENROL", "S-IDENT")
def test_a_second_shoe_is_refused_the_number_the_registry_gives_another_element_unless_it_replaces_it(
        tmp_path, mpy_build):
    casino = tmp_path / "casino.key"
    assert sabot("key", "new", casino).returncode == 0
    registry = tmp_path / "shoes.json"
    first, _ = _commissioned(tmp_path / "a", casino, registry, 42)
    assert first.returncode == 0, first.stderr
    held = json.loads(registry.read_text())
    second, _ = _commissioned(tmp_path / "b", casino, registry, 42)
    assert second.returncode == 2 and len(second.stderr.splitlines()) == 1, second.stderr
    assert second.stderr.startswith("sabot number set: erreur : le registre %s tient déjà le sabot 42 sous un autre "
                                    "élément" % registry), second.stderr
    shoes = json.loads(registry.read_text())["shoes"]
    assert [s["sabot"] for s in shoes].count(42) == 1 and len(shoes) == 2  # the second still sabot 1 there
    rows = list(csv.DictReader(io.StringIO(sabot("key", "export", "--registry", registry).stdout)))
    assert sorted(r["sabot"] for r in rows) == ["1", "42"]
    replaced = tmp_path / "c"
    again, _ = _commissioned(replaced, casino, registry, 42, "--replace")
    assert again.returncode == 0, again.stderr
    after = json.loads(registry.read_text())
    forty_two = [s for s in after["shoes"] if s["sabot"] == 42]
    assert len(forty_two) == 1 and forty_two[0]["public_key"] != held["shoes"][0]["public_key"]
    assert [(r["sabot"], r["public_key"]) for r in after["replaced"]] == [(42, held["shoes"][0]["public_key"])]
    assert after["replaced"][0]["by"] == forty_two[0]["public_key"]


def _registry(path, sabot, *publics):
    path.write_text(json.dumps({"shoes": [{"sabot": sabot, "public_key": public, "casino_key": None,
                                           "enrolled": "2026-12-01T00:00:00+00:00"} for public in publics]}))
    return path


@pytest.mark.req("K-REGISTRY", "H-VERIFY", "F-INGEST")
def test_a_registry_with_two_elements_for_one_sabot_is_a_finding_of_verify_report_and_ingest_and_never_exported(
        tmp_path):
    """Issue 38: a public key appended for sabot 42 (as an element replacement looks) made a forged journal verify
    clean; now the sabot's two keys are named, by every reader of the registry."""
    public = _signed_and_pulled(tmp_path, "seance table=1\nshoe seed=1\nno_more_bets\ndraw 4\ncoup_end")
    folder = tmp_path / "pulled"
    number = load_segments([folder])[0].sabot
    own = public.read_text().strip()
    stranger = p256.public_key(p256.scalar(bytes(31) + b"\x07")).hex()
    clean = _registry(tmp_path / "clean.json", number, own)
    doubled = _registry(tmp_path / "doubled.json", number, own, stranger)
    assert sabot("log", "verify", folder, "--registry", clean).returncode == 0
    said = sabot("log", "verify", folder, "--registry", doubled)
    assert said.returncode == 1 and "K-REGISTRY" in said.stdout, said.stdout
    assert "tient le sabot n° %d sous 2 éléments" % number in said.stdout, said.stdout
    as_json = json.loads(sabot("log", "verify", folder, "--registry", doubled, "--json").stdout)
    assert [f["id"] for f in as_json["findings"]] == ["K-REGISTRY"] and not as_json["ok"]
    report = tmp_path / "rapport.html"
    assert sabot("report", folder, "--registry", doubled, "-o", report).returncode == 0
    assert "K-REGISTRY" in report.read_text() and "NON CONFORME" in report.read_text().upper()
    ingested = sabot("fleet", "ingest", folder, "--db", tmp_path / "casino.duckdb", "--casino", "deauville",
                     "--registry", doubled)
    assert ingested.returncode == 1 and "K-REGISTRY" in ingested.stdout + ingested.stderr, ingested
    exported = sabot("key", "export", "--registry", doubled)
    assert exported.returncode == 2 and exported.stdout == "" and len(exported.stderr.splitlines()) == 1
    assert "plusieurs éléments" in exported.stderr
