"""`sabot log verify`: the approver's check of a journal's integrity and of the rules it shows (H-VERIFY)."""

import json
import re
import struct
import sys
from pathlib import Path

from firmware import games
from firmware import layout as fmt
from firmware.devkey import DEVELOPMENT_KEY
from firmware.format.words import LANGUAGES, key32
from firmware.format.words import authority as authority_words
from firmware.mac import Key
from firmware.records import AU_CLOCK, AU_CLOCK_FORCED, AU_KEY, AU_NUMBER, R_LOAD
from sabot import _frames, builds, checkpoints, element, kept, progress, receipts
from sabot.fleet.assignment import assignment_findings
from sabot.journalfile import ALL_TYPES, ISSUES, Finding, Reader, Record, Unusable, load_segments
from sabot.registry_signatures import trust_of
from sabot.report.findings_fr import error_fr, french
from sabot.report.text import Words, firmware_words
from sabot.rules import ARTICLES, Rules
from sabot.verify_words import DEVELOPMENT_WORDS, SAID  # noqa: F401 (the report's)

SAME_TABLE = 3  # séances running at one table that make an S-IDENT finding, unless --same-table says otherwise
_KEY_FILE_MOST = 1024  # bytes: a key file is 65; /dev/zero is not read without end


def read_key(path):
    """A key file holds the shoe's key as hexadecimal text (docs/keys.md); None gives the development key."""
    if path is None:
        return DEVELOPMENT_KEY
    try:
        with open(path, "rb") as f:
            text = f.read(_KEY_FILE_MOST + 1)
        if len(text) > _KEY_FILE_MOST:
            raise ValueError("larger than a key file (%d bytes at most)" % _KEY_FILE_MOST)
        key = bytes.fromhex(text.decode("ascii").strip())
    except FileNotFoundError:
        raise Unusable("%s: no such key file" % path) from None
    except (OSError, UnicodeError, ValueError) as e:
        reason = getattr(e, "strerror", None) or e
        raise Unusable("%s: not a key file (hexadecimal text): %s" % (path, reason)) from None
    if len(key) < 16:
        raise Unusable("%s: a key has at least 16 bytes, this one %d" % (path, len(key)))
    return key


def check(paths, key, records=None, same_table=None, wanted=None):
    """(segments, reader, findings sorted by seq) for a journal; Unusable when it cannot be read at all.
    A list given as records receives every record read, for a caller that shows them (the report); same_table
    adds verify's S-IDENT findings of a shoe assigned to one table that many séances running; wanted, the chain
    values the reader keeps for the checkpoints (sabot.checkpoints.wanted)."""
    segments, reader, rules = _check(paths, key, records, wanted)
    found = journal_findings(segments, reader, rules)
    if same_table is not None:
        found += [f for _, f in assignment_findings([("", segments[0].sabot, rules.seances)], same_table)]
    return segments, reader, sorted(found, key=lambda f: f.seq)


def is_development(segments, key):
    """Whether a journal is vouched for by the public development key only: format 3's tags under it (key), format
    4's headers naming it (the sim's, or a board with no element answering)."""
    if segments[0].format.tagged:
        return key == DEVELOPMENT_KEY
    return segments[0].key_id == Key(DEVELOPMENT_KEY).id


def development_only(paths, key_file, allowed):
    """Whether a journal's tools (cagnotte, ouverte) must say it is vouched for by the development key alone: not
    allowed, and its format 3 tags under it (no --key) or its format 4 headers naming it (the sim's)."""
    return not allowed and is_development(load_segments(paths), read_key(key_file))


def element_findings(segments, keys, development):
    """A format 4 journal (not the development key's) whose headers name another element than the public keys given:
    one J-TAMPER finding."""
    first = segments[0]
    if first.format.tagged or not keys or development:
        return []
    ids = [element.key_id(k) for k in keys]
    if first.key_id in ids:
        return []
    return [Finding("J-TAMPER", first.seq_before, "%s: written under another element (key id %s); the public key "
                    "given has key id %s" % (first.path.name, first.key_id.hex(), ids[0].hex()))]


