"""The levy due to the cagnotte (C-LEVY): the articles' cases worked by hand, the roundings on both sides of a half,
and `sabot cagnotte due` on a simulated shoe's journal with its stakes, and on bad input."""

import json
import random
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from firmware import games
from sabot.cagnotte.check import check
from sabot.cagnotte.coups import Coup
from sabot.cagnotte.ledger import Entry
from sabot.cagnotte.levy import EGALITE, GAGNANT, PERDANT, due
from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")
CF, DTL, DTO = games.CHEMIN_DE_FER, games.DEUX_TABLEAUX_LIMITEE, games.DEUX_TABLEAUX_OUVERTE
D = Decimal

# (game, the bank's results, the stakes on each tableau, the levy worked by hand, Article 62's case)
WORKED = [
    # Chemin de fer, Article 60: 5 % of what the bank won, 1,000 € staked against it.
    (CF, (GAGNANT,), (D("1000"),), D("50.00"), "chemin de fer"),
    (CF, (PERDANT,), (D("1000"),), D("0"), None),
    (CF, (EGALITE,), (D("1000"),), D("0"), None),
    # Deux tableaux, banque limitée: 2 % of the 300 € and 200 € the bank won on both tableaux.
    (DTL, (GAGNANT, GAGNANT), (D("300"), D("200")), D("10.00"), "a"),
    # Banque ouverte, Article 62 a): 1.25 % of all the pontes' stakes, 400 € + 400 €.
    (DTO, (GAGNANT, GAGNANT), (D("400"), D("400")), D("10.00"), "a"),
    # b), a positive difference: won 1,000 € on tableau 1, lost 200 € on tableau 2: 1.25 % of 800 €.
    (DTO, (GAGNANT, PERDANT), (D("1000"), D("200")), D("10.00"), "b"),
    (DTO, (PERDANT, GAGNANT), (D("200"), D("1000")), D("10.00"), "b"),
    # b), a difference that is not positive: won 200 €, lost 1,000 €, or the same 500 € each: nothing.
    (DTO, (GAGNANT, PERDANT), (D("200"), D("1000")), D("0"), "b"),
    (DTO, (PERDANT, GAGNANT), (D("500"), D("500")), D("0"), "b"),
    # c): won 1,000 € on one tableau, égalité on the other: 1.25 % of 1,000 €.
    (DTO, (GAGNANT, EGALITE), (D("1000"), D("700")), D("12.50"), "c"),
    (DTO, (EGALITE, GAGNANT), (D("700"), D("1000")), D("12.50"), "c"),
    # The bank won no tableau: no levy.
    (DTO, (PERDANT, EGALITE), (D("1000"), D("700")), D("0"), None),
]


@pytest.mark.req("C-LEVY")
@pytest.mark.parametrize("game, results, stakes, levy, case", WORKED)
def test_the_levy_of_each_case_of_the_articles_worked_by_hand(game, results, stakes, levy, case):
    got, _, got_case = due(game, results, stakes)
    assert (got, got_case) == (levy, case)


@pytest.mark.req("C-LEVY")
@pytest.mark.parametrize("won, levy", [
    (D("120.80"), D("6.00")),  # 6.04 €: down to the nearer ten cents
    (D("121.00"), D("6.10")),  # 6.05 €, a half: up
    (D("121.20"), D("6.10")),  # 6.06 €: up
    (D("118.80"), D("5.90")),  # 5.94 €
    (D("119.00"), D("6.00")),  # 5.95 €, a half: up
])
def test_the_levy_is_rounded_to_the_nearest_ten_cents_a_half_up(won, levy):
    assert due(CF, (GAGNANT,), (won,))[0] == levy


@pytest.mark.req("C-LEVY")
def test_money_stays_exact_decimal_where_binary_floats_would_not():
    # 1.25 % of 0.10 € + 0.20 € is 0.00375 €: binary floats make 0.1 + 0.2 a hair over 0.3.
    levy, base, _ = due(DTO, (GAGNANT, GAGNANT), (D("0.10"), D("0.20")))
    assert base == D("0.30") and isinstance(levy, Decimal)


