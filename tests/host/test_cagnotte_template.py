"""`sabot cagnotte mises JOURNAL > mises.csv` (issue 40, the habits): the stakes file's template from a simulated
shoe's journal, a row a coup, stakes empty; filled in by the accountant (stakes, the levy due, its tickets) it is a
ledger `sabot cagnotte check` finds conforme, and a stakes file `sabot cagnotte due` takes."""

import csv
import io
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from firmware import games
from sabot.cagnotte import levy
from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300)


@pytest.mark.req("C-LEVY", "C-LEDGER")
@pytest.mark.parametrize("scenario", ["deux_tableaux_ouverte.txt", "full_shoe_chemin_de_fer.txt"])
def test_the_template_filled_with_stakes_is_a_ledger_check_finds_conforme(tmp_path, scenario):
    log = tmp_path / "journal"
    assert sabot("sim", SCENARIOS / scenario, "--log", log, "--quiet").returncode == 0
    done = sabot("cagnotte", "mises", log, "--allow-development-key")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert not done.stdout.startswith("\ufeff")  # the reader on main takes UTF-8 without a BOM, ','-separated
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert done.stdout.splitlines()[0].startswith("seance,taille,coup,stake_1,stake_2,levy,tickets")
    assert rows and all(r["stake_1"] == r["stake_2"] == r["levy"] == r["tickets"] == "" for r in rows)
    assert len({(r["seance"], r["taille"], r["coup"]) for r in rows}) == len(rows)
    for r in rows:  # the accountant's part: the stakes, the levy due on them, a ticket of its value
        game = games.by_name(r["jeu"])
        results = tuple(r["banque"].split(" / "))
        stakes = (Decimal(1000),) if len(results) == 1 else (Decimal(1000), Decimal(200))
        due = levy.due(game, results, stakes)[0]
        r.update(stake_1="1000", stake_2="200" if len(results) > 1 else "", levy=str(due),
                 tickets="%sx1" % due if due else "")
    filled = tmp_path / "mises.csv"
    with open(filled, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    checked = sabot("cagnotte", "check", log, "--ledger", filled, "--allow-development-key")
    assert checked.returncode == 0 and "registre de la cagnotte : conforme" in checked.stdout, checked.stdout
    assert sabot("cagnotte", "due", log, "--stakes", filled, "--allow-development-key").returncode == 0


@pytest.mark.req("C-LEDGER")
def test_a_template_of_a_development_journal_says_so_and_exits_1(tmp_path):
    log = tmp_path / "journal"
    assert sabot("sim", SCENARIOS / "deux_tableaux_ouverte.txt", "--log", log, "--quiet").returncode == 0
    done = sabot("cagnotte", "mises", log)
    assert done.returncode == 1 and done.stdout.startswith("seance,") and "développement" in done.stderr
    assert sabot("cagnotte", "mises", tmp_path / "none").returncode == 2