def authenticity(segments, key, keys):
    """(development, unsigned, findings) of one journal, given the public keys of its element: whether it names the
    development key; whether it is an element's format 4 journal with no public key to check its signatures (never
    ok: anyone can recompute a chain); the finding of headers naming another element."""
    development = is_development(segments, key)
    unsigned = not (keys or segments[0].format.tagged or development)
    return development, unsigned, element_findings(segments, keys, development)


def conforms(findings, development, allow_development_key):
    """verify's result: no finding (a missing receipt is one), and the development key only when allowed."""
    return not findings and (not development or allow_development_key)


_UNDER_ANOTHER_KEY = re.compile(re.escape(ISSUES[_frames.FORGED]).replace(re.escape("%(seq)d"), r"\d+")
                                + "|segment header fails its HMAC|written under another key")


_FOREIGN = "written under another element"  # element_findings' words


def journal_findings(segments, reader, rules):
    """A journal's findings but its ends': its reading's, its rules', a development build after the approved one."""
    return one_key_finding(segments, reader) + rules.findings + builds.development_findings(segments)


def one_key_finding(segments, reader):
    """The reader's findings, with those a wrong key gives (every tag of a segment under another key fails) said
    once a key: which segments, under which key id, and the id of the key given."""
    findings = reader.findings
    mine = reader.key_id
    ranges = {}  # a foreign key id: its segments and the seqs their findings stand at
    for at, segment in enumerate(segments):
        if segment.key_id != mine:
            end = segments[at + 1].seq_before if at + 1 < len(segments) else reader.seq
            ranges.setdefault(segment.key_id, []).append((segment, segment.seq_before, end))
    if not ranges:
        return list(findings)
    spans = [(low, high) for spans in ranges.values() for _, low, high in spans]
    kept = [f for f in findings if not (_UNDER_ANOTHER_KEY.search(f.message)
                                        and any(low <= f.seq <= high for low, high in spans))]
    for key_id, found in ranges.items():
        names = found[0][0].path.name + ("" if len(found) == 1 else " to %s (%d segments)" % (
            found[-1][0].path.name, len(found)))
        kept.append(Finding("J-TAMPER", found[0][1], "%s written under another key (key id %s); the key given has key "
                            "id %s: its tags cannot be checked; give the shoe's own key (--key)" % (names, key_id.hex(),
                                                                                       mine.hex())))
    return kept


def _check(paths, key, records=None, wanted=None):
    segments = load_segments(paths)
    reader = Reader(segments, key, wanted=wanted)
    rules = Rules()
    if records is None:  # the quickest way: no row built, release intents folded into the next (Reader.picked)
        for segment, picks in progress.over_segments(segments, reader.picked(rules.types), "verify"):
            rules.header(segment.number, segment.snapshot, segment.seq_before)
            rules.fold_frames(segment.data, memoryview(picks).cast("I"))
    else:
        for segment, rows, offsets in reader.scanned(ALL_TYPES):
            rules.header(segment.number, segment.snapshot, segment.seq_before)
            for row, offset in zip(rows, offsets):
                rules.feed(row)
                records.append(Record(row, segment, offset))
    reader.finish()
    rules.finish(reader.seq)
    reader.elements = rules.elements  # the counter values the shoe says it spent with no checkpoint
    return segments, reader, rules


def journals_of(paths):
    """Each folder is a journal of its own; segment files given one by one make one journal together."""
    folders = [[p] for p in paths if Path(p).is_dir()]
    files = [p for p in paths if not Path(p).is_dir()]
    return folders + ([files] if files else [])


