"""The cagnotte's ledgers in the fleet (F-LEVY): each ledger checked against its sabot's ingested journal and kept
coup by coup in exact decimals; the planted under-levying croupier and the coup the bank won with no levy found by
the fleet's checks, nothing on clean ledgers; bad input one line and exit 2 with nothing written."""

import io
import json
from decimal import Decimal

import duckdb
import pytest

from sabot.fleet import checks, engines, ledger, report
from tests.core.req import covers
from tests.host.fleet_common import fleet, ingest_ledgers
from tests.host.test_fleet_ingest import sabot


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ledgers")
    plan, db = fleet(tmp, 11, 24)
    statuses = ingest_ledgers(tmp / "fleet-11", db)
    return plan, db, statuses, tmp / "fleet-11"


def _levy_findings(db, engine=None, **options):
    """F-LEVY's findings on the database db, or on engine (closed after)."""
    engine = engine or engines.DuckDB.database(db)
    try:
        return checks.levies(engine, options.get("ratio", checks.DEFAULTS["levy_ratio"]),
                             options.get("least", checks.DEFAULTS["levy_coups"]))
    finally:
        engine.close()


@covers("F-LEVY")
def test_each_planted_levy_anomaly_is_found_and_nothing_else(planted):
    plan, db, statuses, _ = planted
    under_casino, croupier = plan["planted"]["under_levy"]
    missing_casino, missing_sabot = plan["planted"]["no_levy"]
    # ingest-ledger says the ledgers' own findings: the croupier's coups (C-LEVY) and the missing levy
    assert statuses[(missing_casino, missing_sabot)] == 1
    assert any(status == 1 for (casino, _), status in statuses.items() if casino == under_casino)
    assert all(status == 0 for (casino, number), status in statuses.items()
               if casino not in (under_casino, missing_casino))
    found = _levy_findings(db)
    rates = [f for f in found if "quand le casino en prélève" in f["message"]]
    # the croupier, and any table where his coups pull its rate down with him: nobody else
    con = duckdb.connect(str(db), read_only=True)
    his = {"table %d" % t for (t,) in con.execute("SELECT DISTINCT table_no FROM levies WHERE casino = ? AND "
                                                   "employee = ?", [under_casino, croupier]).fetchall()}
    con.close()
    named = {f["message"].split(" : ")[0] for f in rates}
    assert {f["casino"] for f in rates} == {under_casino}
    assert "croupier %d" % croupier in named and named <= his | {"croupier %d" % croupier}
    missing = [f for f in found if "sans aucun prélèvement" in f["message"]]
    assert {f["casino"] for f in missing} == {missing_casino}
    assert sorted(f["message"].split(" ")[0] for f in missing) == ["croupier", "table"]
    assert all("1 coup(s)" in f["message"] for f in missing)
    assert all(f["id"] == "F-LEVY" and f["article"] == "Articles 59, 60" for f in found)


@covers("F-LEVY")
def test_clean_ledgers_raise_nothing(tmp_path):
    plan, db = fleet(tmp_path, 12, 24, anomalies=False)
    statuses = ingest_ledgers(tmp_path / "fleet-12", db)
    assert statuses and set(statuses.values()) == {0}
    assert _levy_findings(db) == []
    assert _levy_findings(db, least=1) == []


@covers("F-LEVY")
def test_money_is_kept_as_exact_decimals_with_the_table_and_the_croupier(planted):
    plan, db, _, root = planted
    casino = next(iter(plan["casinos"]))
    con = duckdb.connect(str(db), read_only=True)
    try:
        kinds = dict(con.execute("SELECT column_name, column_type FROM (DESCRIBE levies)").fetchall())
        levied = con.execute("SELECT SUM(levied), COUNT(*) FROM levies WHERE casino = ? AND sabot = 1",
                             [casino]).fetchone()
        employees = con.execute("SELECT COUNT(*) FROM levies l JOIN seances s ON s.casino = l.casino AND "
                                "s.sabot = l.sabot AND s.seance = l.seance WHERE s.employee <> l.employee").fetchone()
    finally:
        con.close()
    assert {kinds[c] for c in ("stake_1", "stake_2", "due", "levied", "tickets")} == {"DECIMAL(12,2)"}
    lines = (root / casino / "ledgers" / "sabot-0001.csv").read_text().splitlines()[1:]
    assert levied == (sum((Decimal(line.split(",")[5] or 0) for line in lines), Decimal(0)), len(lines))
    assert employees == (0,)


@covers("F-LEVY")
def test_a_ledger_ingested_again_replaces_its_earlier_one(planted, tmp_path):
    plan, db, _, root = planted
    casino = next(iter(plan["casinos"]))
    path = root / casino / "ledgers" / "sabot-0001.csv"
    copy = tmp_path / "again.duckdb"
    copy.write_bytes(db.read_bytes())
    con = duckdb.connect(str(copy), read_only=True)
    before = con.execute("SELECT COUNT(*) FROM levies").fetchone()
    con.close()
    run = sabot("ingest-ledger", path, "--db", copy, "--casino", casino, "--sabot", 1)
    assert run.returncode == 0, run.stderr
    assert "aucune constatation" in run.stdout
    con = duckdb.connect(str(copy), read_only=True)
    assert con.execute("SELECT COUNT(*) FROM levies").fetchone() == before
    con.close()


