"""The pit's writes into the casino's DuckDB database, gathered and written every WRITE_S in one opening of it, the
file let go in between: DuckDB lets one process at a time open a database, and `sabot fleet` (a query, a check)
reads it meanwhile (store.open_database waits for the pit's write to end). The pages never wait for the database:
they are drawn from what the pit holds; a write the database refuses for a while (another program holding it) is
kept and written at the next try."""

import threading
import time

from sabot.fleet import store
from sabot.fleet.ingest import Refused, store_verified
from sabot.fleet.store import Unusable
from sabot.rules import ARTICLES

WRITE_S = 0.5  # between two writes
STOP_S = 10.0  # how long the last write waits for a database another program holds


class Writes:
    """What is to be written: each shoe's journal as last verified and its refusal, in the order they came (a
    journal verified after its refusal replaces the refusal's findings, as the other way round), and the findings
    raised. on_refused(shoe, why): a journal the database refuses (a segment it holds differs)."""

    def __init__(self, path, casino, on_refused):
        store.open_database(path).close()  # made, or its version checked: Unusable otherwise
        self.path = path
        self.casino = casino
        self.on_refused = on_refused
        self.lock = threading.Lock()
        self.order = 0
        self.shoes = {}  # shoe: {"store": (order, "store", (segments, rows a segment, findings)), "refuse": ...}
        self.raised = []  # findings (the pit's dicts) for pit_findings
        self.held = None  # why the last write waits, None once written
        self.thread = None

    def store(self, shoe, segments, per_segment, findings):
        self._put(shoe, "store", (segments, per_segment, findings))

    def refuse(self, shoe, sabot, kind, why):
        self._put(shoe, "refuse", (sabot, kind, why))

    def finding(self, found):
        with self.lock:
            self.raised.append(found)

    def _put(self, shoe, what, args):
        with self.lock:
            self.order += 1
            self.shoes.setdefault(shoe, {})[what] = (self.order, what, args)

    def start(self, stopping):
        self.thread = threading.Thread(target=self._writing, args=(stopping,), daemon=True)
        self.thread.start()

    def _writing(self, stopping):
        while not stopping.wait(WRITE_S):
            self.write()

    def stop(self):
        """The last write, once the shoes' threads are done: False when the database stayed held (said by the pit)."""
        if self.thread:
            self.thread.join(timeout=15)
        deadline = time.monotonic() + STOP_S
        while not self.write():
            if time.monotonic() > deadline:
                return False
            time.sleep(WRITE_S)
        return True

    def waiting(self):
        """(records not written yet, their shoes): what the last write could not put in the database."""
        with self.lock:
            stored = [a["store"][2] for a in self.shoes.values() if "store" in a]
        return sum(sum(map(len, rows)) for _, rows, _ in stored), len(stored)

    def write(self):
        """Everything gathered, in one opening of the database; True once written (or nothing to write)."""
        with self.lock:
            shoes, raised = self.shoes, self.raised
            self.shoes, self.raised = {}, []
        if not shoes and not raised:
            return True
        try:
            con = store.open_database(self.path, wait=0)
        except Unusable as e:  # another program holds it: all of it kept for the next try, the newer kept first
            with self.lock:
                for shoe, actions in shoes.items():
                    self.shoes[shoe] = dict(actions, **self.shoes.get(shoe, {}))
                self.raised = raised + self.raised
                self.held = str(e)
            return False
        try:
            for shoe, actions in shoes.items():
                for _, what, args in sorted(actions.values()):
                    if what == "store":
                        self._store(con, shoe, *args)
                    else:
                        self._refuse(con, *args)
            for found in raised:
                _keep(con, self.casino, found)
        finally:
            con.close()
        self.held = None
        return True

    def _store(self, con, shoe, segments, per_segment, findings):
        try:
            store_verified(con, self.casino, segments, per_segment, findings)
        except Refused as e:  # a segment the database holds differs from the pit's copy: said, nothing written
            self.on_refused(shoe, str(e))

    def _refuse(self, con, sabot, kind, why):
        """A journal not taken: its finding, the shoe's journal's findings now."""
        with store.transaction(con):
            con.execute("DELETE FROM journal_findings WHERE casino = ? AND sabot = ?", [self.casino, sabot])
            con.execute("INSERT INTO journal_findings VALUES (?, ?, ?, ?, ?, ?)",
                        [self.casino, sabot, 0, kind, ARTICLES[kind], why])


def _keep(con, casino, found):
    """A finding raised into pit_findings, once: a pit started again raises the journal's findings again, the row of
    the first time stays."""
    key = [casino, found["sabot"], found["seq"], found["id"], found["said"]]
    if con.execute("SELECT count(*) FROM pit_findings WHERE casino = ? AND sabot IS NOT DISTINCT FROM ? AND "
                   "seq IS NOT DISTINCT FROM ? AND id = ? AND message = ?", key).fetchone()[0]:
        return
    con.execute("INSERT INTO pit_findings VALUES (make_timestamp(? * 1000), ?, ?, ?, ?, ?, ?, ?)", [
        found["at_ms"], casino, found["sabot"], found["table"], found["seq"], found["id"], ARTICLES[found["id"]],
        found["said"]])