def verify(paths, key_file, as_json, same_table=SAME_TABLE, receipt_files=(), out=sys.stdout,
           allow_development_key=False, lang="fr", public_key=None, registry=None, registry_signers=()):
    """Exit status 0 only for a journal with no finding authenticated by a key the user gave, or by the
    development key when allow_development_key says that is what the caller means (the sim's and tests' journals):
    anyone can re-sign a journal with the public development key (H-VERIFY). People read it in French unless lang
    says "en"; --json is for programs, its messages in English. public_key (a file) or registry (the casino's
    shoes.json): the shoe's element's public key, with which its signed checkpoints are checked (sabot.checkpoints);
    without either, verify says they were not checked. registry_signers: the public key files of the registry's
    signers the user trusts (sabot.registry_signatures): a registry they do not vouch for is refused or said."""
    try:
        trust = trust_of(registry, registry_signers) if registry else None
        key = read_key(key_file)
        given = [checkpoints.read_public_key(public_key)] if public_key else []
        earlier = [receipts.load(path) for path in receipt_files]
        checked = []
        points = []
        unchecked = 0  # journals whose receipt the element signed, with no public key to check it
        development = False
        unsigned = 0  # format 4 journals of an element, with no public key to check its signatures
        foreign = 0  # journals whose headers name another element than the public key given: one finding each
        cut = 0  # journals whose receipt does not vouch for their end: a finding says why
        for group in journals_of(paths):
            # The checkpoint file is read only for a public key that checks it; without one verify says it did not
            signed_points = checkpoints.read(group) if given or registry else None
            segments, reader, rules = _check(group, key, wanted=checkpoints.wanted(signed_points))
            keys = given + (checkpoints.registry_keys(registry, segments[0].sabot) if registry else [])
            one_development, one_unsigned, other_element = authenticity(segments, key, keys)
            development |= one_development
            unsigned += one_unsigned
            foreign += bool(other_element)
            keys = [] if other_element else keys  # another element's key checks nothing: its one finding says so
            result, signed = checkpoints.findings(group, segments, reader.seq, keys, reader, signed_points)
            signed = other_element + signed + (trust.findings(  # K-REGISTRY
                segments[0].sabot, segments[0].key_id, reader.last_time) if trust else [])
            at_end = receipts.found_in(group)
            unchecked += bool(at_end and at_end.version in receipts.BY_ELEMENT and not keys and not other_element)
            ends = receipts.findings(segments, reader.seq, key, at_end,
                                     [r for r in earlier if r.sabot == segments[0].sabot], keys, group, result)
            cut += any(f.message != receipts.NO_RECEIPT for f in ends)
            points.append(result)
            checked.append((" ".join(map(str, group)), segments, reader, rules, ends + signed))
    except Unusable as e:
        said = error_fr(e) if lang == "fr" and not as_json else str(e)
        print("sabot log verify: %s%s" % ("erreur : " if said != str(e) else "error: ", said), file=sys.stderr)
        return 2
    findings = [(label, f) for label, segments, reader, rules, ends in checked for f in sorted(
        journal_findings(segments, reader, rules) + ends, key=lambda f: f.seq)]
    findings += assignment_findings([(label, segments[0].sabot, rules.seances)
                                     for label, segments, _, rules, _ in checked], same_table)
    gaps, vouched = kept.linked([(c[0], c[1][0].key_id, result) for c, result in zip(checked, points)])
    findings = [(label, f) for label, f in findings if label not in vouched or f.message != receipts.NO_RECEIPT]
    findings += gaps
    foreign_findings = {id(f) for _, _, _, _, ends in checked for f in ends if _FOREIGN in f.message}
    intact = not any(f.id == "J-TAMPER" and f.message != receipts.NO_RECEIPT and id(f) not in foreign_findings
                     for _, f in findings)
    ok = conforms(findings, development, allow_development_key) and not unsigned
    many = len(checked) > 1
    if as_json:
        json.dump({"ok": ok, "records": sum(c[2].records for c in checked), "intact": intact,
                   "checkpoints": [p.as_json() for p in points] if many else points[0].as_json(),
                   "key": "development" if development else "provided",
                   **({"development_key": DEVELOPMENT_WORDS} if development else {}),
                   **({"registry": trust.as_json()} if trust else {}),
                   "authority": [_authority_json(*a) for c in checked for a in c[3].authorities],
                   "findings": [dict({"id": f.id, "article": ARTICLES[f.id], "seq": f.seq, "message": f.message},
                                     **({"journal": label} if many else {})) for label, f in findings]}, out)
        out.write("\n")
        return 0 if ok else 1
    said, w = SAID[lang], Words(lang)
    for label, segments, reader, _, _ in checked:
        first = segments[0]
        out.write(said["journal"] % (" " + label if many else "", first.sabot, _builds_said(segments, w),
                                     len(segments), reader.records, reader.first_seq, reader.seq))
    if development:
        out.write(said["key"])
    out.write(said["broken"] if not intact else said["foreign"] if foreign else said["intact"])
    unvouched = sum(1 for _, f in findings if f.message == receipts.NO_RECEIPT)
    out.write(said["unvouched"] % unvouched if unvouched else said["cut"] if cut else said["end foreign"] if foreign
              else said["unchecked"] if unchecked else said["vouched"])
    for (label, _, _, _, ends), result in zip(checked, points):
        other = any(_FOREIGN in f.message for f in ends)
        out.write(checkpoints_said(result, said, label if many else "", other))
    for label, _, _, rules, _ in checked:  # P-AUTHORITY: each change of the casino's authority, who asked
        for seq, _, what, who, before, after in rules.authorities:
            out.write(said["authority"] % (" " + label if many else "", seq, authority_words(
                what, who, before, after, LANGUAGES[lang])))
    if trust:  # who vouches for the public keys the registry gave, or nobody
        out.write(trust.said(lang) + "\n")
    words = _in_french(checked, findings) if lang == "fr" else {}
    for label, f in findings:
        out.write(said["finding"] % (label + " " if many else "", f.seq, f.id, ARTICLES[f.id],
                                     words.get(id(f), f.message)))
    if findings:
        out.write(said["findings"] % len(findings))
    elif unsigned:
        out.write(said["unsigned"])
    elif not ok:
        out.write(said["development"])
    else:
        out.write(said["clean"] + (said["allowed"] if development else "") + "\n")
    return 0 if ok else 1


