"""The cagnotte's ledger against the journal (C-STAKES): stakes written low enough to owe nothing are findings, not
"conforme": a stake of 0 € on a coup of chemin de fer the bank won, a stake under Article 58's 1 € minimum, a séance
whose every coup the bank won owes 0.00 € once rounded. `sabot cagnotte check` on a simulated shoe's journal, as a
casino's inspector runs it."""

import io
import json
import random
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from firmware import games
from sabot import logview
from sabot.cagnotte.check import check
from sabot.cagnotte.coups import Coup
from sabot.cagnotte.ledger import Entry
from sabot.cagnotte.levy import GAGNANT, PERDANT, due
from sabot.cli import main
from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")
CF, DTL = games.CHEMIN_DE_FER, games.DEUX_TABLEAUX_LIMITEE
D = Decimal


@pytest.fixture(scope="module")
def shoe(tmp_path_factory):
    """A full shoe of chemin de fer on the sim board: its journal and its coups' results, as log export gives them."""
    folder = tmp_path_factory.mktemp("shoe")
    log = folder / "journal"
    assert main(["sim", str(SCENARIOS / "full_shoe_chemin_de_fer.txt"), "--log", str(log), "--quiet"]) == 0
    export = io.StringIO()
    assert logview.export([str(log)], "jsonl", None, out=export) == 0
    rows = [json.loads(line) for line in export.getvalue().splitlines()]
    return log, [r for r in rows if r["event"] == "result"]


def _won(row):
    return row["detail"].endswith("bank: gagnant")


def _ledger(path, results, stake):
    """The ledger a casino would write with `stake` on every coup, the levy due on it taken in tickets of 0.10 €."""
    lines = ["seance,taille,coup,stake_1,stake_2,levy,tickets"]
    for r in results:
        levy = due(CF, (GAGNANT if _won(r) else PERDANT,), (D(stake),))[0]
        lines.append("%d,%d,%d,%s,,%s,%s" % (r["seance"], r["taille"], r["coup"], stake, levy if levy else "",
                                             "0.1x%d" % (levy * 10) if levy else ""))
    path.write_text("\n".join(lines) + "\n")
    return path


def _check(log, ledger, *more):
    """sabot cagnotte check as the inspector runs it: (its exit status, its output)."""
    done = subprocess.run([SABOT, "cagnotte", "check", str(log), "--ledger", str(ledger), "--allow-development-key",
                           *more], capture_output=True, text=True, timeout=120)
    return done.returncode, done


def test_the_shoe_has_coups_the_bank_won(shoe):
    _, results = shoe
    assert sum(map(_won, results)) >= 5, [r["detail"] for r in results[:3]]


@pytest.mark.req("C-STAKES", "C-LEDGER")
def test_an_honest_ledger_is_conforme(shoe, tmp_path):
    log, results = shoe
    status, said = _check(log, _ledger(tmp_path / "ledger.csv", results, "100"))
    assert status == 0, said.stdout + said.stderr
    assert said.stdout.startswith("registre de la cagnotte : conforme")


@pytest.mark.req("C-STAKES")
def test_a_stake_of_0_on_every_coup_is_a_c_stakes_finding_not_conforme(shoe, tmp_path):
    log, results = shoe
    status, said = _check(log, _ledger(tmp_path / "ledger.csv", results, "0"))
    assert status == 1, said.stdout + said.stderr
    lines = said.stdout.splitlines()
    assert lines[0].startswith("registre de la cagnotte : NON CONFORME")
    won = [r for r in results if _won(r)]
    zero = [line for line in lines if "une mise de 0 €" in line]
    assert len(zero) == len(won) and all(line.startswith("[C-STAKES, art. 58, 60] Séance ") for line in zero)
    assert "banco ou une suite" in zero[0]
    seance = [line for line in lines if "arrondi à 0,00 €" in line]
    assert seance and all(line.startswith("[C-STAKES, art. 59, 60] Séance ") for line in seance)
    assert "Séance %d : la banque a gagné %d coups à la table " % (won[0]["seance"], len(won)) in seance[0]
    status, said = _check(log, tmp_path / "ledger.csv", "--json")
    found = json.loads(said.stdout)
    assert status == 1 and not found["ok"] and {f["id"] for f in found["findings"]} == {"C-STAKES"}


@pytest.mark.req("C-STAKES")
def test_0_99_on_every_coup_whose_5_percent_rounds_to_nothing_is_a_finding(shoe, tmp_path):
    log, results = shoe
    ledger = _ledger(tmp_path / "ledger.csv", results, "0.99")
    assert "0.99,,," in ledger.read_text()  # the levy due on 0.99 € is 0.00 €: the ledger takes none, as due
    status, said = _check(log, ledger)
    assert status == 1, said.stdout
    assert said.stdout.startswith("registre de la cagnotte : NON CONFORME")
    assert "[C-STAKES, art. 58] Séance 1, taille 1, coup 1 : mise de 0,99 € : le minimum des enjeux ne saurait être " \
        "inférieur à 1 €" in said.stdout
    assert "[C-STAKES, art. 59, 60]" in said.stdout and "arrondi à 0,00 €" in said.stdout
    assert "C-LEVY" not in said.stdout  # what was levied is what these stakes owe: the stakes are the finding
    status, said = _check(log, ledger, "--lang", "en")
    assert status == 1 and "the minimum stake is never under 1 €" in said.stdout


@pytest.mark.req("C-STAKES")
def test_a_seance_owing_nothing_at_banque_limitee_only_from_five_coups_the_bank_won():
    """2 € at 2 % is 0.04 €, rounded 0.00 €: allowed on a coup, implausible on a whole séance; four are too few."""
    for won, expected in ((4, []), (5, ["nothing_due"])):
        coups = [Coup((7, 1, n), DTL, (GAGNANT, GAGNANT) if n <= won else (PERDANT, PERDANT), 3, 0)
                 for n in range(1, 9)]
        entries = {c.key: Entry((D(1), D(1)) if c.results[0] == GAGNANT else (D(300), D(200)), D(0), {})
                   for c in coups}
        found = check(coups, entries)
        assert [f.what for f in found] == expected
    assert found[0].key == (7, 0, 0) and found[0].values == {"table": 3, "won": 5}


@pytest.mark.req("C-STAKES")
def test_zero_stakes_are_plausible_where_nobody_need_stake():
    """At deux tableaux a tableau may hold nothing; at chemin de fer a coup the bank lost owes no levy either way."""
    coups = [Coup((1, 1, 1), DTL, (GAGNANT, PERDANT), 2, 0), Coup((1, 1, 2), CF, (PERDANT,), 2, 0)]
    entries = {coups[0].key: Entry((D(300), D(0)), D("6.00"), {D(5): 1, D(1): 1}),
               coups[1].key: Entry((D(0), None), D(0), {})}
    assert check(coups, entries) == []


@pytest.mark.req("C-STAKES")
def test_random_honest_stakes_from_1_euro_raise_no_c_stakes():
    rng = random.Random(38)
    coups, entries = [], {}
    for seance in range(1, 400):
        for n in range(1, 12):
            coup = Coup((seance, 1, n), CF, (rng.choice((GAGNANT, PERDANT)),), 1, 0)
            stake = D(rng.randint(1, 2000))
            levy = due(CF, coup.results, (stake,))[0]
            coups.append(coup)
            entries[coup.key] = Entry((stake, None), levy, {D("0.1"): int(levy * 10)} if levy else {})
    assert check(coups, entries) == []