@covers("F-LEVY")
def test_a_wrong_levy_is_said_in_french_and_exits_1(planted, tmp_path):
    plan, db, _, root = planted
    casino = next(iter(plan["casinos"]))
    lines = (root / casino / "ledgers" / "sabot-0001.csv").read_text().splitlines()
    won = next(i for i, line in enumerate(lines[1:], 1) if line.split(",")[5])
    fields = lines[won].split(",")
    lines[won] = ",".join(fields[:5] + ["%s" % (Decimal(fields[5]) + Decimal(1)), fields[6]])
    path = tmp_path / "wrong.csv"
    path.write_text("\n".join(lines) + "\n")
    copy = tmp_path / "wrong.duckdb"
    copy.write_bytes(db.read_bytes())
    out = io.StringIO()
    assert ledger.ingest_ledger(str(path), str(copy), casino, 1, out, io.StringIO()) == 1
    assert "C-LEVY" in out.getvalue() and "prélevés où" in out.getvalue()


@covers("F-LEVY")
@pytest.mark.parametrize("case, said", [
    ("no journal", "has no journal of sabot 99"),
    ("bad csv", "is not a sum in euros"),
    ("bad casino", "casino name"),
    ("no database", "no such fleet database"),
])
def test_unusable_input_is_one_line_exit_2_and_nothing_written(planted, tmp_path, case, said):
    plan, db, _, root = planted
    casino = next(iter(plan["casinos"]))
    path = root / casino / "ledgers" / "sabot-0001.csv"
    copy = tmp_path / "db.duckdb"
    copy.write_bytes(db.read_bytes())
    number, name, target = 1, casino, copy
    if case == "no journal":
        number = 99
    elif case == "bad csv":
        path = tmp_path / "bad.csv"
        path.write_text("seance,taille,coup,stake_1,stake_2,levy,tickets\n1,1,1,-5,,,\n")
    elif case == "bad casino":
        name = "../x"
    else:
        target = tmp_path / "none.duckdb"
    before = copy.read_bytes()
    run = sabot("ingest-ledger", path, "--db", target, "--casino", name, "--sabot", number)
    assert run.returncode == 2 and said in run.stderr and len(run.stderr.splitlines()) == 1
    assert copy.read_bytes() == before and not (tmp_path / "none.duckdb").exists()


@covers("F-LEVY")
def test_the_casino_page_shows_the_levy_findings_in_french(planted, tmp_path):
    plan, db, _, _ = planted
    under_casino, croupier = plan["planted"]["under_levy"]
    engine = engines.DuckDB.database(db)
    try:
        report.write(engine, tmp_path / "pages")
    finally:
        engine.close()
    page = (tmp_path / "pages" / report.page_name(under_casino)).read_text(encoding="utf-8")
    assert 'id="F-LEVY"' in page and "Cagnotte" in page and "croupier %d" % croupier in page
    # the cagnotte's table: the croupier's row in red, his rate under the others'
    row = next(r for r in page.split('<table id="cagnotte">')[1].split("</table>")[0].split("<tr")
               if "<td>croupier %d</td>" % croupier in r)
    assert row.startswith(' class="alerte"') and "\u202f%" in row
    assert row.count("\u00a0€</td>") == 2  # its sums due and levied in euros, said so (issue 40, finding 12)


@covers("F-LEVY")
def test_an_export_made_before_the_ledgers_reads_as_no_levies(planted, tmp_path):
    _, db, _, _ = planted
    run = sabot("export", "--db", db, "--parquet", tmp_path / "pq")
    assert run.returncode == 0, run.stderr
    manifest = tmp_path / "pq" / engines.MANIFEST
    older = json.loads(manifest.read_text())
    del older["partitions"]["levies"]
    manifest.write_text(json.dumps(older))
    assert _levy_findings(None, engines.DuckDB.parquet(tmp_path / "pq")) == []


@covers("F-LEVY")
def test_fleet_check_takes_the_levy_rule_s_ratio_and_coups(planted):
    plan, db, _, _ = planted
    under_casino, croupier = plan["planted"]["under_levy"]

    def croupier_flagged(*options):
        run = sabot("check", "--db", db, "--json", *options)
        assert run.returncode == 1, run.stderr
        return any(f["id"] == "F-LEVY" and f["message"].startswith("croupier %d :" % croupier)
                   for f in json.loads(run.stdout)["findings"])

    assert croupier_flagged()
    assert not croupier_flagged("--levy-ratio", "0.5")
    assert not croupier_flagged("--levy-coups", "100000")
    bad = sabot("check", "--db", db, "--levy-ratio", "beaucoup")
    assert bad.returncode == 2 and "--levy-ratio" in bad.stderr