def _authority_json(seq, time, what, who, before, after):
    """An authority change for programs: what (number, casino_key, clock, clock_forced), who asked (the casino key
    id's first 4 bytes, hexadecimal; None over mpremote), before and after (key ids as who; times in seconds since
    2020-01-01 UTC)."""
    if what == AU_KEY:
        before, after = key32(before) or None, key32(after)
    return {"seq": seq, "what": {AU_NUMBER: "number", AU_KEY: "casino_key", AU_CLOCK: "clock",
                                 AU_CLOCK_FORCED: "clock_forced"}.get(what, what),
            "who": key32(who) or None, "before": before, "after": after}


def _builds_said(segments, w):
    """The builds that wrote the journal, each with its segments when there are several (sabot.builds)."""
    runs = builds.spans(segments)
    if len(runs) == 1:
        return firmware_words(runs[0][0], w)
    return "; ".join("%s (%s)" % (firmware_words(identity, w), w["segments_n"] % (first.number, last.number))
                     for identity, first, last in runs)


def checkpoints_said(result, said, label, foreign=False):
    """The checkpoints' line: not checked (no public key, or another element's), or how many, their counters and
    what follows the last (or that the journal ends before it: cut)."""
    where = " " + label if label else ""
    if foreign:
        return said["points foreign"] % where
    if not result.checked:
        return said["points unchecked"] % where
    if not result.entries:
        return said["points none"] % where
    first, last = result.entries[0], result.entries[-1]
    if result.after < 0:
        return said["points beyond"] % (where, len(result.entries), first.counter, last.counter, last.seq,
                                        last.seq + result.after)
    return said["points"] % (where, len(result.entries), first.counter, last.counter, last.seq, result.after)


def _in_french(checked, findings):
    """Each finding's French (sabot.report.findings_fr), said from the record it stands at and the game then."""
    segments_of = {label: segments for label, segments, _, _, _ in checked}
    return {id(f): french(f, *_record_at(segments_of.get(label, ()), f.seq)) for label, f in findings}


_SNAPSHOT_GAME = 7  # the game's byte in a segment header's controller snapshot (docs/journal-format.md)


def _record_at(segments, seq):
    """Record seq's row and the game in force there, read from its own segment's bytes (the header's snapshot,
    then the loads before it): a finding's words cost no second pass over the journal. The row is None where no
    whole frame stands at seq (a header's finding, a torn end)."""
    found = [s for s in segments if s.seq_before < seq]
    if not found:
        return None, games.CHEMIN_DE_FER
    segment = found[-1]
    game = segment.snapshot[_SNAPSHOT_GAME]
    body = None
    for i in range(seq - segment.seq_before):
        body = segment.body_at(i)
        if body is None:
            break
        body = struct.unpack_from(fmt.BODY, body)
        if body[0] == R_LOAD:
            game = body[-1]
    game = game if game < len(games.GAMES) else games.CHEMIN_DE_FER
    if body is None:
        return None, game
    return (seq, body[0], body[1] * 1000 + body[2]) + body[3:], game
