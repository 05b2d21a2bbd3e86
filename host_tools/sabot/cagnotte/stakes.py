"""The stakes file a table keeps for the cagnotte: CSV with a header, a row a coup (docs/cagnotte.md), as a program
writes it (`,` between fields, `.` in sums) or as a French spreadsheet saves it (`;` between fields, decimal commas,
Excel's UTF-8 byte order mark). Money is exact decimal: euros with at most two decimals, never a binary float.
Messages are in French, the accountant's words, with the English beside."""

import csv
from decimal import Decimal, InvalidOperation

COLUMNS = ("seance", "taille", "coup", "stake_1", "stake_2")
_CENTS = Decimal("0.01")
_ROWS_MOST = 10_000_000  # a country's year of coups; more is not a stakes file
_THOUSANDS = (" ", "\u00a0", "\u202f")  # a spreadsheet's spaces between thousands (1 000,50)


class BadStakes(Exception):
    """An unusable stakes file, said in one line."""


def euros(text, where):
    """A sum in euros, "" for none; BadStakes when it is not one with at most two decimals. A decimal comma
    (121,05), spaces between thousands and a trailing € are a French spreadsheet's and read as such."""
    text = text.strip()
    if not text:
        return None
    plain = text.removesuffix("€").strip()
    for space in _THOUSANDS:
        plain = plain.replace(space, "")
    if "," in plain and "." not in plain:
        plain = plain.replace(",", ".", 1)
    if not plain.replace(".", "", 1).isdigit() or not plain.isascii():
        raise BadStakes("%s : « %s » n'est pas une somme en euros : des chiffres, une virgule ou un point décimal, "
                        "pas de signe (%r is not a sum in euros)" % (where, text, text))
    try:
        amount = Decimal(plain)
    except InvalidOperation:
        raise BadStakes("%s : « %s » n'est pas une somme en euros (%r is not a sum in euros)" % (
            where, text, text)) from None
    if amount.quantize(_CENTS) != amount:
        raise BadStakes("%s : « %s » a plus de deux décimales (%r has more than two decimals)" % (where, text, text))
    return amount


def _number(text, where, name):
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise BadStakes("%s : %s « %s » n'est pas un nombre à partir de 1 (%s %r is not a number from 1)" % (
            where, name, text, name, text))
    return int(text)


def delimiter(header):
    """The field separator of a CSV file by its header line: `;` as a French spreadsheet saves it, else `,`."""
    return ";" if header.count(";") > header.count(",") else ","


def read(path):
    """{(seance, taille, coup): (stake_1, stake_2 or None)} and the row's other columns, from a stakes file."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:  # utf-8-sig: a byte order mark, Excel's, dropped
            header = f.readline()
            f.seek(0)
            return _rows(csv.DictReader(f, delimiter=delimiter(header)), path)
    except OSError as e:
        raise BadStakes("%s : illisible : %s (cannot read it)" % (path, e.strerror or e)) from None
    except (UnicodeError, csv.Error) as e:
        raise BadStakes("%s : pas un fichier CSV en UTF-8 (not a CSV file in UTF-8) : %s" % (path, e)) from None


def _rows(reader, path):
    names = [(name or "").strip() for name in reader.fieldnames or ()]
    reader.fieldnames = names
    missing = [c for c in COLUMNS if c not in names]
    if missing:
        raise BadStakes("%s : l'en-tête n'a pas la colonne %s ; il faut %s, séparées par des « ; » ou des « , » "
                        "(its header lacks the column%s %s)" % (
                            path, ", ".join(missing), ";".join(COLUMNS), "s" if len(missing) > 1 else "",
                            ", ".join(missing)))
    rows = {}
    for row in reader:
        where = "%s ligne %d" % (path, reader.line_num)
        if len(rows) >= _ROWS_MOST:
            raise BadStakes("%s : plus de %d lignes (more than %d rows)" % (path, _ROWS_MOST, _ROWS_MOST))
        if None in row or any(v is None for v in row.values()):
            raise BadStakes("%s : pas autant de champs que de colonnes dans l'en-tête (not as many fields as the "
                            "header's columns)" % where)
        coup = tuple(_number(row[c], where, c) for c in COLUMNS[:3])
        if coup in rows:
            raise BadStakes("%s : séance %d, taille %d, coup %d y est deux fois (is there twice)" % ((where,) + coup))
        first = euros(row["stake_1"], where)
        if first is None:
            raise BadStakes("%s : stake_1 est vide (stake_1 is empty)" % where)
        rows[coup] = (first, euros(row["stake_2"], where), row)
    return rows
