"""`sabot pit`: the casino's shoes followed live (docs/pit.md). A thread a shoe reads its journal as it grows
(mirror.py), verifies it whole with the approver's verifier as `sabot log verify` and `sabot fleet ingest` do
(the chain, every checkpoint's signature with the shoe's public key from the casino's registry, the rules), has
its new records written into the casino's DuckDB database (the fleet's schema; database.py writes them every half
second, the file let go in between for `sabot fleet`), folds them into the table's screen (table.py)
and raises each new finding at once: on the pit's output, in the database, on the pages. A journal that does not
verify adds nothing; the shoe's records already taken stay."""

import json
import os
import sys
import threading
import time
from pathlib import Path

from sabot import checkpoints
from sabot.device import DeviceError
from sabot.fleet import store
from sabot.fleet.ingest import Refused, element_keys, verified_live
from sabot.journalfile import Reader, load_segments
from sabot.journalfile import Unusable as JournalUnusable
from sabot.nuit import folder_name  # a shoe's folder, as the night's
from sabot.pit.database import Writes
from sabot.pit.mirror import Diverged, Mirror
from sabot.pit.table import Table
from sabot.report.findings_fr import french
from sabot.verify import read_key

POLL_S = 0.05  # between two reads of a shoe that had nothing new
RETRY_S = 1.0  # after a shoe that did not answer (a cable pulled, a restart)
ANSWER_S = 3.0  # a request unanswered this long (a garbled answer, a cable pulled) is asked again on a new link
_FOLLOWING, _SILENT, _REFUSED = "suivi", "sans réponse", "refusé"


class Followed:
    """One shoe as the pit sees it: its port, its journal's copy, its screen, what it said last."""

    def __init__(self, port, sabot=None):
        self.port = port
        self.sabot = sabot  # the registry's number for the port (None: a port given alone)
        self.mirror = None
        self.table = Table(sabot)
        self.link = _SILENT
        self.why = None  # why it is refused or silent, in French
        self.found = set()  # (seq, id, message) of the findings raised already
        self.records = 0
        self.bad_frames = 0  # frames from the shoe that failed their CRC
        self.seen_ms = {}  # seq: the pit's time (ms since the epoch) it first saw the record, for the latency's bench


