"""The `sabot` command for technicians and approvers."""

import argparse
import datetime
import sys

from firmware import games
from firmware.records import EMPLOYEE_MAX, SABOT_MAX, TABLE_MAX
from firmware.version import VERSION
from sabot import firmware, json_out, keys, progress, registry_cli, settings, tool_version
from sabot.authority import clock_command, number_command
from sabot.boards import names as board_names
from sabot.cagnotte import cli as cagnotte_command
from sabot.deploy import deploy
from sabot.element_bench import address as element_address
from sabot.exit_codes import EXIT_CODES
from sabot.fleet import cli as fleet_command
from sabot.logview import export, show
from sabot.options import SEANCE_MAX, number  # an integer in its bounds, the firmware's own limits
from sabot.ouverte import cli as ouverte_command
from sabot.pit import cli as pit_command
from sabot.report import cli as report_command
from sabot.shoe_link import pull_log, seance_command
from sabot.shoe_status import CHANGING, interrupted, status_command
from sabot.vboard import vboard
from sabot.verify import verify
from sabot.vms import RUNTIMES
from sabot.web import command as web_command

GAME_NAMES = tuple(row[games.NAME] for row in games.GAMES)
REGISTRY_SIGNER_HELP = registry_cli.SIGNER_HELP


def utc_time(text):
    """An argparse type: a UTC time in ISO 8601, to the second."""
    try:
        return datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC)
    except ValueError:
        raise argparse.ArgumentTypeError("%s is not a time as 2026-12-01T09:00:00 (UTC)" % text) from None


def path(text):
    """An argparse type: a path that is not empty ("" would write to the default folder instead)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path: give a file or folder name, or leave the option out")
    return text


class Parser(argparse.ArgumentParser):
    """argparse's, with a mistake said in one line that points to the help, exit 2."""

    def error(self, message):
        self.exit(2, "%s: error: %s (see %s --help)\n" % (self.prog, message, self.prog))


# Each command's exit codes in its --help, from one table (sabot/exit_codes.py).
def exit_codes(codes):
    return "exit codes:\n" + "".join("  %d  %s\n" % (n, said) for n, said in enumerate(codes) if said)


def with_exit_codes(parser, path=()):
    """Every parser of the tree with its exit codes as its epilog, laid out as written."""
    parser.epilog = exit_codes(EXIT_CODES.get(" ".join(path), EXIT_CODES[""]))
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                with_exit_codes(sub, path + (name,))
    return parser


def add_workstation_commands(commands):
    """sabot doctor and sabot completion: the workstation's own commands."""
    from sabot import doctor

    doctor.add_arguments(commands.add_parser("doctor", help="check this workstation and clone: the venv, node_modules, "
                                             "Chromium, the ARM toolchain, the sources, the ports, the registry"))
    completion = commands.add_parser("completion", help="print a shell completion script: source <(sabot completion "
                                     "bash)")
    completion.add_argument("shell", choices=("bash", "zsh", "tcsh"), help="the shell (bash, zsh, tcsh)")


def workstation_command(args, top):
    if args.command == "doctor":
        from sabot import doctor

        return doctor.main(args)
    import shtab

    sys.stdout.write(shtab.complete(top, shell=args.shell))
    return 0


