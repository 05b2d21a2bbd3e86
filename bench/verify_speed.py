"""Verify throughput: a journal of N card records (default one million) checked by `sabot log verify`'s code,
against plain hashlib.sha256 over the same bytes. Prints one JSON line; asserts nothing.

    .venv/bin/python bench/verify_speed.py [N]
"""

import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

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
from sabot.verify import check


def write_journal(folder, cards):
    """A journal of chemin de fer shoes, as the shoe writes them (load; coups of no more bets, release
    intents, cards and coup end; the stop card), through the firmware's own writer, until `cards` card
    records."""
    storage = FileStorage(str(folder))
    ctl = Controller()
    clock = [0]

    def wall_ms():
        clock[0] += 500
        return clock[0]

    log = journal.Journal(storage, journal.Key(DEVELOPMENT_KEY), 1, b"bench\0\0\0\0\0\0\0\0\0\0\0", wall_ms)
    log.recover(ctl)
    body = bytearray(journal.BODY_SIZE)
    written = taille = 0

    def record(rtype, coup=0, position=0, card=0, disposition=DEALT, code=0):
        if log.due():
            log.rotate(ctl)
        journal.pack_body(body, rtype, 1, taille, coup, position, card, disposition, NORMAL, code)
        log.append(body)

    while written < cards:
        taille += 1
        record(R_LOAD)
        position = coup = 0
        while position < 305 and written < cards:
            coup += 1
            record(R_NO_MORE_BETS, coup, position)
            for _ in range(min(6, 305 - position)):
                position += 1
                record(R_RELEASE, coup, position - 1, code=1)
                record(R_CARD, coup, position, position % 52)
                written += 1
            record(R_COUP_END, coup, position)
        if written < cards:
            record(R_RELEASE, coup, position, code=2)
            record(R_CARD, coup, position + 1, STOP, STOP_CARD)
            written += 1
    log.close()


def main(cards):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "journal"
        started = time.perf_counter()
        write_journal(folder, cards)
        written = time.perf_counter() - started
        data = b"".join(p.read_bytes() for p in sorted(folder.iterdir()))
        started = time.perf_counter()
        hashlib.sha256(data).digest()
        hashing = time.perf_counter() - started
        started = time.perf_counter()
        _, reader, findings = check([folder], DEVELOPMENT_KEY)
        verifying = time.perf_counter() - started
    assert not findings, findings[0].message
    print(json.dumps({"card_records": cards, "records": reader.records, "bytes": len(data),
                      "write_s": round(written, 2), "sha256_s": round(hashing, 3), "verify_s": round(verifying, 2),
                      "records_per_s": round(reader.records / verifying),
                      "verify_to_sha256": round(verifying / hashing, 1)}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
