"""Journals as the shoe writes them, made on CPython with the firmware's own Journal, for the figures that need a
long one (boot recovery, verify throughput): chemin de fer shoes, coup after coup as the tableau deals them, under
the development key, so that the verifier does all its work on them; with an element, its checkpoints
signed at each séance, coup's opening and coup's end and the pull's receipt, as a board's (firmware/checkpoints.py)."""

from boards.sim.devices import SimWall
from firmware import checkpoints, journal, layout
from firmware import records as rec
from firmware.cards import STOP
from firmware.controller import Controller
from firmware.devkey import DEVELOPMENT_KEY
from firmware.format import checkpoint as entry
from firmware.mac import Key
from firmware.receipt import receipt
from firmware.storage import FileStorage
from firmware.tableau import NONE, Coup

_STOP_AT = 306  # the stop card's position in a six-deck shoe: seven cards behind it (S-STOPPOS)
_NO_HAND_MAY_DRAW = 2  # a coup end's code (docs/journal-format.md)

FIRMWARE = b"bench\0\0\0\0\0\0\0\0\0\0\0"


class _Unflushed:
    """A segment's file whose flush() does nothing: the same bytes, without a system call a record (durability is
    not what these journals are for)."""

    def __init__(self, path):
        self._stream = open(path, "ab", buffering=1 << 20)  # the journal closes it
        self.write = self._stream.write
        self.close = self._stream.close

    def flush(self):
        pass


class FastStorage(FileStorage):
    def appender(self, segment):
        return _Unflushed(self._path(segment))


class _Full(Exception):
    pass


def write_journal(folder, cards=None, records=None, element=None):
    """A journal in `folder` of chemin de fer shoes, a séance each (load; coups of no more bets, then a release
    intent and a card for each card the tableau deals, the result and the coup end; the stop card in the coup it
    falls in, and the shoe closed after that coup), through the firmware's own writer, until `cards` card records
    or `records` records. With element (sabot.fleet.synth's Element), signed by it: its checkpoints after the boot,
    each séance and each coup's end, and at the end the pull's and its receipt (receipt.json)."""
    storage = FastStorage(str(folder))
    points = checkpoints.Checkpoints(str(folder), element, 1) if element else None
    ctl = Controller()
    clock = [0]

    def uptime_ms():
        clock[0] += 500
        return clock[0]

    key = points.key() if points else Key(DEVELOPMENT_KEY)  # the element's journal key, and how it signs
    log = journal.Journal(storage, key, 1, FIRMWARE, SimWall(uptime_ms, 0))
    log.recover(ctl)

    def checkpoint(reason):
        if points:
            points.append(reason, log.segment, log.seq, log.chain)
    body = bytearray(layout.BODY_SIZE)
    state = {"cards": 0, "taille": 0, "seance": 0}
    hands = Coup()

    def record(rtype, coup=0, position=0, card=0, disposition=rec.DEALT, code=0):
        if records is not None and log.seq >= records:
            raise _Full()
        if log.due():
            log.rotate(ctl)
        journal.pack_body(body, rtype, state["seance"], state["taille"], coup, position, card, disposition,
                          rec.NORMAL, code)
        log.append(body)
        ctl.restore(body)  # the controller's state, for the next segment header's snapshot
        if rtype == rec.R_CARD:
            state["cards"] += 1

    def more():
        return cards is None or state["cards"] < cards

    try:
        record(rec.R_BOOT)
        checkpoint(entry.BOOT)
        coup = position = 0
        while more():
            state["seance"] += 1
            # A séance a shoe (no coup outside one), at tables 1 to 4 in turn: never three at one table (S-IDENT).
            record(rec.R_SEANCE, coup, position, code=1 + state["seance"] % 4)
            checkpoint(entry.SEANCE)
            state["taille"] += 1
            record(rec.R_LOAD)
            position = coup = 0
            stop_out = False
            while not stop_out and more():
                coup += 1
                hands.start(False)
                record(rec.R_NO_MORE_BETS, coup, position)
                checkpoint(entry.OPENING)  # signed before the coup's first card (issue 37); its end, same value
                hand = hands.next_hand()
                while hand != NONE:
                    if position + 1 == _STOP_AT:
                        record(rec.R_RELEASE, coup, position, code=1)
                        position += 1
                        record(rec.R_CARD, coup, position, STOP, rec.STOP_CARD)
                        stop_out = True
                    record(rec.R_RELEASE, coup, position, code=1)
                    position += 1
                    record(rec.R_CARD, coup, position, position % 52, code=hand + 1)
                    hands.add(hand, position % 52)
                    hand = hands.next_hand()
                counts = hands.counts
                record(rec.R_RESULT, coup, position, counts[0] | counts[1] << 2 | counts[2] << 4, hands.hands,
                       code=hands.packed_result())
                record(rec.R_COUP_END, coup, position, code=_NO_HAND_MAY_DRAW)
                checkpoint(entry.COUP_END)
            if stop_out:
                record(rec.R_CLOSED, coup, position)
    except _Full:
        pass
    log.close()
    if points:
        checkpoint(entry.PULL)
        with open("%s/receipt.json" % folder, "w") as f:
            f.write(receipt(log, bytes(32), points) + "\n")
    return log.seq
