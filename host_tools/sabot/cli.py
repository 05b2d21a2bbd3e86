"""The `sabot` command for technicians and approvers."""

import argparse
import sys

from sabot.simulate import simulate


def main(argv=None):
    parser = argparse.ArgumentParser(prog="sabot", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("sim", help="play a scenario on the simulated shoe")
    sim.add_argument("scenario", help="scenario file (see docs/scenarios.md)")
    sim.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython",
                     help="run the firmware in this Python or inside the MicroPython unix port")
    sim.add_argument("--log", help="journal to write (default build/sim/NAME.journal)")
    sim.add_argument("--trace", help="JSON Lines trace to write (default beside the journal)")
    args = parser.parse_args(argv)
    if args.command == "sim":
        return simulate(args.scenario, args.runtime, args.log, args.trace)
    return 2


if __name__ == "__main__":
    sys.exit(main())