class Pit:
    """The shoes of registry (its ports, plus extra ports), followed into the database db under casino; each shoe's
    journal copied into folder/sabot-NNNN. findings: every finding raised, most recent last (the pages' list)."""

    def __init__(self, registry, db, casino, folder, ports=(), signers=(), out=sys.stdout):
        from sabot.registry_signatures import trust_of

        store.casino_name(casino)  # as sabot fleet ingest takes it: Unusable otherwise
        self.registry = Path(registry)
        self.trust = trust_of(str(registry), signers)
        self.folder = Path(folder)
        self.casino = casino
        self.out = out
        self.lock = threading.Lock()  # the shared state
        self.writes = Writes(db, casino, lambda shoe, why: self._refuse(shoe, "J-TAMPER", why))
        self.findings = []
        self.shoes = []
        for shoe in self.trust.held["shoes"]:
            if shoe.get("port") and all(s.sabot != shoe["sabot"] for s in self.shoes):
                port = shoe["port"]
                if not Path(port).is_absolute():
                    port = str(self.registry.parent / port)
                self.shoes.append(Followed(port, shoe["sabot"]))
        self.shoes += [Followed(port) for port in ports]
        self.stopping = threading.Event()
        self.threads = []

    def start(self):
        for shoe in self.shoes:
            thread = threading.Thread(target=self._follow, args=(shoe,), daemon=True)
            thread.start()
            self.threads.append(thread)
        self.writes.start(self.stopping)
        return self

    def stop(self):
        """The shoes let go, the last records written: said when the database stayed held by another program."""
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=15)
        if not self.writes.stop():
            records, shoes = self.writes.waiting()
            self.out.write("sabot pit : %d enregistrement(s) de %d sabot(s) pas écrits dans la base, tenue par un "
                           "autre programme (%s) : ils sont dans les copies du pit, et le relevé de la nuit les y "
                           "mettra\n" % (records, shoes, self.writes.held))
            self.out.flush()

    def _follow(self, shoe):
        from sabot import protocol
        from sabot.production_link import production

        client = None
        if shoe.sabot is not None and any((self.folder / folder_name(shoe.sabot)).glob("*.sbj")):
            shoe.mirror = Mirror(self.folder / folder_name(shoe.sabot))  # the copy kept: on screen, shoe or not
            self._verify(shoe)
        while not self.stopping.is_set():
            try:
                if client is None:
                    client = production(shoe.port)
                    if client is None:
                        raise DeviceError("pas un sabot de production (no production shoe on %s)" % shoe.port)
                    client.timeout = ANSWER_S
                    self._meet(shoe, client.status())
                if shoe.link == _REFUSED:
                    self.stopping.wait(RETRY_S)
                    continue
                added = shoe.mirror.follow(client)
                self._garbled(shoe, client)
                if added:
                    self._verify(shoe)
                shoe.link, shoe.why = _FOLLOWING, None
                self.stopping.wait(0 if added else POLL_S)
            except (DeviceError, protocol.ProtocolError, protocol.Refused, OSError, ValueError) as e:
                if client is not None:
                    self._garbled(shoe, client)
                    client.link.close()
                    client = None
                if shoe.link != _REFUSED:
                    shoe.link, shoe.why = _SILENT, str(e)
                self._rest(shoe)
            except Diverged as e:  # said, nothing of the read kept; read again later: a replay on the cable passes,
                self._refuse(shoe, "J-TAMPER", str(e))  # a journal truly rewritten on the shoe diverges again
                shoe.why = str(e)
                self.stopping.wait(RETRY_S)
        if client is not None:
            client.link.close()

    def _rest(self, shoe):
        """After a shoe that did not answer: RETRY_S, less when its port was gone and comes (a cable plugged in, a
        shoe switched on: followed at once, its first records not a second late)."""
        gone = not os.path.exists(shoe.port)
        deadline = time.monotonic() + RETRY_S
        while not self.stopping.wait(POLL_S) and time.monotonic() < deadline:
            if gone and os.path.exists(shoe.port):
                return

    def _garbled(self, shoe, client):
        """Frames from the shoe that failed their CRC (a cable's noise, or bytes not the shoe's): dropped, the
        request asked again, nothing taken from them; said once (P-FRAME), counted on the pages."""
        if client.framer.bad:
            shoe.bad_frames += client.framer.bad
            client.framer.bad = 0
            self._raise(shoe, None, "P-FRAME", "des trames abîmées sont venues du port %s : rejetées par leur CRC, "
                        "la lecture reprise, rien n'en est pris (frames failed their CRC)" % shoe.port)

    def _meet(self, shoe, status):
        """The shoe's number from its status: one the registry does not hold, or not the one it gives the port, is
        refused (a finding; nothing of it written)."""
        sabot = status["sabot"]
        known = {s["sabot"] for s in self.trust.held["shoes"]}
        if sabot not in known or shoe.sabot not in (None, sabot):
            why = ("le sabot %d n'est pas au registre du casino : rien de son journal n'est pris (sabot %d is not "
                   "in the casino's registry)" % (sabot, sabot) if sabot not in known else
                   "le port %s est celui du sabot %d au registre, mais le sabot qui y répond dit %d (the shoe on the "
                   "port says %d)" % (shoe.port, shoe.sabot, sabot, sabot))
            if shoe.link != _REFUSED:
                shoe.sabot = shoe.sabot or sabot
                self._refuse(shoe, "K-REGISTRY", why)
            shoe.link, shoe.why = _REFUSED, why
            return
        shoe.sabot = shoe.table.sabot = sabot
        if shoe.mirror is None:
            shoe.mirror = Mirror(self.folder / folder_name(sabot))

    def public_keys(self, shoe):
        return element_keys(self.trust, shoe.sabot)[0]

    def _verify(self, shoe):
        """The copy verified whole and its new records into the database, the screen folded again; new findings
        raised."""
        public_keys, unknown = element_keys(self.trust, shoe.sabot)
        try:
            if unknown:
                raise Refused(unknown)
            segments = load_segments([shoe.mirror.folder])
            per_segment, findings = verified_live(segments, read_key(None), [shoe.mirror.folder], public_keys)
        except (Refused, JournalUnusable) as e:  # the read's bytes off the copy again: nothing of them kept
            shoe.mirror.rollback()
            self._refuse(shoe, "J-TAMPER", str(e))
            return
        now = int(time.time() * 1000)
        table = Table(shoe.sabot)
        for rows in per_segment:
            for row in rows:
                table.feed(row)
                shoe.seen_ms.setdefault(row[0], now)
        with self.lock:
            shoe.table, shoe.records = table, sum(map(len, per_segment))
        self.writes.store(shoe, segments, per_segment, findings)
        new = [f for f in findings if (f.seq, f.id, f.message) not in shoe.found]
        if new:
            points = checkpoints.read([shoe.mirror.folder])
            fields = {r.seq: r.fields for r in Reader(segments, read_key(None), wanted=checkpoints.wanted(points))}
            for f in new:
                shoe.found.add((f.seq, f.id, f.message))
                self._raise(shoe, f.seq, f.id, french(f, fields.get(f.seq), table.game), f.message)

    def _refuse(self, shoe, kind, why):
        """A shoe's journal not taken (not in the registry, not verified, rewritten under the copy): nothing of it
        written; the finding raised and kept in the database as the shoe's journal's findings now."""
        if (None, kind, why) not in shoe.found:
            self.writes.refuse(shoe, shoe.sabot, kind, why)
        self._raise(shoe, None, kind, why)

    def _raise(self, shoe, seq, kind, said, message=None):
        if (seq, kind, said) in shoe.found:  # a journal refused again at its next record: said once
            return
        shoe.found.add((seq, kind, said))
        found = {"at_ms": int(time.time() * 1000), "sabot": shoe.sabot, "table": shoe.table.table, "seq": seq,
                 "id": kind, "said": said, "message": message or said}
        with self.lock:
            self.findings.append(found)
        self.writes.finding(found)
        self.out.write("CONSTAT sabot %s%s : %s — %s%s\n" % (
            shoe.sabot if shoe.sabot is not None else "?", ", table %d" % shoe.table.table if shoe.table.table else "",
            kind, said, ", enregistrement %d" % seq if seq is not None else ""))
        self.out.flush()

    def state(self):
        """Every table's screen and the findings: the pages' JSON, the tables with an alarm or a finding first."""
        with self.lock:
            tables = []
            for shoe in self.shoes:
                shown = shoe.table.state()
                flagged = [f for f in self.findings if f["sabot"] == shoe.sabot]
                shown.update(port=shoe.port, link=shoe.link, why=shoe.why, records=shoe.records, findings=flagged,
                             sabot=shoe.sabot, bad_frames=shoe.bad_frames)
                tables.append(shown)
            tables.sort(key=lambda t: (not (t["alarms"] or t["findings"] or t["link"] == _REFUSED),
                                       t["table"] or 0, t["sabot"] or 0))
            return {"casino": self.casino, "now_ms": int(time.time() * 1000), "tables": tables,
                    "findings": list(self.findings), "database": self.writes.held}

    def state_json(self):
        return json.dumps(self.state(), ensure_ascii=False).encode("utf-8")
