"""Journals as the shoe writes them, made on CPython with the firmware's own Journal, for the figures that need a
long one (boot recovery, verify throughput): chemin de fer shoes, coup after coup, under the development key."""

from boards.sim.devkey import DEVELOPMENT_KEY
from firmware import journal
from firmware.cards import STOP
from firmware.controller import (
    DEALT,
    NORMAL,
    R_CARD,
    R_COUP_END,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RELEASE,
    STOP_CARD,
    Controller,
)
from firmware.storage import FileStorage

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


def write_journal(folder, cards=None, records=None):
    """A journal in `folder` of chemin de fer shoes (load; coups of no more bets, release intents, cards and coup
    end; the stop card), through the firmware's own writer, until `cards` card records or `records` records."""
    storage = FastStorage(str(folder))
    ctl = Controller()
    clock = [0]

    def wall_ms():
        clock[0] += 500
        return clock[0]

    log = journal.Journal(storage, journal.Key(DEVELOPMENT_KEY), 1, FIRMWARE, wall_ms)
    log.recover(ctl)
    body = bytearray(journal.BODY_SIZE)
    state = {"cards": 0, "taille": 0}

    def record(rtype, coup=0, position=0, card=0, disposition=DEALT, code=0):
        if records is not None and log.seq >= records:
            raise _Full()
        if log.due():
            log.rotate(ctl)
        journal.pack_body(body, rtype, 1, state["taille"], coup, position, card, disposition, NORMAL, code)
        log.append(body)
        if rtype == R_CARD:
            state["cards"] += 1

    def more():
        return cards is None or state["cards"] < cards

    try:
        while more():
            state["taille"] += 1
            record(R_LOAD)
            position = coup = 0
            while position < 305 and more():
                coup += 1
                record(R_NO_MORE_BETS, coup, position)
                for _ in range(min(6, 305 - position)):
                    position += 1
                    record(R_RELEASE, coup, position - 1, code=1)
                    record(R_CARD, coup, position, position % 52)
                record(R_COUP_END, coup, position)
            if more():
                record(R_RELEASE, coup, position, code=2)
                record(R_CARD, coup, position + 1, STOP, STOP_CARD)
    except _Full:
        pass
    log.close()
    return log.seq
