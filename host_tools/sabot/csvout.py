"""The CSV files the tools write, safe to open in a spreadsheet: a text field that starts with `=`, `+`, `-`, `@`, a
tab or a carriage return is a formula to Excel or LibreOffice (`=HYPERLINK(...)`, `+cmd|...`), so it gets a leading
`'`, OWASP's advice against CSV injection; numbers are written as they are."""

import csv

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """The field as a spreadsheet should show it: a text that would start a formula, quoted by a leading `'`; a
    carriage return within it written as a newline, which the csv module quotes (it quotes only the characters of
    its line terminator, "\n" here: a bare CR would end the row for a spreadsheet and start a field of its own)."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS):
        value = "'" + value
    return value.replace("\r\n", "\n").replace("\r", "\n")


class DictWriter(csv.DictWriter):
    """csv.DictWriter whose every row's text fields go through cell()."""

    def writerow(self, rowdict):
        return super().writerow({name: cell(value) for name, value in rowdict.items()})

    def writerows(self, rowdicts):
        for rowdict in rowdicts:
            self.writerow(rowdict)


class Writer:
    """csv.writer whose every row's text fields go through cell()."""

    def __init__(self, out, **options):
        self._rows = csv.writer(out, **options)

    def writerow(self, row):
        return self._rows.writerow([cell(value) for value in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)
