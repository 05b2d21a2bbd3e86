"""`sabot report` and `sabot fleet ingest` check the secure element's signatures (its checkpoints, its version 2
receipt) with the shoe's public key alone, as `sabot log verify` does (H-VERIFY, H-EXPORT, F-INGEST, J-TAMPER,
K-ELEMENT): the report says near its verdict whether they were checked and with which key, and a checkpoint signed
by another P-256 key makes it non conforming with verify's finding; ingest with the casino's registry refuses such
a journal with that finding, and says a shoe the registry does not hold. The journals are the sim board's with an
element (the model, in this process), pulled as `sabot pull-log` leaves them; no VM, no Chromium."""

import io
import json
import re
import shutil
import struct
from hashlib import sha256

import duckdb
import pytest

from boards.sim import p256
from boards.sim.board import SimBoard
from boards.sim.element import DEVELOPMENT_SEED, journal_key
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.format import checkpoint as cp
from firmware.storage import FileStorage
from sabot.fleet import ingest
from sabot.report.cli import report
from sabot.verify import verify
from tests.host.test_checkpoints_verify import entries, sealed
from tests.host.test_receipts_element import DEALT, pulled
from tests.host.test_report import text_of, verdict_of
from tests.host.test_rollback import with_element

SABOT = 1  # the sim board's number
CHEAT = p256.scalar(sha256(b"the cheat's own element").digest())


@pytest.fixture(scope="module")
def shoe(tmp_path_factory):
    """(a pulled journal folder with its checkpoints and element-signed receipt, the element's public key file,
    the casino's registry holding sabot 1 under that key)."""
    tmp = tmp_path_factory.mktemp("element")
    board = SimBoard(FileStorage(str(tmp / "journal")))
    with_element(board, tmp)
    run(parse(DEALT), board)
    folder = pulled(board, tmp / "pulled")
    public = journal_key(DEVELOPMENT_SEED).hex()
    key = tmp / "element.pub"
    key.write_text(public + "\n")
    return folder, key, registry(tmp / "shoes.json", {SABOT: public})


def registry(path, shoes):
    path.write_text(json.dumps({"shoes": [{"sabot": n, "public_key": k, "casino_key": "00",
                                           "enrolled": "2026-12-01T08:00:00"} for n, k in shoes.items()]}))
    return path


def forged(folder, tmp_path):
    """The journal with its last checkpoint signed again by a key the cheat holds (another P-256 key)."""
    copy = tmp_path / "forged"
    shutil.copytree(folder, copy)
    points = entries(copy)
    points[-1] = sealed(points[-1], CHEAT)
    (copy / cp.FILE).write_bytes(b"".join(points))
    return copy, (len(points), struct.unpack_from(cp.ENTRY, points[-1])[3])  # its index and its counter


def reported(folder, tmp_path, **options):
    page = tmp_path / "rapport.html"
    assert report([folder], page, force=True, allow_development_key=True, out=io.StringIO(), **options) == 0
    return verdict_of(page), text_of(page)


def verify_ok(folder, **options):
    return verify([str(folder)], None, False, out=io.StringIO(), allow_development_key=True, **options) == 0


@pytest.mark.req("H-EXPORT", "H-VERIFY", "K-ELEMENT")
def test_the_report_says_near_its_verdict_the_element_signatures_checked_with_the_key_file_or_the_registry(
        shoe, tmp_path):
    folder, key, shoes = shoe
    verdict, text = reported(folder, tmp_path, public_key=str(key))
    first = text.split("Établissement")[0]  # the verdict's box, before the first page's table
    assert verdict == "CONFORME" and verify_ok(folder, public_key=str(key))
    assert "vérifiées avec la clé publique du fichier %s" % key in first, first
    assert "Points de contrôle : " in first and "signés par l'élément sécurisé du sabot (compteur 1 à" in first
    verdict, text = reported(folder, tmp_path, registry=str(shoes))
    first = text.split("Établissement")[0]
    assert verdict == "CONFORME"
    assert "clé publique que le registre du casino %s donne pour le sabot n° %d" % (shoes, SABOT) in first, first
    verdict, text = reported(folder, tmp_path)
    first = text.split("Établissement")[0]
    assert "NON vérifiées, aucune clé publique donnée" in first and "vérifiées avec" not in first, first


@pytest.mark.req("H-EXPORT", "K-ELEMENT")
def test_the_report_of_a_format_4_journal_names_the_elements_key_never_a_key_file_nor_hmac_tags(shoe, tmp_path):
    """Issue 40, finding 4: `sabot report` as the README writes it, on a journal chained and signed by the element."""
    from sabot.cli import main

    folder, _, shoes = shoe
    page = tmp_path / "rapport.html"
    assert main(["report", str(folder), "--registry", str(shoes), "--establishment", "Casino de Deauville", "-o",
                 str(page), "--allow-development-key", "--quiet"]) == 0
    text = text_of(page)
    assert "Clé du journal clé de l'élément sécurisé du sabot" in text, text
    assert "None" not in text and "clé fournie" not in text and "HMAC" not in text
    assert "trames, CRC, chaîne SHA-256, numéros de séquence et ordre du temps vérifiés" in text
    assert "--bundle" not in text and "--" not in text.split("Constats du vérificateur")[0].split("Établissement")[1]


