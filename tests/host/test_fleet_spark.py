"""The checks on Apache Spark (local mode, one session for the module, a small fleet with its cagnotte ledgers): the
same SQL as DuckDB, on the same Parquet files, gives the same findings, planted anomalies included (F-SPARK,
F-LEVY)."""

import pytest

from sabot.fleet import checks, engines, export
from tests.core.req import covers
from tests.host.fleet_common import OUVERTE_CLEAN, OUVERTE_TWO_TABLES, fleet, ouverte_casino
from tests.host.test_fleet_ingest import sabot


@pytest.fixture(scope="module")
def parquet(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("spark")
    plan, db = fleet(tmp, 7, 24, ledgers=True)
    export.export(db, tmp / "parquet")
    return plan, tmp / "parquet"


@pytest.fixture(scope="module")
def session():
    spark = engines.local_session()
    spark.sparkContext.setLogLevel("ERROR")
    yield spark
    spark.stop()


@covers("F-SPARK", "F-LEVY")
def test_duckdb_and_spark_give_the_same_findings_on_the_same_parquet_files(parquet, session):
    plan, folder = parquet
    duck = engines.DuckDB.parquet(folder)
    on_duckdb = checks.run(duck)
    duck.close()
    on_spark = checks.run(engines.Spark.parquet(folder, session))
    assert on_spark == on_duckdb
    assert {f["id"] for f in on_spark} >= {"F-ASSIGN", "F-INVENTORY", "F-RESULTS", "F-REPEAT", "F-LEVY"}
    biased = plan["planted"]["biased"]
    assert any(f["id"] == "F-RESULTS" and f["where"][0]["sabot"] == biased[1] for f in on_spark)
    under = plan["planted"]["under_levy"]
    assert any(f["id"] == "F-LEVY" and f["casino"] == under[0] and f["message"].startswith("croupier %d :" % under[1])
               for f in on_spark)


@covers("F-SPARK")
def test_spark_reads_parquet_only():
    run = sabot("check", "--db", "fleet.duckdb", "--engine", "spark")
    assert run.returncode == 2 and "--engine spark reads Parquet" in run.stderr


@covers("F-SPARK", "F-OUVERTE")
def test_spark_finds_banque_ouverte_at_two_tables_in_one_casino_day_as_duckdb_does(tmp_path, session):
    db = tmp_path / "ouverte.duckdb"
    ouverte_casino(tmp_path, db, "propre", OUVERTE_CLEAN)
    ouverte_casino(tmp_path, db, "double", OUVERTE_TWO_TABLES)
    export.export(db, tmp_path / "parquet")
    duck = engines.DuckDB.parquet(tmp_path / "parquet")
    on_duckdb = checks.run(duck)
    duck.close()
    on_spark = checks.run(engines.Spark.parquet(tmp_path / "parquet", session))
    assert on_spark == on_duckdb
    found = [f for f in on_spark if f["id"] == "F-OUVERTE"]
    assert [(f["casino"], [w["sabot"] for w in f["where"]]) for f in found] == [("double", [1, 2])]
    assert "journée du 2026-01-28" in found[0]["message"]