def _journal(tmp_path):
    log = tmp_path / "journal"
    subprocess.run([SABOT, "sim", str(SCENARIOS / "deux_tableaux_ouverte.txt"), "--log", str(log), "--quiet"],
                   check=True, capture_output=True)
    rows = [json.loads(line) for line in subprocess.run(
        [SABOT, "log", "export", str(log), "--format", "jsonl"], capture_output=True, text=True).stdout.splitlines()]
    return log, [r for r in rows if r["event"] == "result"]


def _stakes_of_every_coup(tmp_path, results):
    """A stakes file giving each coup of the journal 1,000 € on tableau 1 and 200 € on tableau 2."""
    stakes = tmp_path / "stakes.csv"
    stakes.write_text("seance,taille,coup,stake_1,stake_2\n" + "".join(
        "%d,%d,%d,1000,200\n" % (r["seance"], r["taille"], r["coup"]) for r in results))
    return stakes


def _run(*args):
    return subprocess.run([SABOT, "cagnotte", "due", *map(str, args)], capture_output=True, text=True)


@pytest.mark.req("C-LEVY")
def test_cagnotte_due_gives_each_coup_of_a_simulated_shoe_its_levy(tmp_path):
    log, results = _journal(tmp_path)
    stakes = _stakes_of_every_coup(tmp_path, results)
    done = _run(log, "--stakes", stakes, "--json", "--allow-development-key")
    assert done.returncode == 0, done.stderr
    *coups, total = [json.loads(line) for line in done.stdout.splitlines()]
    assert total == {"total_due": "%.2f" % sum(D(c["due"]) for c in coups), "coups_won_by_bank": sum(
        c["case"] is not None for c in coups), "coups": len(coups)}  # issue 40, finding 12: the total, as the text
    assert [(c["seance"], c["taille"], c["coup"]) for c in coups] == [
        (r["seance"], r["taille"], r["coup"]) for r in results]
    g, p, e = GAGNANT, PERDANT, EGALITE
    by_hand = {  # 1,000 € on tableau 1, 200 € on tableau 2, at 1.25 %
        (g, g): "15.00", (g, p): "10.00", (p, g): "0.00", (g, e): "12.50", (e, g): "2.50"}
    for coup in coups:
        assert coup["game"] == "deux_tableaux_ouverte"
        assert coup["due"] == by_hand.get(tuple(coup["results"]), "0.00"), coup
    assert {c["case"] for c in coups} >= {"c", None}  # the bundled shoe has an égalité beside a won tableau


@pytest.mark.req("C-LEVY")
def test_cagnotte_due_says_in_french_each_coup_and_the_total(tmp_path):
    log, results = _journal(tmp_path)
    stakes = _stakes_of_every_coup(tmp_path, results)
    done = _run(log, "--stakes", stakes, "--allow-development-key")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Séance 1, taille 1, coup 1 : tableau 1 ")
    assert "1\u202f000,00 €" in done.stdout  # French money: a decimal comma, narrow spaces between thousands
    assert lines[-1].startswith("Total dû : ")


@pytest.mark.req("C-LEVY")
def test_a_coup_without_stakes_a_stake_without_a_coup_and_the_development_key_are_said(tmp_path):
    log, results = _journal(tmp_path)
    first = results[0]
    stakes = tmp_path / "stakes.csv"
    stakes.write_text("seance,taille,coup,stake_1,stake_2\n%d,%d,%d,10,20\n9,9,9,10,20\n" % (
        first["seance"], first["taille"], first["coup"]))
    done = _run(log, "--stakes", stakes)
    assert done.returncode == 1
    assert "Séance 9, taille 9, coup 9 : dans %s mais pas dans le journal" % stakes in done.stderr
    assert "pas de mises pour ce coup" in done.stderr
    assert "clé de développement" in done.stderr


