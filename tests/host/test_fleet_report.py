"""`sabot fleet report` as a casino's director or the regulator sees it: a French page per casino rendered by a
real headless Chromium, with its findings, the results plot against the expected band, the sabot x table matrix
and the inventory. The screenshot stays in build/artifacts/fleet-report.png for a person to look at (F-REPORT)."""

import re
import shutil

import duckdb
import pytest

from tests.core.req import covers
from tests.host.fleet_common import fleet
from tests.host.test_fleet_ingest import sabot
from tests.host.test_report import ARTIFACTS, chromium, needs_chromium, png_size


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fleet-report")
    plan, db = fleet(tmp, 9, 30)
    run = sabot("report", "--db", db, "--out", tmp / "pages")
    assert run.returncode == 0, run.stderr
    return plan, tmp / "pages", db


@needs_chromium
@covers("F-REPORT")
def test_chromium_renders_a_casino_page_with_its_findings_results_band_matrix_and_inventory(pages, tmp_path):
    plan, folder, _ = pages
    casino, sabot_number, table = plan["planted"]["same_table"]
    page = folder / ("%s.html" % casino)
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert '<html lang="fr">' in dom and "Casino %s : contrôle des sabots" % casino in dom
    assert "sabot %d affecté à la table %d" % (sabot_number, table) in dom
    assert "sabot %d muet depuis" % plan["planted"]["missing"][1] in dom
    assert 'id="resultats"' in dom and "<polygon" in dom and "bande à 99,9\u202f%" in dom
    assert 'id="affectations"' in dom and "sabot %d, table %d : %d séance(s)" % (
        sabot_number, table, plan["days"]) in dom
    rows = dom.count("<tr") - 1
    assert rows == plan["casinos"][casino]["sabots"]  # the carnet: every sabot of the casino
    assert 'class="muet"' in dom
    screenshot = ARTIFACTS / "fleet-report.png"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    screenshot.unlink(missing_ok=True)
    chromium(tmp_path, "--screenshot=%s" % screenshot, "--window-size=1000,1600", "--hide-scrollbars", page.as_uri())
    assert png_size(screenshot) == (1000, 1600) and screenshot.stat().st_size > 20_000
    index = ARTIFACTS / "fleet-index.png"  # the casinos, those with findings flagged, for a person to look at
    index.unlink(missing_ok=True)
    assert '<tr class="alerte">' in chromium(tmp_path, "--dump-dom", (folder / "index.html").as_uri())
    chromium(tmp_path, "--screenshot=%s" % index, "--window-size=1000,600", "--hide-scrollbars",
             (folder / "index.html").as_uri())
    assert png_size(index) == (1000, 600)


@covers("F-REPORT")
def test_the_report_never_overwrites_pages_without_force(pages):
    _, folder, db = pages
    run = sabot("report", "--db", db, "--out", folder)
    assert run.returncode == 2 and "--force" in run.stderr
    assert sabot("report", "--db", db, "--out", folder, "--force").returncode == 0


@covers("F-REPORT")
def test_a_casino_page_leads_with_every_planted_anomaly_in_french_grouped_and_counted(pages):
    """Before the plots: each check's findings under its French title and count, then the journals' own findings
    grouped by requirement, in French, never the verifier's English lines one by one."""
    plan, folder, _ = pages
    planted = plan["planted"]
    later, earlier = planted["repeat_across"]
    expected = {planted["same_table"][0]: ["sabot %d affecté à la table %d" % tuple(planted["same_table"][1:]),
                                           "sabot %d muet depuis" % planted["missing"][1],
                                           "du sabot %d du casino %s :" % (later[1], later[0])],
                planted["biased"][0]: ["sabot %d : " % planted["biased"][1]],
                later[0]: ["du sabot %d du casino %s :" % (later[1], later[0])]}
    for casino, words in expected.items():
        html = (folder / ("%s.html" % casino)).read_text(encoding="utf-8")
        lead = html[:html.index("Gains de la banque")]
        for said in words:
            assert said in lead, (casino, said)
    first = (folder / ("%s.html" % planted["same_table"][0])).read_text(encoding="utf-8")
    assert '<span class="nombre">1</span> Sabot muet' in first
    assert "Numéro et affectation du sabot" in first and "assigned to table" not in first
    # The other casino's sabot is named with its casino: c001's page does not read it as one of its own.
    assert "taille %d (séance %d) du sabot %d du casino %s" % (later[2], later[2], later[1], later[0]) in first


@covers("F-REPORT")
def test_the_index_flags_each_casino_with_findings_and_their_count(pages):
    plan, folder, _ = pages
    html = (folder / "index.html").read_text(encoding="utf-8")
    assert "<style>" in html
    flagged = re.findall(r'<tr class="alerte"><td><a href="([^"]+)\.html">', html)
    assert set(flagged) >= {plan["planted"]["same_table"][0], plan["planted"]["biased"][0]}
    assert len(re.findall(r"<tr[ >]", html)) == len(plan["casinos"]) + 1
    assert '<span class="nombre">3</span>' in html  # the first casino's: same table, missing, repeated


@covers("F-REPORT")
def test_a_casino_name_never_writes_a_page_outside_the_output_folder(pages, tmp_path):
    """A database filled before names were checked at ingest: its casino's page stays inside --out."""
    _, _, db = pages
    copy = tmp_path / "old.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    for table in ("records", "segments", "journal_findings"):
        con.execute("UPDATE %s SET casino = '../../x' WHERE casino = 'c001'" % table)
    con.close()
    out = tmp_path / "a" / "b" / "pages"
    run = sabot("report", "--db", copy, "--out", out)
    assert run.returncode == 0, run.stderr
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.html"))
    assert all(p.parent == out.relative_to(tmp_path) for p in written), written
    assert (out / "..%2F..%2Fx.html").exists()