def parser():
    top = Parser(prog="sabot", description=__doc__)
    top.add_argument("--version", action="version", version="sabot %s (firmware %s)" % (tool_version(), VERSION),
                     help="print the tool's and the firmware's versions")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = commands.add_parser("sim", help="play a scenario on the simulated shoe")
    sim.add_argument("scenario", help="scenario file (see docs/scenarios.md)")
    sim.add_argument("--runtime", choices=RUNTIMES, default="cpython",
                     help="run the firmware in this Python, inside the MicroPython unix port (64-bit) or the "
                          "WebAssembly port (32-bit, under Node)")
    sim.add_argument("--log", type=path, help="journal folder to write (default build/runs/NAME.journal)")
    sim.add_argument("--trace", type=path, help="JSON Lines trace to write (default beside the journal)")
    sim.add_argument("--force", action="store_true", help="replace a --log folder that holds other files than the "
                     "simulator's journals")
    sim.add_argument("--quiet", action="store_true", help="print the summary alone, not the timeline")
    log = commands.add_parser("log", help="verify, export or show a card journal").add_subparsers(
        dest="action", required=True, metavar="ACTION")
    key_help = ("a format 3 journal's key file (HMAC tags, hexadecimal); a format 4 journal, signed by the shoe's "
                "element, needs none: --registry or --public-key")
    paths_help = "journal folders or segment files"
    quiet_help = "no progress bar (there is none when stderr is not a terminal)"
    check = log.add_parser("verify", help="check integrity and the rules; exit 0 clean, 1 findings, 2 unusable")
    check.add_argument("paths", nargs="+", metavar="PATH", help=paths_help)
    check.add_argument("--key", help=key_help)
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.add_argument("--same-table", type=number(2, SEANCE_MAX, "count of consecutive séances"), default=3,
                       metavar="N", help="flag a shoe assigned to the same table in N consecutive séances, 2 to %d "
                       "(default 3)" % SEANCE_MAX)
    check.add_argument("--receipt", action="append", default=[], metavar="FILE",
                       help="an earlier receipt of the shoe (pull-log's receipt.json) the journal must extend; "
                            "repeatable: the element's receipts are ordered by its counter")
    check.add_argument("--public-key", metavar="FILE",
                       help="the shoe's secure element's public key (X || Y, hexadecimal): its signed checkpoints "
                            "and receipts are checked with it")
    check.add_argument("--registry", metavar="FILE",
                       help="the casino's registry of shoes (sabot key enrol's shoes.json): the public key of the "
                            "journal's sabot number, its checkpoints checked with it")
    check.add_argument("--registry-signer", action="append", default=[], metavar="FILE",
                       help=REGISTRY_SIGNER_HELP)
    check.add_argument("--quiet", action="store_true", help=quiet_help)
    check.add_argument("--lang", choices=("fr", "en"), default="fr",
                       help="the words' language for people (default fr); --json is in English")
    check.add_argument("--allow-development-key", action="store_true",
                       help="count a journal authenticated by the public development key (the sim's, the tests') "
                            "as clean; without it such a journal is never ok")
    out = log.add_parser("export", help="one row per record, for other programs")
    out.add_argument("paths", nargs="+", metavar="PATH", help=paths_help)
    out.add_argument("--format", choices=("jsonl", "csv"), default="jsonl", help="JSON Lines (default) or CSV")
    out.add_argument("--key", help=key_help)
    out.add_argument("--quiet", action="store_true", help=quiet_help)
    table = log.add_parser("show", help="a readable table, coup by coup")
    table.add_argument("paths", nargs="+", metavar="PATH", help=paths_help)
    table.add_argument("--key", help=key_help)
    table.add_argument("--lang", choices=("fr", "en"), default="fr", help="the words' language (default fr)")
    table.add_argument("--quiet", action="store_true", help=quiet_help)
    key = commands.add_parser("key", help="a shoe's enrolment: its element's public key in the casino's registry "
                              "(docs/keys.md)").add_subparsers(
        dest="action", required=True, metavar="ACTION")
    new = key.add_parser("new", help="make a new random key file (the casino's)")
    new.add_argument("path", help="the key file to create; an existing file is never overwritten")
    registry_help = "the casino's registry of its shoes (default %s)" % keys.REGISTRY
    enrolled = key.add_parser("enrol", help="its number and element's public key read, the shoe written to the "
                              "casino's registry; a production shoe's casino key installed over its protocol")
    enrolled.add_argument("--port", required=True, help="the device: /dev/ttyACM0, or the virtual board's pty")
    enrolled.add_argument("--casino-key", metavar="FILE", help="a production shoe: the casino's key file (sabot key "
                          "new)")
    enrolled.add_argument("--current", metavar="FILE", help="the casino key the shoe holds now, to change it")
    enrolled.add_argument("--code", help="a new production shoe's first enrolment: the one-time enrolment code "
                          "printed on its label (XXXX-XXXX-XXXX-XXXX-XXXX)")
    enrolled.add_argument("--registry", default=keys.REGISTRY, help=registry_help)
    coded = key.add_parser("code", help="the factory's bench: a new shoe's one-time enrolment code written to it "
                           "(development image, over mpremote) and printed for its label")
    coded.add_argument("--port", required=True, help="the device: /dev/ttyACM0, or the virtual board's pty")
    coded.add_argument("--label", metavar="FILE", help="the code written to FILE too (a file never overwritten)")
    exported = key.add_parser("export", help="the casino's registry of its shoes for the ministry, CSV or JSON")
    exported.add_argument("--registry", default=keys.REGISTRY, help=registry_help)
    exported.add_argument("--format", choices=("csv", "json"), default="csv", help="CSV (default) or JSON")
    signer = key.add_parser("signer", help="make a signing key pair for the registry (Ed25519): FILE, private "
                            "(PEM, 0600), and its public key beside it, FILE's name ending .pub (docs/keys.md)")
    signer.add_argument("path", metavar="FILE", help="the private key file to create (casino-signer.pem); neither "
                        "it nor its .pub is ever overwritten")
    for action, who in (("sign", "the casino, who keeps it"), ("countersign", "the approver, who receives the "
                                                                               "commissioning declaration")):
        signing = key.add_parser(action, help="sign the registry as %s: its signatures in REGISTRY.sig" % who)
        signing.add_argument("--registry", default=keys.REGISTRY, help=registry_help)
        signing.add_argument("--signing-key", required=True, metavar="FILE", help="the signer's private key "
                             "(sabot key signer)")
    signing.add_argument("--registry-signer", action="append", default=[], metavar="FILE", help="the casino's "
                         "public key (its .pub): its signature must be this key's; repeatable")
    element = commands.add_parser("element", help="the shoe's secure element at the factory bench (docs/keys.md)"
                                  ).add_subparsers(dest="action", required=True, metavar="ACTION")
    provisioned = element.add_parser("provision", help="a generic ATECC608B configured, locked and its key "
                                     "generated, on a development shoe over mpremote; exit 0 done, 2 refused "
                                     "(a Trust&GO part needs none)")
    provisioned.add_argument("--port", required=True, help="the device: /dev/ttyACM0, or the virtual board's pty")
    provisioned.add_argument("--address", type=element_address, default=0x60, help="the part's I2C address as it "
                             "ships (default 0x60, a generic ATECC608B's)")
    board = commands.add_parser("vboard", help="the virtual board: firmware and sim board behind a pty")
    board.add_argument("--scenario", help="a scenario the board plays at start (config.json names it)")
    board.add_argument("--live", type=int, metavar="MS", help="production: the scenario dealt while the board serves "
                       "its protocol, one command every MS ms (a shoe `sabot pit` follows), rather than at once first")
    board.add_argument("--fs", help="the board's filesystem folder, kept across restarts (default: a new "
                       "temporary folder)")
    board.add_argument("--blank", action="store_true", help="start empty, as a new board: deploy with make deploy")
    board.add_argument("--board", choices=("sim", "rpi_pico"), default="sim", help="sim: the sim board in the "
                       "MicroPython unix port; rpi_pico: the Pico's image on the emulated RP2040 (make image "
                       "BOARD=rpi_pico), --fs then names its flash file")
    board.add_argument("--build", help="the image the board runs (default build/sim; a bundle of make dist to "
                       "answer the firmware challenge)")
    board.add_argument("--element", metavar="PART", help="a new board's secure element, a part number: "
                       "ATECC608B-TNGTLS (Trust&GO), ATECC608B-TFLXTLS, ATECC608B (generic, as it ships), "
                       "ATECC608B-provisioned or ATECC508A (default: the board's, board.json's)")
    board.add_argument("--development", action="store_true", help="the development configuration: mpremote reaches "
                       "the REPL (the default, production, speaks the shoe's protocol alone: docs/protocol.md)")
    port_help = "the device: /dev/ttyACM0, or the virtual board's pty"
    put = commands.add_parser("deploy", help="copy a bundle to a device with mpremote and check it by hash")
    put.add_argument("build", help="the release bundle, e.g. dist/rpi_pico-0.3.0 (make dist BOARD=rpi_pico)")
    put.add_argument("--port", required=True, help=port_help)
    put.add_argument("--check-only", action="store_true", help="only compare the device's files with the bundle")
    pull = commands.add_parser("pull-log", help="fetch the journal and the shoe's receipt: over the protocol from a "
                               "production shoe, over mpremote from a development one")
    pull.add_argument("dest", nargs="?", default="journal", help="folder for the segments (default ./journal)")
    pull.add_argument("--port", required=True, help=port_help)
    pull.add_argument("--force", action="store_true", help="write over segments already in the folder (every "
                      "receipt is kept beside, receipt-UTCTIME.json, for log verify --receipt)")
    pull.add_argument("--quiet", action="store_true", help=quiet_help)
    fw = commands.add_parser("firmware", help="release bundles and the inspector's challenge (H-FIRMWARE)")
    fw = fw.add_subparsers(dest="action", required=True, metavar="ACTION")
    bundle = fw.add_parser("dist", help="make a release bundle of a board's build: files and manifest")
    bundle.add_argument("build", help="the build folder (make mpy BOARD=...)")
    bundle.add_argument("--board", required=True, choices=board_names(), help="the board it is for")
    bundle.add_argument("--out", required=True, help="the bundle folder to write")
    bundle.add_argument("--force", action="store_true", help="replace an --out folder that is not a bundle")
    challenge = fw.add_parser("verify", help="challenge a shoe with a fresh seed against an approved bundle")
    challenge.add_argument("--port", required=True, help=port_help)
    challenge.add_argument("--bundle", required=True, help="the approved bundle (make dist), or a production Pico's "
                           "image (build/rpi_pico-image/firmware.uf2 or .bin of make image)")
    challenge.add_argument("--seed", help="the seed, hexadecimal (default: 32 fresh random bytes)")
    seance = commands.add_parser("seance", help="open or close a séance on a running shoe (S-IDENT): over the "
                                 "protocol under the casino's key (production), over mpremote (development)")
    seance.add_argument("action", choices=("open", "close"), help="open a séance, or close the one open")
    seance.add_argument("--port", required=True, help=port_help)
    seance.add_argument("--table", type=number(1, TABLE_MAX, "table number"),
                        help="the table the shoe is assigned to, 1 to %d (open)" % TABLE_MAX)
    seance.add_argument("--game", choices=GAME_NAMES, default=GAME_NAMES[0],
                        help="the game of the séance (open; default %s)" % GAME_NAMES[0])
    seance.add_argument("--by", type=number(1, EMPLOYEE_MAX, "employee number"),
                        help="the number of the employee who assigns it (Article 58), 1 to %d (open); without it "
                        "the séance is journalled as assigned by employee 0, 'not given', and said so" % EMPLOYEE_MAX)
    casino_help = ("the casino's key file (sabot key new) enrolled on the shoe: a production shoe's commands are "
                   "authenticated under it (docs/protocol.md)")
    seance.add_argument("--casino-key", metavar="FILE", help=casino_help)
    numbered = commands.add_parser("number", help="the shoe's establishment number (S-IDENT), set at commissioning")
    numbered = numbered.add_subparsers(dest="action", required=True, metavar="ACTION").add_parser(
        "set", help="set it and restart the shoe; a journal of another number is kept on the shoe, a new one begun")
    numbered.add_argument("sabot", type=number(0, SABOT_MAX, "sabot number"), help="0 to %d" % SABOT_MAX)
    numbered.add_argument("--port", required=True, help=port_help)
    numbered.add_argument("--casino-key", metavar="FILE", help=casino_help)
    numbered.add_argument("--registry", default=keys.REGISTRY, help="the casino's registry of its shoes, updated "
                          "when it holds the shoe (default %s)" % keys.REGISTRY)
    numbered.add_argument("--replace", action="store_true", help="the number is another element's in the registry: "
                          "this shoe replaces it (the replacement recorded there); refused without")
    state = commands.add_parser("status", help="what a shoe says of itself: its number, its séance, its journal's "
                                "last record and its time, a fault; no key needed (exit 0, 1 in fault, 2 unreachable)")
    state.add_argument("--port", required=True, help=port_help)
    clock = commands.add_parser("clock", help="the shoe's clock (its DS3231), set at commissioning")
    clock = clock.add_subparsers(dest="action", required=True, metavar="ACTION").add_parser(
        "set", help="set it to this workstation's UTC time and restart the shoe (journalled: its boot record)")
    clock.add_argument("--port", required=True, help=port_help)
    clock.add_argument("--at", type=utc_time, help="this UTC time instead, e.g. 2026-12-01T09:00:00")
    clock.add_argument("--casino-key", metavar="FILE", help=casino_help)
    clock.add_argument("--force", action="store_true", help="a time more than a day ahead of the journal's last "
                       "record, refused without (journalled as forced)")
    report_command.add_arguments(commands.add_parser(
        "report", help="the inspector's report: HTML, or PDF for -o FILE.pdf (docs/report.md)"))
    web_command.add_arguments(commands.add_parser(
        "web", help="the shoe in a web page: the firmware on MicroPython's WebAssembly port (docs/web.md)"))
    pit_command.add_arguments(commands.add_parser(
        "pit", help="the casino's shoes followed live: every record verified as it comes, the pit's page and the "
        "tables' screens, a coup recalled card by card (docs/pit.md)"))
    fleet_command.add_arguments(commands.add_parser(
        "fleet", help="a casino's or a country's journals together: ingest, export, check, report (docs/fleet.md)"))
    cagnotte_command.add_arguments(commands.add_parser(
        "cagnotte", help="the levy due to the cagnotte at each coup the bank won (docs/cagnotte.md)"))
    ouverte_command.add_arguments(commands.add_parser(
        "ouverte", help="banque ouverte: the séances' start times declared to the authorities (Article 61)"))
    add_workstation_commands(commands)
    from sabot import nuit  # the casino's night: pull, verify, ingest, report every shoe (docs/fleet.md)

    nuit.add_arguments(commands.add_parser("nuit", aliases=["night"], help="the casino's night: every shoe of the "
                                           "registry pulled, verified, ingested, reported; one French summary"))
    return with_exit_codes(json_out.add_flags(top))


