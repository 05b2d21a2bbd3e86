"""`sabot fleet ingest`: journals into the fleet database, each verified whole by the approver's verifier first
(sabot.verify's reader and rules) against the shoe's receipt found with it. A journal `sabot log verify` does not
call intact, or with no receipt to show that nothing was cut from its end, is refused with its finding and adds
nothing; one that verifies adds, in one transaction, the records of the segments not yet in the database (a
segment that grew since, its new records), so ingesting the same segments twice adds nothing. The rules' findings
(a stop card misplaced, ...) are kept beside the records, as `sabot log verify` states them."""

import hashlib
import sys
import time
from pathlib import Path

import pyarrow as pa

from sabot import checkpoints, receipts
from sabot.fleet import schema, store
from sabot.fleet.assignment import assignment_findings
from sabot.fleet.store import Unusable
from sabot.journalfile import ALL_TYPES, Reader, load_segments
from sabot.journalfile import Unusable as JournalUnusable
from sabot.registry_signatures import error_line, trust_of
from sabot.report.text import Words, firmware_words
from sabot.rules import ARTICLES, Rules
from sabot.verify import authenticity, is_development, journals_of, read_key

_FRENCH = Words("fr")  # the firmware as the fleet's pages and the report say it
_INSERT = ("INSERT INTO records SELECT $casino, sabot, segment, seq, type, time_ms, "
           "strftime(make_timestamp((time_ms + %d) * 1000), '%%Y-%%m'), seance, taille, coup, position, "
           "card, disposition, condition, code FROM batch" % schema.EPOCH_MS)
_ROW_COLUMNS = ("seq", "type", "time_ms", "seance", "taille", "coup", "position", "card", "disposition",
                "condition", "code")  # a reader's row (sabot.journalfile)


def known_elsewhere(con, casino, keyed):
    """(casino, sabot, key id) of a journal's shoe the database holds under another casino, when it holds nothing
    of casino: the same sabot number and element (or key file), never the development key's shared id; else None."""
    if con.execute("SELECT count(*) FROM segments WHERE casino = ?", [casino]).fetchone()[0]:
        return None
    for _, segments, key, _, _ in keyed:
        if is_development(segments, key):
            continue
        key_id = segments[0].key_id.hex()
        row = con.execute("SELECT casino FROM segments WHERE casino <> ? AND sabot = ? AND key_id = ? ORDER BY casino "
                          "LIMIT 1", [casino, segments[0].sabot, key_id]).fetchone()
        if row:
            return row[0], segments[0].sabot, key_id
    return None


def receipt_of(folder):
    """The SHA-256 of the receipt the journal was verified against, kept with its segments."""
    path = Path(folder) / receipts.NAME
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def key_for(keys, segments):
    """A format 3 journal's key: KEYS/sabot-NNNN.key (docs/journal-format.md, "Format 3"), or the development key
    without a keys folder; a format 4 journal needs none (its element's public key, from the registry, checks it)."""
    sabot = segments[0].sabot
    if keys is None or not segments[0].format.tagged:
        return read_key(None)
    path = Path(keys) / ("sabot-%04d.key" % sabot)
    if not path.exists():
        raise Unusable("%s: no key for sabot %d" % (path, sabot))
    return read_key(path)


def element_keys(trust, sabot):
    """(the shoe's element's public keys the casino's registry (its Trust) holds, why there are none): no registry,
    no keys and no reason; a sabot not enrolled there, or one the registry names a K-REGISTRY finding of, its reason
    (the journal is refused, the others still ingested)."""
    if trust is None:
        return [], None
    try:
        keys = checkpoints.registry_keys(trust.path, sabot)
    except checkpoints.NotEnrolled as e:
        return [], str(e)
    doubled = trust.findings(sabot)  # K-REGISTRY: refused, the finding said
    return (keys, None) if not doubled else ([], "%s (K-REGISTRY)" % doubled[0].message)


def verified(segments, key, receipt=None, paths=None, public_keys=(), trust=None):
    """(rows a segment, findings of the whole journal as `sabot log verify` states them, against its receipt and,
    with public_keys, its element's checkpoints: paths, the journal's folder, where they are found; with the
    registry's trust, a journal of an element replaced before its end) in one reading."""
    signed_points = checkpoints.read(paths) if paths is not None else None
    reader = Reader(segments, key, wanted=checkpoints.wanted(signed_points))
    rules = Rules()
    wanted = rules.types
    per_segment = []
    for _segment, rows, _ in reader.scanned(ALL_TYPES):
        rules.fold([row for row in rows if wanted >> row[1] & 1])
        per_segment.append(rows)
    reader.finish()
    reader.elements = rules.elements  # the counter values the shoe says it spent with no checkpoint
    points, signed = checkpoints.findings(paths, segments, reader.seq, public_keys, reader, signed_points)
    ends = receipts.findings(segments, reader.seq, key, receipt, [], public_keys, paths, points)
    retired = trust.findings(segments[0].sabot, segments[0].key_id, reader.last_time) if trust else []
    findings = sorted(reader.findings + rules.findings + ends + signed + authenticity(segments, key, public_keys)[2]
                      + retired, key=lambda f: f.seq)
    findings += [f for _, f in assignment_findings([("", segments[0].sabot, rules.seances)], 3)]  # verify's default
    return per_segment, findings


