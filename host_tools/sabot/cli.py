"""The `sabot` command for technicians and approvers."""

import argparse
import os
import secrets
import sys

from sabot import firmware
from sabot.logview import export, show
from sabot.report import cli as report_command
from sabot.shoe_link import deploy, pull_log, seance_command, vboard
from sabot.simulate import simulate
from sabot.verify import verify
from sabot.web import command as web_command


def main(argv=None):
    parser = argparse.ArgumentParser(prog="sabot", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("sim", help="play a scenario on the simulated shoe")
    sim.add_argument("scenario", help="scenario file (see docs/scenarios.md)")
    sim.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython",
                     help="run the firmware in this Python or inside the MicroPython unix port")
    sim.add_argument("--log", help="journal folder to write (default build/runs/NAME.journal)")
    sim.add_argument("--trace", help="JSON Lines trace to write (default beside the journal)")
    log = commands.add_parser("log", help="verify, export or show a card journal").add_subparsers(
        dest="action", required=True)
    key_help = "the shoe's key file (hexadecimal); without it, the development key"
    check = log.add_parser("verify", help="check integrity and the rules; exit 0 clean, 1 findings, 2 unusable")
    check.add_argument("paths", nargs="+", metavar="PATH", help="journal folders or segment files")
    check.add_argument("--key", help=key_help)
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.add_argument("--same-table", type=int, default=3, metavar="N",
                       help="flag a shoe assigned to the same table in N consecutive séances (default 3)")
    check.add_argument("--allow-development-key", action="store_true",
                       help="count a journal authenticated by the public development key (the sim's, the tests') "
                            "as clean; without it such a journal is never ok")
    out = log.add_parser("export", help="one row per record, for other programs")
    out.add_argument("paths", nargs="+", metavar="PATH")
    out.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    out.add_argument("--key", help=key_help)
    table = log.add_parser("show", help="a readable table, coup by coup")
    table.add_argument("paths", nargs="+", metavar="PATH")
    table.add_argument("--key", help=key_help)
    keys = commands.add_parser("key", help="shoe keys for the journal's HMAC").add_subparsers(
        dest="action", required=True)
    new = keys.add_parser("new", help="make a new random key file (docs/keys.md)")
    new.add_argument("path", help="the key file to create; an existing file is never overwritten")
    board = commands.add_parser("vboard", help="the virtual board: firmware and sim board behind a pty")
    board.add_argument("--scenario", help="a scenario the board plays at start (config.json names it)")
    board.add_argument("--fs", help="the board's filesystem folder (default: a new temporary folder)")
    board.add_argument("--blank", action="store_true", help="start empty, as a new board: deploy with make deploy")
    put = commands.add_parser("deploy", help="copy a build to a device with mpremote and check it by hash")
    put.add_argument("build", help="the build folder, e.g. build/rpi_pico (make mpy BOARD=rpi_pico)")
    put.add_argument("--port", required=True, help="the device: /dev/ttyACM0, or the virtual board's pty")
    put.add_argument("--check-only", action="store_true", help="only compare the device's files with the build")
    pull = commands.add_parser("pull-log", help="fetch the journal from a device over mpremote")
    pull.add_argument("dest", nargs="?", default="journal", help="folder for the segments (default ./journal)")
    pull.add_argument("--port", required=True)
    fw = commands.add_parser("firmware", help="release bundles and the inspector's challenge (H-FIRMWARE)")
    fw = fw.add_subparsers(dest="action", required=True)
    bundle = fw.add_parser("dist", help="make a release bundle of a board's build: files and manifest")
    bundle.add_argument("build", help="the build folder (make mpy BOARD=...)")
    bundle.add_argument("--board", required=True)
    bundle.add_argument("--out", required=True, help="the bundle folder to write")
    challenge = fw.add_parser("verify", help="challenge a shoe with a fresh seed against an approved bundle")
    challenge.add_argument("--port", required=True)
    challenge.add_argument("--bundle", required=True, help="the approved bundle (make dist)")
    challenge.add_argument("--seed", help="the seed, hexadecimal (default: 32 fresh random bytes)")
    seance = commands.add_parser("seance", help="open or close a séance on a running shoe over mpremote (S-IDENT)")
    seance.add_argument("action", choices=("open", "close"))
    seance.add_argument("--port", required=True)
    seance.add_argument("--table", type=int, default=0, help="the table the shoe is assigned to (open)")
    seance.add_argument("--game", default="chemin_de_fer", help="the game of the séance (open)")
    seance.add_argument("--by", type=int, default=0, help="the number of the employee who assigns it (open)")
    report_command.add_arguments(commands.add_parser(
        "report", help="the approver's report: one self-contained HTML file (docs/report.md)"))
    web_command.add_arguments(commands.add_parser(
        "web", help="the shoe in a web page: the firmware on MicroPython's WebAssembly port (docs/web.md)"))
    args = parser.parse_args(argv)
    if args.command == "web":
        return web_command.main(args)
    if args.command == "report":
        return report_command.main(args)
    if args.command == "seance":
        return seance_command(args.port, args.action, args.table, args.game, args.by)
    if args.command == "firmware":
        if args.action == "dist":
            return firmware.dist(args.build, args.board, args.out)
        return firmware.verify(args.port, args.bundle, args.seed)
    if args.command == "vboard":
        return vboard(args.scenario, args.fs, args.blank)
    if args.command == "deploy":
        return deploy(args.port, args.build, args.check_only)
    if args.command == "pull-log":
        return pull_log(args.port, args.dest)
    if args.command == "key":
        return new_key(args.path)
    if args.command == "sim":
        return simulate(args.scenario, args.runtime, args.log, args.trace)
    if args.action == "verify":
        return verify(args.paths, args.key, args.json, args.same_table,
                      allow_development_key=args.allow_development_key)
    if args.action == "export":
        return export(args.paths, args.format, args.key)
    return show(args.paths, args.key)


def new_key(path):
    """32 random bytes as hexadecimal text, in a file only its owner can read."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as e:
        print("sabot key new: error: %s: %s" % (path, e.strerror), file=sys.stderr)
        return 2
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32) + "\n")
    print("key written to %s; copy it to the shoe as /keys/sabot.key (docs/keys.md)" % path)
    return 0


def run():
    """The console entry point: a closed pipe (sabot log export ... | head) ends quietly."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(run())
