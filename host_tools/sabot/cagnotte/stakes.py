"""The stakes file a table keeps for the cagnotte: CSV with a header, a row a coup (docs/cagnotte.md). Money is
exact decimal: euros with at most two decimals, never a binary float."""

import csv
from decimal import Decimal, InvalidOperation

COLUMNS = ("seance", "taille", "coup", "stake_1", "stake_2")
_CENTS = Decimal("0.01")
_ROWS_MOST = 10_000_000  # a country's year of coups; more is not a stakes file


class BadStakes(Exception):
    """An unusable stakes file, said in one line."""


def euros(text, where):
    """A sum in euros, "" for none; BadStakes when it is not one with at most two decimals."""
    text = text.strip()
    if not text:
        return None
    if not text.replace(".", "", 1).isdigit() or not text.isascii():
        raise BadStakes("%s: %r is not a sum in euros (digits, at most one '.', no sign)" % (where, text))
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise BadStakes("%s: %r is not a sum in euros" % (where, text)) from None
    if amount.quantize(_CENTS) != amount:
        raise BadStakes("%s: %r has more than two decimals" % (where, text))
    return amount


def _number(text, where, name):
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise BadStakes("%s: %s %r is not a number from 1" % (where, name, text))
    return int(text)


def read(path):
    """{(seance, taille, coup): (stake_1, stake_2 or None)} and the row's other columns, from a stakes file."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return _rows(csv.DictReader(f), path)
    except OSError as e:
        raise BadStakes("%s: cannot read it: %s" % (path, e.strerror or e)) from None
    except (UnicodeError, csv.Error) as e:
        raise BadStakes("%s: not a CSV file in UTF-8: %s" % (path, e)) from None


def _rows(reader, path):
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise BadStakes("%s: its header lacks the column%s %s (it needs %s)" % (
            path, "s" if len(missing) > 1 else "", ", ".join(missing), ",".join(COLUMNS)))
    rows = {}
    for row in reader:
        where = "%s line %d" % (path, reader.line_num)
        if len(rows) >= _ROWS_MOST:
            raise BadStakes("%s: more than %d rows" % (path, _ROWS_MOST))
        if None in row or any(v is None for v in row.values()):
            raise BadStakes("%s: not as many fields as the header's columns" % where)
        coup = tuple(_number(row[c], where, c) for c in COLUMNS[:3])
        if coup in rows:
            raise BadStakes("%s: séance %d, taille %d, coup %d is there twice" % ((where,) + coup))
        first = euros(row["stake_1"], where)
        if first is None:
            raise BadStakes("%s: stake_1 is empty" % where)
        rows[coup] = (first, euros(row["stake_2"], where), row)
    return rows
