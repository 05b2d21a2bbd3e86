"""The checks across shoes on a synthetic fleet: every planted anomaly found where it was planted; on clean fleets
of over 1,000 sabots the exact checks raise nothing and the results tests stay within their stated fleet-wide
false-alarm rate (F-ASSIGN, F-INVENTORY, F-RESULTS, F-REPEAT, F-DEAL)."""

import os
import re

import pytest

from sabot.fleet import checks, engines, report, stats
from tests.core.req import covers
from tests.host.fleet_common import OUVERTE_CLEAN, OUVERTE_TWO_TABLES, fleet, ouverte_casino

# make test: one clean fleet of 1,000 sabots (over a minute); make test-long: three (SABOT_FLEET_SEEDS=3)
CLEAN_SEEDS = (11, 12, 13)[:int(os.environ.get("SABOT_FLEET_SEEDS", "1"))]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    plan, db = fleet(tmp_path_factory.mktemp("planted"), 5, 60)
    engine = engines.DuckDB.database(db)
    yield plan, checks.run(engine), engine
    engine.close()


def where(finding):
    return [(w["casino"], w["sabot"], w["seance"]) for w in finding["where"]]


@covers("F-ASSIGN")
def test_a_sabot_always_at_the_same_table_is_found(planted):
    plan, found, _ = planted
    casino, sabot, table = plan["planted"]["same_table"]
    assigned = [f for f in found if f["id"] == "F-ASSIGN"]
    assert [(f["casino"], f["where"][0]["sabot"]) for f in assigned] == [(casino, sabot)]
    assert "table %d lors de %d séances consécutives" % (table, plan["days"]) in assigned[0]["message"]
    assert assigned[0]["article"] == "Article 58"


@covers("F-INVENTORY")
def test_a_sabot_that_stops_reporting_is_found_and_the_inventory_lists_every_sabot(planted):
    plan, found, engine = planted
    casino, sabot = plan["planted"]["missing"]
    silent = [f for f in found if f["id"] == "F-INVENTORY"]
    assert [(f["casino"], f["where"][0]["sabot"]) for f in silent] == [(casino, sabot)]
    assert "muet depuis" in silent[0]["message"]
    shoes = checks.inventory(engine)
    expected = {(c, s) for c, row in plan["casinos"].items() for s in range(1, row["sabots"] + 1)}
    assert set(shoes) == expected
    assert shoes[(casino, sabot)]["seances"] == 1
    same = plan["planted"]["same_table"]
    assert shoes[(same[0], same[1])]["tables"] == {same[2]: plan["days"]}


@covers("F-RESULTS")
def test_a_stacked_shoe_is_found_by_its_results(planted):
    plan, found, _ = planted
    casino, sabot = plan["planted"]["biased"]
    by_sabot = [f for f in found if f["id"] == "F-RESULTS" and f["where"][0]["sabot"] is not None]
    assert {(f["casino"], f["where"][0]["sabot"]) for f in by_sabot} == {(casino, sabot)}
    assert any("la banque gagnante" in f["message"] for f in by_sabot)
    # The tables it dealt at may be flagged too, never a table of another casino.
    assert {f["casino"] for f in found if f["id"] == "F-RESULTS"} == {casino}


@covers("F-REPEAT")
def test_a_shoe_dealt_in_the_order_of_an_earlier_one_is_found_across_casinos_and_within_a_sabot(planted):
    plan, found, _ = planted
    repeats = sorted((w[0], w[1]) for f in found if f["id"] == "F-REPEAT" for w in [where(f)])
    expected = sorted(tuple(tuple(x[:2]) for x in pair) for pair in (
        plan["planted"]["repeat_across"], plan["planted"]["repeat_same"]))
    assert sorted((a[:2], b[:2]) for a, b in repeats) == [(tuple(a), tuple(b)) for a, b in expected]
    for f in found:
        if f["id"] == "F-REPEAT":
            assert "dans l'ordre de la taille 1" in f["message"]


@covers("F-RESULTS", "F-INVENTORY")
def test_numbers_in_the_findings_are_written_the_french_way(planted):
    """A decimal comma, powers of ten written out, never a decimal point."""
    _, found, _ = planted
    assert found and not [f["message"] for f in found if re.search(r"\d\.\d|e-\d", f["message"])]
    silent = [f["message"] for f in found if f["id"] == "F-INVENTORY"]
    assert re.search(r"depuis \d+,\d jours", silent[0])
    results = [f["message"] for f in found if f["id"] == "F-RESULTS"]
    assert all("fausse alerte de 0,1\u202f% sur la flotte" in m and "\u00a0×\u00a010" in m for m in results)


