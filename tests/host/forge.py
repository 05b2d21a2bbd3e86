"""Journals a shoe could not have written, signed properly: an honest sim journal's records, edited, then
written again under the development key, as a forger or a faulty controller holding the key would. The
verifier's blind spots are found with them (tests/host/test_verifier_states.py)."""

from boards.sim.board import SimBoard
from boards.sim.devices import SimWall
from boards.sim.flash import MemoryStorage
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import journal, layout
from firmware.controller import Controller
from firmware.devkey import DEVELOPMENT_KEY
from firmware.mac import Key
from firmware.storage import FileStorage
from sabot.journalfile import Reader, Segment
from sabot.verify import check


def played(text, segment_records=None):
    """{segment number: bytes} of the journal a scenario leaves on the sim board."""
    storage = MemoryStorage(1 << 22)
    run(parse(text), SimBoard(storage, segment_records=segment_records))
    return {n: bytes(d) for n, d in storage.files.items()}


def rows(files):
    """The records of a journal's segments as lists: journalfile's row (SEQ, TYPE, TIME ... CODE)."""
    from pathlib import Path
    segments = [Segment(Path("%08d.sbj" % n), data) for n, data in sorted(files.items())]
    return [list(r.fields) for r in Reader(segments, DEVELOPMENT_KEY)]


def write(folder, files):
    folder.mkdir(parents=True, exist_ok=True)
    for n, data in files.items():
        (folder / ("%08d.sbj" % n)).write_bytes(data)
    return folder


def forge(folder, records, sabot_from=None):
    """Writes records (rows; their seq ignored, renumbered) as a new journal in folder, properly signed; from the
    record index sabot_from on, in a new segment of sabot number 2."""
    now = [0]
    wall = SimWall(lambda: now[0], 0)
    log = journal.Journal(FileStorage(str(folder)), Key(DEVELOPMENT_KEY), 1, bytes(16), wall)
    ctl = Controller()  # the records replayed, for the new segment header's snapshot
    log.recover(ctl)
    body = bytearray(layout.BODY_SIZE)
    for i, r in enumerate(records):
        if i == sabot_from:
            log.sabot = 2
            log.rotate(ctl)
        journal.pack_body(body, *r[1:2], *r[3:])
        now[0] = r[2]
        log.append(body)
        try:
            ctl.restore(bytes(body))
        except (ValueError, IndexError):
            pass  # a record the controller cannot apply (an alarm of code 0, a game it does not have): forged
    log.close()
    return folder


def findings(folder):
    """(id, message) of each of verify's findings."""
    return [(f.id, f.message) for f in check([folder], DEVELOPMENT_KEY)[2]]


def index(records, rtype, nth=0, **where):
    """The index of the nth record of a type whose fields match where (journalfile's field names, lower case)."""
    from sabot import journalfile
    found = [i for i, r in enumerate(records) if r[journalfile.TYPE] == rtype
             and all(r[getattr(journalfile, k.upper())] == v for k, v in where.items())]
    return found[nth]


RESTARTS = ("seance table=1\nshoe seed=3\nno_more_bets\ndraw 6\npower_cut\npower_on\nno_more_bets\ndraw 6\n"
            "power_cut\npower_on\n")


def restarted(folder):
    """A journal whose shoe lost its power once, then was restarted once with the power on (a soft reset)."""
    from firmware.records import BOOT_RESTART, R_BOOT
    from sabot.journalfile import CODE

    records = rows(played(RESTARTS))
    records[index(records, R_BOOT, 2)][CODE] = BOOT_RESTART
    return forge(folder, records)