@pytest.mark.req("C-LEVY")
@pytest.mark.parametrize("content, said", [
    ("seance,taille,coup,stake_1\n1,1,1,10\n", "lacks the column stake_2"),
    ("seance,taille,coup,stake_1,stake_2\n1,1,1,10.005,\n", "more than two decimals"),
    ("seance,taille,coup,stake_1,stake_2\n1,1,1,-10,\n", "is not a sum in euros"),
    ("seance,taille,coup,stake_1,stake_2\n1,1,1,1e3,\n", "is not a sum in euros"),
    ("seance,taille,coup,stake_1,stake_2\n1,1,1,١٠,\n", "is not a sum in euros"),
    ("seance,taille,coup,stake_1,stake_2\n0,1,1,10,\n", "seance '0' is not a number from 1"),
    ("seance,taille,coup,stake_1,stake_2\n1,1,1,10,\n1,1,1,20,\n", "is there twice"),
    ("seance,taille,coup,stake_1,stake_2\n1,1,1,,\n", "stake_1 is empty"),
])
def test_a_bad_stakes_file_gets_one_line_and_exit_2(tmp_path, content, said):
    log = tmp_path / "journal"
    log.mkdir()
    stakes = tmp_path / "stakes.csv"
    stakes.write_text(content)
    done = _run(log, "--stakes", stakes)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


