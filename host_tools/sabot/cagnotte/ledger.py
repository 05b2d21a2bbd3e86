"""The casino's record of what it levied: the stakes file's columns plus `levy` (euros) and `tickets`, the tickets
detached by value, as `VALUExCOUNT` items separated by spaces ("5x2 0.5x1": two of 5 € and one of 0.50 €)."""

from decimal import Decimal

from sabot.cagnotte.stakes import BadStakes, euros
from sabot.cagnotte.stakes import read as read_stakes

COLUMNS = ("levy", "tickets")
_TICKETS_MOST = 1000  # tickets of one value on one coup; more is not a carnet


class Entry:
    """One coup of the ledger."""

    __slots__ = ("stakes", "levy", "tickets")

    def __init__(self, stakes, levy, tickets):
        self.stakes, self.levy, self.tickets = stakes, levy, tickets

    def tickets_total(self):
        return sum((value * count for value, count in self.tickets.items()), Decimal(0))


def tickets(text, where):
    """{value: count} from "5x2 0.5x1"."""
    found = {}
    for item in text.split():
        value, x, count = item.partition("x")
        if not x or not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= _TICKETS_MOST:
            raise BadStakes("%s : tickets « %s » : chacun VALEURxNOMBRE, un nombre de 1 à %d (each is VALUExCOUNT)"
                            % (where, item, _TICKETS_MOST))
        amount = euros(value, where)
        if amount is None or amount <= 0:
            raise BadStakes("%s : tickets « %s » : la valeur d'un ticket est une somme au-dessus de 0 (a ticket's "
                            "value is a sum above 0)" % (where, item))
        found[amount] = found.get(amount, 0) + int(count)
    return found


def read(path):
    """{(seance, taille, coup): Entry}."""
    rows = read_stakes(path)
    entries = {}
    for coup, (first, second, row) in rows.items():
        where = "%s, séance %d taille %d coup %d" % ((path,) + coup)
        missing = [c for c in COLUMNS if c not in row]
        if missing:
            raise BadStakes("%s : l'en-tête n'a pas la colonne %s (its header lacks the column %s)" % (
                path, ", ".join(missing), ", ".join(missing)))
        levy = euros(row["levy"], where)
        entries[coup] = Entry((first, second), levy or Decimal(0), tickets(row["tickets"], where))
    return entries