def main(argv=None):
    top = parser()
    try:
        settings.apply(top)  # SABOT_PORT, sabot.toml...: the defaults of --port, --casino-key, --registry, --db
    except settings.BadSettings as e:
        top.exit(2, "sabot: error: %s\n" % e)
    args = top.parse_args(argv)
    if settings.missing(args):
        top.exit(2, "sabot %s: error: %s\n" % (args.command, settings.missing(args)))
    progress.QUIET = getattr(args, "quiet", False)
    if args.command in ("nuit", "night"):
        from sabot import nuit

        return nuit.main(args)
    try:
        with progress.waiting_for(args):  # a shoe's answer awaited over 2 s: said on a terminal
            return _run(args, top)
    except KeyboardInterrupt:
        if args.command not in CHANGING or not getattr(args, "port", None):
            raise
        command = " ".join(w for w in (args.command, getattr(args, "action", None)) if w)
        print(interrupted(command, args.port), file=sys.stderr)
        return 130


def _run(args, top):
    if args.command in ("doctor", "completion"):
        return workstation_command(args, top)
    if args.command == "status":
        return status_command(args.port)
    if args.command == "web":
        return web_command.main(args)
    if args.command == "fleet":
        return fleet_command.main(args)
    if args.command == "pit":
        return pit_command.main(args)
    if args.command == "report":
        return report_command.main(args)
    if args.command == "cagnotte":
        return cagnotte_command.main(args)
    if args.command == "ouverte":
        return ouverte_command.main(args)
    if args.command == "seance":
        if args.action == "open" and args.table is None:
            top.exit(2, "sabot seance: error: give --table (1 to %d) to open a séance\n" % TABLE_MAX)
        return seance_command(args.port, args.action, args.table or 0, args.game, args.by or 0,
                              casino_key=args.casino_key, as_json=args.json)
    if args.command == "number":
        return registry_cli.after_rewrite("sabot number set", args.registry, number_command(
            args.port, args.sabot, casino_key=args.casino_key, registry=args.registry, as_json=args.json,
            replace=args.replace))
    if args.command == "clock":
        return clock_command(args.port, args.at, casino_key=args.casino_key, as_json=args.json, force=args.force)
    if args.command == "firmware":
        if args.action == "dist":
            return firmware.dist(args.build, args.board, args.out, force=args.force)
        return firmware.verify(args.port, args.bundle, args.seed, as_json=args.json)
    if args.command == "vboard":
        return vboard(args.scenario, args.fs, args.blank, args.build, board=args.board, development=args.development,
                      element=args.element, live=args.live)
    if args.command == "element":
        from sabot.element_bench import provision

        return provision(args.port, args.address)
    if args.command == "deploy":
        return deploy(args.port, args.build, args.check_only)
    if args.command == "pull-log":
        return pull_log(args.port, args.dest, args.force, as_json=args.json)
    if args.command == "key":
        if args.action == "enrol":
            return registry_cli.after_rewrite("sabot key enrol", args.registry, keys.enrol(
                args.port, args.casino_key, args.registry, args.current, as_json=args.json, code=args.code))
        if args.action == "code":
            return keys.factory_code(args.port, args.label)
        if args.action == "export":
            return keys.export(args.registry, args.format)
        if args.action == "signer":
            return registry_cli.signer_command(args.path)
        if args.action == "sign":
            return registry_cli.sign_command(args.registry, args.signing_key, "casino", ())
        if args.action == "countersign":  # under the casino's signature, checked with --registry-signer
            return registry_cli.sign_command(args.registry, args.signing_key, "approbateur", args.registry_signer)
        return keys.new_key(args.path)
    if args.command == "sim":
        from sabot.simulate import simulate  # the sim board loads (and tunes its heap) for `sabot sim` alone

        return simulate(args.scenario, args.runtime, args.log, args.trace, force=args.force, quiet=args.quiet)
    if args.action == "verify":
        return verify(args.paths, args.key, args.json, args.same_table, args.receipt,
                      allow_development_key=args.allow_development_key, lang=args.lang, public_key=args.public_key,
                      registry=args.registry, registry_signers=args.registry_signer)
    if args.action == "export":
        return export(args.paths, args.format, args.key)
    return show(args.paths, args.key, lang=args.lang)


def run():
    """The console entry point: a closed pipe (sabot log export ... | head) ends quietly."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
        status = 1
    except KeyboardInterrupt:
        print("sabot: interrupted", file=sys.stderr)
        status = 130
    return status


if __name__ == "__main__":
    sys.exit(run())