def test_a_missing_stakes_file_or_journal_gets_one_line_and_exit_2(tmp_path):
    stakes = tmp_path / "stakes.csv"
    stakes.write_text("seance,taille,coup,stake_1,stake_2\n")
    for args in ((tmp_path / "nothing", "--stakes", stakes), (tmp_path, "--stakes", tmp_path / "none.csv")):
        done = _run(*args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr


# `sabot cagnotte check`: the casino's ledger against the journal.

def _ledger(rng, seances=1000):
    """Coups of many séances at each game, with a clean ledger: stakes in whole euros, the levy due taken, its
    tickets of 5 €, 1 € and 0.10 € (three values)."""
    coups, entries = [], {}
    outcomes = (GAGNANT, PERDANT, EGALITE)
    for seance in range(1, seances + 1):
        game = rng.choice((CF, DTL, DTO))
        for coup_number in range(1, rng.randint(2, 6)):
            results = (rng.choice(outcomes),) if game == CF else (rng.choice(outcomes), rng.choice(outcomes))
            key = (seance, 1, coup_number)
            coups.append(Coup(key, game, results, 1 + seance % 7, 0))
            stakes = (D(rng.randint(1, 5000)), None if game == CF else D(rng.randint(1, 5000)))
            levy = due(game, results, tuple(s for s in stakes if s is not None))[0]
            fives, rest = divmod(levy, 5)
            ones, tenths = divmod(rest, 1)
            tickets = {v: int(n) for v, n in ((D(5), fives), (D(1), ones), (D("0.1"), tenths * 10)) if n}
            entries[key] = Entry(stakes, levy, tickets)
    return coups, entries


@pytest.mark.req("C-LEVY", "C-TICKETS", "C-LEDGER")
def test_clean_ledgers_of_a_thousand_seances_have_no_finding():
    coups, entries = _ledger(random.Random(25))
    assert len({c.key[0] for c in coups}) == 1000
    assert check(coups, entries) == []


def _plant(what, coup, entry, entries, coups):
    if what == "no_levy":
        entry.levy, entry.tickets = D(0), {}
    elif what == "not_won":
        entry.levy, entry.tickets = D("2.50"), {D(1): 2, D("0.1"): 5}
    elif what == "amount":
        entry.levy += D("0.10")
        entry.tickets[D("0.1")] = entry.tickets.get(D("0.1"), 0) + 1
    elif what == "tickets":
        entry.tickets[D(5)] = entry.tickets.get(D(5), 0) + 1
    elif what == "values":  # the same levy in four values of tickets
        entry.tickets = {D(2): 1, D(1): 1, D("0.5"): 2, D("0.1"): int((entry.levy - 4) * 10)}
    elif what == "stake":
        entry.stakes = (entry.stakes[0], entry.stakes[1] + D("0.50"))
    elif what == "no_entry":
        del entries[coup.key]
    elif what == "no_coup":
        coups.remove(coup)


PLANTED = {  # what is planted: the coups (and their ledger entries) it may be planted in
    "no_levy": lambda c, e: e.levy > 0,
    "not_won": lambda c, e: GAGNANT not in c.results,
    "amount": lambda c, e: GAGNANT in c.results,
    "tickets": lambda c, e: True,
    "values": lambda c, e: e.levy >= 4,
    "stake": lambda c, e: c.game == DTO and GAGNANT not in c.results,
    "no_entry": lambda c, e: True,
    "no_coup": lambda c, e: True,
}


@pytest.mark.req("C-LEVY", "C-TICKETS", "C-STAKES", "C-LEDGER")
@pytest.mark.parametrize("what", sorted(PLANTED))
def test_every_planted_error_is_found_and_nothing_else(what):
    rng = random.Random(what)
    for _ in range(20):
        coups, entries = _ledger(rng, seances=50)
        candidates = [c for c in coups if PLANTED[what](c, entries[c.key])]
        coup = rng.choice(candidates)
        _plant(what, coup, entries[coup.key], entries, coups)
        found = check(coups, entries)
        assert [f.what for f in found] == [what], (coup.key, coup.results, [f.said("en", str, str) for f in found])
        assert found[0].key[0] == coup.key[0]


def test_the_wrong_rate_is_named():
    coup = Coup((1, 1, 1), DTO, (GAGNANT, GAGNANT), 3, 0)
    entry = Entry((D(400), D(400)), D("16.00"), {D(5): 3, D(1): 1})  # 2 % of 800 €, banque limitée's rate
    found = check([coup], {coup.key: entry})
    assert [f.what for f in found] == ["rate"]
    assert found[0].said("fr", str, lambda r: str(r * 100)).startswith("16.00 prélevés : le taux de 2.00 %")


def _ledger_file(tmp_path, results, line):
    path = tmp_path / "ledger.csv"
    path.write_text("seance,taille,coup,stake_1,stake_2,levy,tickets\n" + "".join(
        line(r) for r in results))
    return path


def test_cagnotte_check_reconciles_a_simulated_shoe_and_says_its_verdict_first(tmp_path):
    log, results = _journal(tmp_path)
    g = GAGNANT
    levies = {(g, g): ("30.00", "5x6"), (g, PERDANT): ("0.00", ""), (g, EGALITE): ("25.00", "5x5"),
              (EGALITE, g): ("25.00", "5x5")}  # 2,000 € on each tableau, at 1.25 %

    def line(r):
        winners = tuple(w.split(": ")[1] for w in r["detail"].split("; ")[1].split(", "))
        said = tuple({"banque": g, "ponte": PERDANT}.get(w, EGALITE) for w in winners)
        levy, tickets = levies.get(said, ("0", ""))
        return "%d,%d,%d,2000,2000,%s,%s\n" % (r["seance"], r["taille"], r["coup"], levy, tickets)

    ledger = _ledger_file(tmp_path, results, line)
    clean = subprocess.run([SABOT, "cagnotte", "check", str(log), "--ledger", str(ledger), "--allow-development-key"],
                           capture_output=True, text=True)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert clean.stdout.startswith("registre de la cagnotte : conforme, 0 constat(s) sur %d coups" % len(results))
    first = results[0]
    wrong = _ledger_file(tmp_path, results, lambda r: line(r) if r is not first else "%d,%d,%d,2000,2000,9.90,\n" % (
        r["seance"], r["taille"], r["coup"]))
    done = subprocess.run([SABOT, "cagnotte", "check", str(log), "--ledger", str(wrong), "--allow-development-key",
                           "--json"], capture_output=True, text=True)
    assert done.returncode == 1
    found = json.loads(done.stdout)["findings"]
    assert {f["id"] for f in found} <= {"C-LEVY", "C-TICKETS"} and found[0]["seance"] == first["seance"]


@pytest.mark.req("C-LEDGER", "S-IDENT")
def test_the_carnet_gives_each_seance_its_sabot_in_column_3_its_coups_and_totals_verdict_first(tmp_path):
    log, results = _journal(tmp_path)
    ledger = _ledger_file(tmp_path, results, lambda r: "%d,%d,%d,10,20,0.40,0.2x2\n" % (
        r["seance"], r["taille"], r["coup"]))  # a levy on every coup: wrong wherever the bank did not win
    html = tmp_path / "carnet.html"
    done = subprocess.run([SABOT, "cagnotte", "carnet", str(log), "--ledger", str(ledger), "-o", str(html),
                           "--establishment", "Casino de Deauville", "--allow-development-key"],
                          capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    page = html.read_text()
    assert page.index("NON CONFORME") < page.index("Séance n° 1")
    assert "Casino de Deauville" in page and "Sabot affecté (colonne 3)" in page
    assert page.count("Total de la séance") == len({r["seance"] for r in results})
    again = subprocess.run([SABOT, "cagnotte", "carnet", str(log), "--ledger", str(ledger), "-o", str(html),
                            "--allow-development-key"], capture_output=True, text=True)
    assert again.returncode == 2 and "--force" in again.stderr  # nothing replaced unasked


@pytest.mark.req("C-LEDGER")
def test_the_carnet_prints_as_a_pdf(tmp_path):
    log, results = _journal(tmp_path)
    ledger = _ledger_file(tmp_path, results, lambda r: "%d,%d,%d,10,20,,\n" % (r["seance"], r["taille"], r["coup"]))
    pdf = tmp_path / "carnet.pdf"
    subprocess.run([SABOT, "cagnotte", "carnet", str(log), "--ledger", str(ledger), "-o", str(pdf),
                    "--allow-development-key"], capture_output=True, text=True)
    assert pdf.read_bytes().startswith(b"%PDF")


@pytest.mark.req("C-LEVY")
def test_the_example_stakes_file_a_french_spreadsheet_saved_goes_to_cagnotte_due_as_documented(tmp_path):
    """Issue 40, finding 7: docs/cagnotte.md's commands, run as written in the clone, on its example file (`;`,
    decimal commas, spaces between thousands, Excel's byte order mark)."""
    from tests.conftest import ROOT

    example = (ROOT / "docs" / "examples" / "mises.csv").read_bytes()
    assert example.startswith(b"\xef\xbb\xbfseance;taille;coup;stake_1;stake_2") and b"121,05" in example
    text = (ROOT / "docs" / "cagnotte.md").read_text()
    steps = _steps(text, "to copy as a template")
    said = ""
    for step in steps:
        words = step.split()
        words = [SABOT] + [str(ROOT / w) if w.startswith(("docs/", "boards/")) else w for w in words[1:]]
        done = subprocess.run(words, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        said = done.stdout
    assert said.splitlines()[-1].startswith("Total dû : 1,00 €"), said
    assert "mises 121,05 € / 80,50 €" in said and "mises 1\u202f000,00 € / 200,00 €" in said


def _steps(text, marker):
    block = text[text.index(marker):]
    block = block[block.index("```\n") + 4:]
    return [line.split("  #")[0].strip() for line in block[:block.index("```")].splitlines() if line.strip()]


@pytest.mark.req("C-LEVY")
def test_a_comma_separated_file_takes_quoted_decimal_commas_and_a_bad_one_is_said_in_french(tmp_path):
    log, results = _journal(tmp_path)
    stakes = tmp_path / "stakes.csv"
    stakes.write_text("seance,taille,coup,stake_1,stake_2\n" + "".join(
        '%d,%d,%d,"121,05",200\n' % (r["seance"], r["taille"], r["coup"]) for r in results))
    done = _run(log, "--stakes", stakes, "--json", "--allow-development-key")
    assert done.returncode == 0 and json.loads(done.stdout.splitlines()[0])["stakes"] == ["121.05", "200.00"]
    stakes.write_text("\ufeffseance;taille;coup;mise_1\n1;1;1;10\n", encoding="utf-8")
    done = _run(log, "--stakes", stakes, "--allow-development-key")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "l'en-tête n'a pas la colonne stake_1, stake_2" in done.stderr and "seance" not in done.stderr.split(
        "n'a pas")[1].split(";")[0], done.stderr


@pytest.mark.req("C-LEVY", "C-LEDGER")
def test_cagnotte_check_json_says_a_rate_in_percent(tmp_path):
    """Issue 40, finding 12: 1.25 %, never "0.0125 %"."""
    log, results = _journal(tmp_path)
    ledger = _ledger_file(tmp_path, results, lambda r: "%d,%d,%d,1000,200,0.40,0.2x2\n" % (
        r["seance"], r["taille"], r["coup"]))
    done = subprocess.run([SABOT, "cagnotte", "check", str(log), "--ledger", str(ledger), "--json",
                           "--allow-development-key"], capture_output=True, text=True)
    messages = [f["message"] for f in json.loads(done.stdout)["findings"]]
    assert any("(1.25 % of" in m for m in messages) and not any("0.0125" in m for m in messages), messages