@covers("F-DEAL")
def test_coups_out_of_their_cards_and_tailles_burned_out_of_line_are_found(planted):
    """A coup given a seventh card and a taille with twelve burns, written into a copy of the records."""
    _, found, engine = planted
    assert not [f for f in found if f["id"] == "F-DEAL"]
    con = engine.con
    casino, sabot, taille, coup = con.execute(
        "SELECT casino, sabot, taille, coup FROM cards WHERE coup > 0 ORDER BY casino, sabot, taille, coup "
        "LIMIT 1").fetchone()
    con.execute("BEGIN")

    def copy(taille, coup, disposition, count, offset):
        """count dealt cards of a coup (from the first of the taille when coup is None) again, as disposition."""
        con.execute("INSERT INTO records SELECT casino, sabot, segment, seq + ?, type, time_ms, month, seance, taille, "
                    "coup, position, card, ?, condition, code FROM records WHERE casino = ? AND sabot = ? AND "
                    "taille = ? AND coup %s AND type = 5 AND disposition = 0 ORDER BY seq LIMIT ?" % (
                        ">= 1" if coup is None else "= %d" % coup), [offset, disposition, casino, sabot, taille, count])

    copy(taille, coup, 0, 3, 100_000)  # its 4 to 6 cards become 7 to 9
    for offset in (200_000, 300_000, 400_000):
        copy(taille + 1, None, 1, 4, offset)  # twelve more burns
    found = checks.run(engine)
    con.execute("ROLLBACK")
    deal = [f["message"] for f in found if f["id"] == "F-DEAL"]
    assert any("taille %d " % taille in m and "hors des 4 à 6 cartes" in m for m in deal), deal
    assert any("taille %d " % (taille + 1) in m and "cartes brûlées, plus de 10" in m for m in deal), deal


@covers("F-ASSIGN", "F-INVENTORY", "F-REPEAT", "F-RESULTS", "F-DEAL")
def test_clean_fleets_of_a_thousand_sabots_raise_nothing_exact_and_stay_within_the_false_alarm_rate(tmp_path):
    """A seed (make test-long: three) of a clean fleet of at least 1,000 sabots: the exact checks find nothing; the
    results tests, at a fleet-wide false-alarm rate of 0.1 %, are expected to raise a finding on one fleet in a
    thousand."""
    alarms = {}
    for seed in CLEAN_SEEDS:
        plan, db = fleet(tmp_path, seed, 1000, anomalies=False)
        assert sum(c["sabots"] for c in plan["casinos"].values()) >= 1000
        engine = engines.DuckDB.database(db)
        found = checks.run(engine)
        engine.close()
        assert [f for f in found if f["id"] != "F-RESULTS"] == []
        alarms[seed] = len(found)
    assert stats.FALSE_ALARM == 0.001
    print("false alarms on clean fleets of 1,000 sabots, by seed: %s" % alarms)
    assert sum(alarms.values()) == 0, alarms


@covers("F-OUVERTE")
def test_banque_ouverte_at_two_tables_of_a_casino_in_one_casino_day_is_found(tmp_path):
    """Article 61's day runs 06:00 to 06:00 UTC: a séance at 05:00 counts in the evening's day, one at 07:00 in
    the next."""
    db = tmp_path / "ouverte.duckdb"
    ouverte_casino(tmp_path, db, "propre", OUVERTE_CLEAN)
    ouverte_casino(tmp_path, db, "double", OUVERTE_TWO_TABLES)
    engine = engines.DuckDB.database(db)
    try:
        found = [f for f in checks.run(engine) if f["id"] == "F-OUVERTE"]
        report.write(engine, tmp_path / "pages")
    finally:
        engine.close()
    assert [(f["casino"], f["article"], where(f)) for f in found] == [
        ("double", "Article 61", [("double", 1, 1), ("double", 2, 1)])]
    message = found[0]["message"]
    assert message.startswith("banque ouverte à 2 tables le même jour (journée du 2026-01-28, de 06:00 à 06:00 UTC)")
    assert "table 1 (séance 1 du sabot 1, ouverte le 2026-01-28 à 20:00 UTC)" in message
    assert "table 2 (séance 1 du sabot 2, ouverte le 2026-01-29 à 05:00 UTC)" in message
    page = (tmp_path / "pages" / report.page_name("double")).read_text(encoding="utf-8")
    assert 'id="F-OUVERTE"' in page and "banque ouverte à 2 tables le même jour" in page
    assert 'id="F-OUVERTE"' not in (tmp_path / "pages" / report.page_name("propre")).read_text(encoding="utf-8")
