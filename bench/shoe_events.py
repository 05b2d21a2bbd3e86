"""The whole chemin de fer shoe as the shell hears it: every (event, argument, time) Shell.handle receives on the sim
board, recorded once on CPython into a file that bench/vm/replay.py replays into the bare firmware, with the
journal the sim wrote, to check that the replay writes the very same bytes."""

import struct
from array import array
from pathlib import Path

from boards.sim.board import SimBoard
from boards.sim.runner import run
from boards.sim.scenario import commands
from firmware.events import EV_CARD, EV_SEANCE
from firmware.shell import Shell
from firmware.storage import FileStorage

ROOT = Path(__file__).resolve().parent.parent
FULL_SHOE = ROOT / "boards" / "sim" / "scenarios" / "full_shoe_chemin_de_fer.txt"


def journal_bytes(folder):
    """The journal's segments, concatenated in order."""
    return b"".join(p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.suffix == ".sbj")


def record(out, folder, scenario=FULL_SHOE):
    """Play the scenario with its journal in `folder`, the events into file `out`; returns the shoe's counts."""
    events = []
    handle = Shell.handle

    def recording(shell, event, arg, now):
        if event == EV_SEANCE and not arg:  # the panel's button: the séance its board's config gives, said whole
            arg = shell.panel_seance
        events.append((event, arg, now))
        return handle(shell, event, arg, now)

    Shell.handle = recording  # boot's own events go through handle too; nothing else sees this class meanwhile
    try:
        board = SimBoard(FileStorage(str(folder)))
        with open(scenario) as f:
            run(commands(f, str(scenario)), board)
        records = board.shell.journal.seq
        board.close()
    finally:
        Shell.handle = handle
    columns = [bytes(e[0] for e in events), array("I", (e[1] for e in events)), array("I", (e[2] for e in events))]
    Path(out).write_bytes(struct.pack("<I", len(events)) + b"".join(bytes(c) for c in columns))  # vm/replay.py
    cards = board.shoe.out
    if cards != sum(e[0] == EV_CARD for e in events):
        raise AssertionError("%d cards out of the shoe, %d sensed" % (cards, sum(e[0] == EV_CARD for e in events)))
    return {"cards": cards, "events": len(events), "records": records, "journal_bytes": len(journal_bytes(folder))}
