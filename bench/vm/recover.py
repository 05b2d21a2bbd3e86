"""Boot recovery on the VM: Journal.recover of a journal folder written on CPython (bench/journals.py), which
restores the controller from the last segment's header and records only, however long the journal.

    micropython -m recover MODE FOLDER [RUNS]          (compiled: bench/vmrun.py)

  base     imports, the key, a journal and a controller made, nothing recovered: what callgrind subtracts
  recover  Journal.recover once (callgrind counts it)
  time     RUNS recoveries, each timed with a fresh journal and controller (prints one JSON line of microseconds)
"""

import json
import sys
import time

from boards.sim.devices import SimWall
from firmware.controller import Controller
from firmware.devkey import DEVELOPMENT_KEY
from firmware.journal import Journal
from firmware.mac import Key
from firmware.storage import FileStorage

FIRMWARE = b"bench\0\0\0\0\0\0\0\0\0\0\0"  # bench/journals.py's


def fresh(folder, key):
    return Journal(FileStorage(folder), key, 1, FIRMWARE, SimWall(time.ticks_ms, 0)), Controller()


def main(argv):
    mode, folder = argv[0], argv[1]
    key = Key(DEVELOPMENT_KEY)
    journal, ctl = fresh(folder, key)
    if mode == "recover":
        journal.recover(ctl)
        journal.close()
        print(json.dumps({"records": journal.records, "seq": journal.seq}))
    elif mode == "time":
        took = []
        for _ in range(int(argv[2])):
            journal, ctl = fresh(folder, key)
            started = time.ticks_us()
            journal.recover(ctl)
            took.append(time.ticks_diff(time.ticks_us(), started))
            journal.close()
        print(json.dumps({"us": took, "records": journal.records, "seq": journal.seq}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
