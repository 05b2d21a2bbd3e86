"""`sabot ouverte declaration JOURNAL`: the start time of each banque ouverte séance, declared in French to the
authorities Article 61 names. Exit 0, 1 when the journal is not intact or read under the development key (the
declaration says so), 2 for unusable input."""

import sys
from pathlib import Path

from sabot import options
from sabot.journalfile import Unusable
from sabot.outputs import Exists, may_write
from sabot.ouverte import declaration
from sabot.verify import development_only, read_key


def add_arguments(parser):
    sub = parser.add_subparsers(dest="ouverte_command", required=True, metavar="COMMAND")
    declare = sub.add_parser("declaration", help="the séances' start times for the authorities (Article 61)")
    declare.add_argument("journal", nargs="+", help="the journal's folder (or segment files)")
    declare.add_argument("--key", help="the shoe's key file (without: the development key, said so)")
    declare.add_argument("--allow-development-key", action="store_true",
                         help="a sim's or a test's journal: its development key is no finding")
    declare.add_argument("--establishment", type=options.ESTABLISHMENT,
                         help="the casino, as the declaration names it")
    declare.add_argument("-o", "--output", help="a text file to write (default: print it)")
    declare.add_argument("--force", action="store_true", help="replace an existing output file")


def main(args, out=sys.stdout):
    try:
        if args.output:
            may_write(args.output, args.force)
    except Exists as e:
        print("sabot ouverte declaration: error: %s" % e, file=sys.stderr)
        return 2
    try:
        opened, findings = declaration.seances(args.journal, read_key(args.key))
    except Unusable as e:
        print("sabot ouverte declaration: error: %s" % e, file=sys.stderr)
        return 2
    development = development_only(args.journal, args.key, args.allow_development_key)
    text = declaration.text(opened, args.establishment, not findings and not development)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            print("sabot ouverte declaration: error: %s" % e, file=sys.stderr)
            return 2
    else:
        out.write(text)
    return 1 if findings or development else 0