class Refused(Exception):
    """A journal not ingested, with the finding why."""


def _new_rows(stored, casino, segment, rows):
    """The rows of a segment the database lacks, and its segments-table row (None when it has it whole); Refused
    when the stored segment is not the start of this one (a rewritten journal, or another under its number)."""
    data = segment.data
    if stored and (stored[0] > len(data) or hashlib.sha256(data[:stored[0]]).hexdigest() != stored[1]):
        raise Refused("%s : refusé, le segment %d diffère de celui que la base tient pour le sabot %d (segment "
                      "differs from the one already in the database)" % (segment.path, segment.number, segment.sabot))
    if stored and stored[0] == len(data):
        return [], None
    if stored:
        rows = [row for row in rows if row[0] > stored[2]]
    first = rows[0][0] if rows else segment.seq_before
    last = rows[-1][0] if rows else segment.seq_before
    entry = (casino, segment.sabot, segment.number, len(data), hashlib.sha256(data).hexdigest(), first, last,
             len(rows), segment.key_id.hex(), firmware_words(segment.firmware, _FRENCH), str(segment.path),
             int(time.time() * 1000), receipt_of(segment.path.parent))
    return rows, entry


def _table(columns, rows):
    return pa.table(dict(zip(columns, map(list, zip(*rows)))))


def ingest_journal(con, casino, segments, key, receipt=None, paths=None, public_keys=(), trust=None):
    """Verify one journal and add what the database lacks of it, in one transaction: (records added, findings
    kept); Refused with the finding when it is not intact, has no receipt, or its element's checkpoints or receipt
    do not verify with public_keys (J-TAMPER), or when the registry (trust) says its element was replaced before
    the journal's end (K-REGISTRY, as a sabot under two elements is refused)."""
    per_segment, findings = verified(segments, key, receipt, paths, public_keys, trust)
    retired = [f for f in findings if f.id == "K-REGISTRY"]
    if retired:
        raise Refused("%s : refusé, son élément a été remplacé avant la fin du journal (refused: %s) (K-REGISTRY)" % (
            segments[0].path.parent, retired[0].message))
    return store_verified(con, casino, segments, per_segment, findings)


def verified_live(segments, key, paths, public_keys):
    """`sabot pit`'s verification of a journal as it grows (sabot.pit), with no database: verified whole as
    ingest_journal does, but with no receipt yet, its end vouched for by the next pull's (the pit then checks that
    the two agree): (rows a segment, findings); Refused as ingest_journal. store_verified then adds it."""
    per_segment, findings = verified(segments, key, None, paths, public_keys)
    findings = [f for f in findings if f.message != receipts.NO_RECEIPT]
    _refusal(segments, findings)
    return per_segment, findings


def _refusal(segments, findings):
    """Refused, with the finding, for a journal that is not intact or has no receipt (J-TAMPER), or holds segments
    of more than one sabot."""
    broken = sorted((f for f in findings if f.id == "J-TAMPER"), key=lambda f: f.message == receipts.NO_RECEIPT)
    if broken:
        label = segments[0].path.parent
        if broken[0].message == receipts.NO_RECEIPT:
            raise Refused("%s : refusé, pas de %s : rien ne montre qu'aucun enregistrement n'a été coupé à la fin "
                          "(refused, no %s)" % (label, receipts.NAME, receipts.NAME))
        raise Refused("%s : refusé, intégrité rompue au n° %d (refused, integrity broken: %s)" % (
            label, broken[0].seq, broken[0].message))
    if any(s.sabot != segments[0].sabot for s in segments):
        raise Refused("%s : refusé, des segments de plus d'un sabot dans un journal (segments of more than one sabot "
                      "in one journal)" % segments[0].path.parent)


