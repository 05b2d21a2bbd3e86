"""`sabot report`: the approver's report on a journal, one self-contained HTML file (H-EXPORT, H-VERIFY).

The shoe and its firmware, each séance and taille coup by coup with a chart, the stop card check, the
verifier's findings with the regulation's own words, and the journal's integrity. French by default, the
approver's and the articles' language. The findings are verify.check's, not re-derived here, so the report and
`sabot log verify` never disagree.
"""

import sys
from pathlib import Path

from sabot.journalfile import Unusable
from sabot.report.page import render
from sabot.verify import check, journals_of, read_key


def report(paths, output, lang="fr", key_file=None):
    """Write the report; 0 when written, 2 when the journal cannot be read or the file written."""
    try:
        if len(journals_of(paths)) > 1:
            raise Unusable("one journal per report: give one journal folder, or segment files of one journal "
                           "(sabot log verify checks several journals together)")
        key = read_key(key_file)
        records = []
        segments, reader, findings = check(paths, key, records)
    except Unusable as e:
        print("sabot report: error: %s" % e, file=sys.stderr)
        return 2
    page = render(segments, reader, records, findings, key, key_file, paths, lang)
    try:
        Path(output).write_text(page, encoding="utf-8")
    except OSError as e:
        print("sabot report: error: cannot write %s: %s" % (output, e.strerror), file=sys.stderr)
        return 2
    print("report written to %s (%s): %d records, %d finding(s)" % (output, lang, reader.records, len(findings)))
    return 0


def add_arguments(parser):
    """`sabot report`'s arguments, for cli.py."""
    parser.add_argument("paths", nargs="+", metavar="JOURNAL", help="a journal folder, or segment files of one journal")
    parser.add_argument("-o", "--output", required=True, help="the HTML file to write")
    parser.add_argument("--lang", choices=("fr", "en"), default="fr", help="the report's language (default fr)")
    parser.add_argument("--key", help="the shoe's key file (hexadecimal); without it, the development key")


def main(args):
    return report(args.paths, args.output, args.lang, args.key)