@pytest.mark.req("H-EXPORT", "H-VERIFY", "J-TAMPER", "K-ELEMENT")
def test_a_checkpoint_signed_by_another_key_makes_the_report_non_conforming_with_verifys_finding(shoe, tmp_path):
    folder, key, shoes = shoe
    copy, last = forged(folder, tmp_path)
    for options in ({"public_key": str(key)}, {"registry": str(shoes)}):
        verdict, text = reported(copy, tmp_path, **options)
        assert verdict == "NON CONFORME" and not verify_ok(copy, **options)
        assert "n'est pas signé par l'élément sécurisé du sabot" in text.split("Établissement", 1)[1], text[-3000:]
        assert "le point de contrôle %d (compteur %d) n'est pas signé" % last in text
    verdict, text = reported(copy, tmp_path)  # without the public key nothing can tell: the report says so
    assert "NON vérifiées" in text and "n'est pas signé par l'élément" not in text


def ingested(folders, db, shoes):
    out, err = io.StringIO(), io.StringIO()
    code = ingest.ingest([str(f) for f in folders], str(db), "Deauville", out=out, err=err, registry=str(shoes))
    con = duckdb.connect(str(db), read_only=True)
    try:
        records = con.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    finally:
        con.close()
    return code, records, out.getvalue(), err.getvalue()


@pytest.mark.req("F-INGEST", "J-TAMPER", "K-ELEMENT")
def test_fleet_ingest_checks_the_element_with_the_registrys_key_and_says_a_shoe_not_enrolled(shoe, tmp_path):
    folder, key, shoes = shoe
    code, records, out, err = ingested([folder], tmp_path / "honest.duckdb", shoes)
    assert code == 0 and records > 0 and err == "", err
    copy, last = forged(folder, tmp_path)
    code, records, out, err = ingested([copy], tmp_path / "forged.duckdb", shoes)
    assert code == 1 and records == 0
    assert "refused" in err and "checkpoint %d (counter %d) is not signed by the shoe's element" % last in err
    other = p256.public_key(p256.scalar(sha256(b"another shoe").digest())).hex()
    elsewhere = registry(tmp_path / "others.json", {SABOT + 1: other})
    code, records, out, err = ingested([folder], tmp_path / "unknown.duckdb", elsewhere)
    assert code == 1 and records == 0
    assert "sabot %d is not enrolled there" % SABOT in err and "Traceback" not in err, err


@pytest.mark.req("C-LEDGER", "K-ELEMENT", "S-IDENT")
def test_the_carnet_says_whether_the_elements_signatures_were_checked_its_time_zone_its_visas_and_who_assigned(
        shoe, tmp_path):
    """Issue 40, finding 12: `sabot cagnotte carnet ... --registry shoes.json` as docs/cagnotte.md writes it."""
    import subprocess

    from sabot.cli import main
    from tests.host.test_cagnotte import SABOT as CLI

    folder, _, shoes = shoe
    rows = [json.loads(line) for line in subprocess.run([CLI, "log", "export", str(folder)], capture_output=True,
                                                        text=True).stdout.splitlines()]
    ledger = tmp_path / "cagnotte.csv"
    ledger.write_text("seance,taille,coup,stake_1,stake_2,levy,tickets\n" + "".join(
        "%d,%d,%d,100,,,\n" % (r["seance"], r["taille"], r["coup"]) for r in rows if r["event"] == "result"))
    pages = {}
    for name, more in (("checked", ["--registry", str(shoes)]), ("unchecked", [])):
        page = tmp_path / ("%s.html" % name)
        assert main(["cagnotte", "carnet", str(folder), "--ledger", str(ledger), "-o", str(page),
                     "--allow-development-key", *more]) in (0, 1)
        pages[name] = text_of(page)
    checked, unchecked = pages["checked"], pages["unchecked"]
    assert ("Signatures de l'élément sécurisé du sabot (points de contrôle, reçu) : vérifiées avec la clé publique "
            "que le registre %s donne pour le sabot n° 1 : conformes" % shoes) in checked, checked
    assert "NON vérifiées, aucun registre donné (--registry shoes.json)" in unchecked
    assert re.search(r"établi le \d\d/\d\d/\d{4} à \d\d:\d\d \(heure de Paris, UTC\+0[12]:00\)", checked), checked
    visas = checked[checked.index("Visas"):]
    assert "Nom Date Signature" in visas and "service des courses et jeux" in visas
    assert "par un employé non indiqué (n° 0)" in checked and "l'employé n° 0" not in checked