def store_verified(con, casino, segments, per_segment, findings):
    """A verified journal's rows the database lacks added in one transaction, its findings kept: (records added,
    findings); Refused, with the finding, when it is not intact or has no receipt (J-TAMPER)."""
    _refusal(segments, findings)
    sabot = segments[0].sabot
    stored = {number: rest for number, *rest in con.execute(
        "SELECT segment, bytes, sha256, last_seq FROM segments WHERE casino = ? AND sabot = ?",
        [casino, sabot]).fetchall()}
    columns = {name: [] for name in ("segment",) + _ROW_COLUMNS}  # built by column: no tuple a record
    entries = []
    for segment, found in zip(segments, per_segment):
        new, entry = _new_rows(stored.get(segment.number), casino, segment, found)
        if entry:
            entries.append(entry)
            columns["segment"] += [segment.number] * len(new)
            for name, values in zip(_ROW_COLUMNS, zip(*new)):
                columns[name] += values
    if not entries:
        return 0, findings
    added = len(columns["seq"])
    with store.transaction(con):
        if added:
            columns["sabot"] = [sabot] * added
            con.register("batch", pa.table(columns))
            con.execute(_INSERT, {"casino": casino})
            con.unregister("batch")
        grown = [e[2] for e in entries if e[2] in stored]
        if grown:
            con.execute("DELETE FROM segments WHERE casino = ? AND sabot = ? AND list_contains(?, segment)",
                        [casino, sabot, grown])
        con.register("entries", _table(schema.SEGMENT_COLUMNS, entries))
        con.execute("INSERT INTO segments SELECT * FROM entries")
        con.unregister("entries")
        # the journal's findings as its whole verification states them now
        con.execute("DELETE FROM journal_findings WHERE casino = ? AND sabot = ?", [casino, sabot])
        if findings:
            con.register("found", _table(schema.FINDING_COLUMNS, [
                (casino, sabot, f.seq, f.id, ARTICLES[f.id], f.message) for f in findings]))
            con.execute("INSERT INTO journal_findings SELECT * FROM found")
            con.unregister("found")
    return added, findings


def ingest(paths, db, casino, keys=None, out=sys.stdout, err=sys.stderr, registry=None, as_json=False,
           new_casino=False, registry_signers=()):
    """Exit status: 0 every journal in, 1 some refused (each named with why), 2 unusable input (nothing written).
    registry: the casino's shoes.json, whose public key of each journal's sabot checks its element's signatures;
    a sabot not enrolled there is refused. A casino the database does not hold, named for a shoe it holds under
    another casino (a typo), is unusable input unless new_casino says it is a new one. registry_signers: the
    registry's signers trusted (sabot.registry_signatures): a registry they do not vouch for is refused or said."""
    try:
        store.casino_name(casino)
        trust = trust_of(registry, registry_signers) if registry else None
        journals = [(group, load_segments(group), receipts.found_in(group)) for group in journals_of(paths)]
        keyed = [(group, segments, key_for(keys, segments), receipt, element_keys(trust, segments[0].sabot))
                 for group, segments, receipt in journals]
        con = store.open_database(db)
    except (JournalUnusable, Unusable) as e:
        print("sabot fleet ingest: %s" % error_line(e), file=err)
        return 2
    clash = None if new_casino else known_elsewhere(con, casino, keyed)
    if clash:
        con.close()
        print("sabot fleet ingest: error: le casino « %s » n'est pas dans %s, et le sabot %d (élément %s) y est au "
              "casino « %s » : une faute de frappe ? Rien n'est écrit ; --new-casino si c'est bien un nouveau "
              "casino (casino %r is not in the database; sabot %d is %r's there)" % (
                  casino, db, clash[1], clash[2], clash[0], casino, clash[1], clash[0]), file=err)
        return 2
    if trust and not as_json:  # who vouches for the public keys the registry gives, or nobody
        out.write(trust.said("fr") + "\n")
    status, done = 0, []
    try:
        for group, segments, key, receipt, (public_keys, unknown) in keyed:
            label = segments[0].path.parent
            try:
                if unknown:
                    raise Refused("%s : refusé, les signatures de son élément ne peuvent être vérifiées (refused, "
                                  "its element's signatures cannot be checked: %s)" % (label, unknown))
                if authenticity(segments, key, public_keys)[1]:
                    raise Refused("%s : refusé, les signatures de son élément ne peuvent être vérifiées : donner le "
                                  "registre du casino, --registry shoes.json (refused, its element's signatures cannot "
                                  "be checked)" % label)
                added, findings = ingest_journal(con, casino, segments, key, receipt, group, public_keys,
                                                 trust)
            except Refused as e:
                print("sabot fleet ingest: %s" % e, file=err)
                status = 1
                done.append({"journal": str(label), "sabot": segments[0].sabot, "refused": str(e)})
                continue
            done.append({"journal": str(label), "sabot": segments[0].sabot, "added": added,
                         "findings": len(findings), "refused": None})
            if as_json:
                continue
            out.write("%s : sabot %d, %d enregistrement(s) ajouté(s)%s\n" % (
                label, segments[0].sabot, added, ", %d constat(s) de sa vérification gardé(s)" % len(findings)
                if added and findings else "" if added else " (déjà dans la base ; already in the database)"))
    finally:
        con.close()
    if as_json:
        from sabot.json_out import said

        said(out, "fleet ingest", db=str(db), casino=casino, journals=done,
             **({"registry": trust.as_json()} if trust else {}))
    return status
