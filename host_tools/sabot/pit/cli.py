"""`sabot pit follow|recall` (docs/pit.md): the arguments and what each runs. Errors: one line and exit 2."""

import signal
import sys
import threading
import time

from sabot.registry_cli import SIGNER_HELP


def add_arguments(parser):
    actions = parser.add_subparsers(dest="action", required=True)
    follow = actions.add_parser("follow", help="follow the casino's shoes live: verify each record as it comes, into "
                                "the casino's database, findings raised at once; the pit's page and the tables' "
                                "screens served until Ctrl-C")
    follow.add_argument("--registry", required=True, metavar="FILE", help="the casino's registry (shoes.json): every "
                        "shoe with a port is followed, its checkpoints checked with its public key")
    follow.add_argument("--registry-signer", action="append", default=[], metavar="FILE", help=SIGNER_HELP)
    follow.add_argument("--db", required=True, help="the casino's fleet database (DuckDB, the fleet's schema)")
    follow.add_argument("--casino", required=True, help="the casino's name, as sabot fleet ingest takes it")
    follow.add_argument("--dir", default="pit", help="where each shoe's journal is copied as it grows, DIR/sabot-NNNN "
                        "(default: pit)")
    follow.add_argument("--port", action="append", default=[], metavar="PATH", help="a shoe's port the registry does "
                        "not give (its shoe still needs to be in the registry)")
    follow.add_argument("--listen", default="127.0.0.1", help="the address the pages are served on (default "
                        "127.0.0.1; the casino's network for the tables' screens)")
    follow.add_argument("--http", type=int, default=8018, help="the pages' port (default 8018; 0 any free one)")
    follow.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    back = actions.add_parser("recall", help="a coup card by card as the journal has it, with its checkpoints")
    back.add_argument("--dir", default="pit", help="the pit's copies (sabot pit follow --dir) or a pulled journal")
    back.add_argument("--table", type=int, required=True, help="the table the coup was dealt at")
    back.add_argument("--coup", type=int, required=True, help="the coup's number in its séance")
    back.add_argument("--seance", type=int, help="the séance (default: the table's latest that has the coup)")
    back.add_argument("--registry", metavar="FILE", help="the casino's registry: the checkpoints' signatures checked")
    back.add_argument("--pdf", metavar="FILE", help="also a one-page PDF for the floor manager's report")
    back.add_argument("--json", action="store_true", help="the coup as one JSON object")


def main(args):
    if args.action == "recall":
        from sabot.pit.recall import recall

        return recall(args.dir, args.table, args.coup, args.seance, args.registry, args.pdf, args.json)
    return follow(args)


def follow(args):
    from sabot.fleet.store import Unusable
    from sabot.journalfile import Unusable as JournalUnusable
    from sabot.pit.service import Pit
    from sabot.pit.web import server
    from sabot.registry_signatures import RegistryRefused, error_line

    if args.listen in ("0.0.0.0", "::", ""):
        print("sabot pit: error: --listen %s answers every network: give the pit's own address on the casino's "
              "network (the tables' screens ask for it by name)" % (args.listen or "''"), file=sys.stderr)
        return 2
    try:
        pit = Pit(args.registry, args.db, args.casino, args.dir, args.port, args.registry_signer)
        httpd = server(pit, args.listen, args.http)
    except (Unusable, JournalUnusable, RegistryRefused, OSError) as e:
        print("sabot pit: %s" % error_line(e), file=sys.stderr)
        return 2
    host, port = httpd.server_address[:2]
    print("sabot pit : %d sabot(s) suivi(s), le pit sur http://%s:%d/, chaque table sur /table/N (Ctrl-C l'arrête)"
          % (len(pit.shoes), host, port), flush=True)
    print(pit.trust.said("fr"), flush=True)
    signal.signal(signal.SIGTERM, _interrupted)  # a service manager's stop: as Ctrl-C, the copies left whole
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    pit.start()
    try:
        if args.seconds is None:
            while True:
                time.sleep(3600)
        time.sleep(args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        httpd.shutdown()
        pit.stop()
    return 0


def _interrupted(*_):
    raise KeyboardInterrupt
