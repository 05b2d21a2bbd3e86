"""`sabot cagnotte mises JOURNAL > mises.csv`: the stakes file's template from a journal, a row a coup the shoe
journalled a result of, the stakes, the levy and the tickets left empty for the accountant. It is written as the
reader takes it (sabot/cagnotte/stakes.py, docs/cagnotte.md): CSV in UTF-8 without a BOM, ',' between fields;
the sums the accountant writes, with a '.' before the cents. Two columns the reader keeps aside tell the coup:
`jeu`, its game, and `banque`, the bank's result on each tableau as the croupier announced it."""

from firmware import games
from sabot import csvout
from sabot.cagnotte.ledger import COLUMNS as LEDGER_COLUMNS
from sabot.cagnotte.stakes import COLUMNS

HEADER = COLUMNS + LEDGER_COLUMNS + ("jeu", "banque")


def write(coups, out):
    """The header and a row a coup of coups (sabot.cagnotte.coups.read), in the journal's order."""
    rows = csvout.Writer(out, lineterminator="\n")
    rows.writerow(HEADER)
    for coup in coups:
        rows.writerow(coup.key + ("", "", "", "", games.GAMES[coup.game][games.NAME], " / ".join(coup.results)))
    return len(coups)
