"""`sabot fleet report` as a casino's director or the regulator sees it: a French page per casino rendered by a
real headless Chromium, with its findings, the results plot against the expected band, the sabot x table matrix
and the inventory. The screenshot stays in build/artifacts/fleet-report.png for a person to look at (F-REPORT)."""

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
    assert 'id="resultats"' in dom and "<polygon" in dom and "bande à 99,9 %" in dom
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


@covers("F-REPORT")
def test_the_report_never_overwrites_pages_without_force(pages):
    _, folder, db = pages
    run = sabot("report", "--db", db, "--out", folder)
    assert run.returncode == 2 and "--force" in run.stderr
    assert sabot("report", "--db", db, "--out", folder, "--force").returncode == 0
