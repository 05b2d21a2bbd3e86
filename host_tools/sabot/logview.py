"""`sabot log export` for other programs (JSON Lines, CSV) and `sabot log show` for people (H-EXPORT). Both check
the journal's integrity as they read it and say on stderr, exit 1, when it is broken: what they show is then not
the shoe's record."""

import json
import sys

from firmware import cards, games, records
from firmware.format import words
from firmware.record_names import R_BURST, unpack_authority, unpack_employee, unpack_hand
from sabot import csvout, progress, receipts, times
from sabot.journalfile import (
    ALL_TYPES,
    CARD,
    CODE,
    CONDITION,
    COUP,
    DISPOSITION,
    POSITION,
    SEANCE,
    TAILLE,
    TYPE,
    Finding,
    Reader,
    Record,
    Unusable,
    load_segments,
)
from sabot.verify import read_key

COLUMNS = ("seq", "time", "event", "seance", "taille", "coup", "position", "card", "hand", "disposition",
           "condition", "detail")
# `log show` prints their type in capitals
_LOUD = (records.R_ALARM, records.R_FINDING, records.R_RECOVERY, records.R_ELEMENT)
_HANDS_MOST = 3  # a result record names at most three hands (deux tableaux); more is a damaged record


def iso_time(record):
    return times.iso(record.time_ms)


def detail(f, game=games.CHEMIN_DE_FER, lang=words.EN, booted=False):
    """Words for what a record's code means; booted: a boot came before this one (a power-up is then a power cut)."""
    kind, code = f[TYPE], f[CODE]
    if kind == records.R_BOOT and code == records.BOOT_POWER:
        return words.POWER_CUT[lang] if booted else None  # the journal's first power-up says nothing more
    if kind == records.R_BOOT:
        return words.said(words.BOOTS, code, lang)
    if kind == records.R_RESULT:
        return result(code, f[DISPOSITION], lang)
    if kind == records.R_STAND:
        return words.STANDS[lang] % words.hand(game, code)
    if kind in (records.R_ALARM, records.R_CLEAR):
        return words.said(words.ALARMS, code, lang)
    if kind == records.R_FINDING:
        return words.said(words.FINDINGS, code, lang)
    if kind == records.R_LOAD:
        return games.GAMES[code][games.NAME] if code < len(games.GAMES) else "game %d" % code
    if kind == records.R_SEANCE:
        return "table %d" % code
    if kind == records.R_COUP_END:
        return words.said(words.ENDS, code, lang)
    if kind == records.R_RELEASE:
        return words.said(words.RELEASES, code, lang)
    if kind == records.R_ELEMENT:
        return words.element(f[CARD], f[DISPOSITION], f[CONDITION], code, lang)
    if kind == records.R_AUTHORITY:
        what, part, value = unpack_authority(f[CARD], f[DISPOSITION], f[CONDITION], code)
        return words.authority_part(what, part, value, lang)
    if kind == R_BURST:
        return words.BURSTS[lang] % code
    if kind >= records.R_OUVERTE:
        return words.article61(kind, f[CARD], f[DISPOSITION], code, lang, f[CONDITION])
    if kind == records.R_RECOVERY:
        text = words.TORN[lang] % code
        if f[CONDITION]:
            text += "; %s %s" % (words.said(words.RELEASES, f[CONDITION], lang), words.UNCERTAIN[lang])
        return text
    return None


def result(code, hands, lang=words.EN):
    """A result record in words, or "code N" when it names more hands than a game has (a damaged record)."""
    if not 2 <= hands <= _HANDS_MOST:
        return "code %d" % code
    return words.result(code, hands, lang)


def row(record, game, booted=False):
    f = record.fields
    is_card = f[TYPE] == records.R_CARD
    card = f[CARD]
    return {
        "seq": record.seq,
        "time": iso_time(record),
        "event": words.said(words.RECORDS, f[TYPE], words.ID),
        "seance": f[SEANCE], "taille": f[TAILLE], "coup": f[COUP], "position": f[POSITION],
        "card": (None if card == cards.UNKNOWN else cards.name(card)) if is_card else None,
        "hand": words.hand(game, unpack_hand(f[CODE])) if is_card and f[CODE] else None,
        "disposition": words.said(words.DISPOSITIONS, f[DISPOSITION], words.ID) if is_card else None,
        "condition": words.said(words.CONDITIONS, f[CONDITION], words.ID) if is_card else None,
        "detail": detail(f, game, booted=booted),
    }


def rows(journal):
    """Each record's row, naming hands after the game of the shoe loaded last."""
    game = games.CHEMIN_DE_FER
    booted = False
    for record in journal:
        if record.fields[TYPE] == records.R_LOAD and record.fields[CODE] < len(games.GAMES):
            game = record.fields[CODE]
        yield row(record, game, booted)
        booted = booted or record.fields[TYPE] == records.R_BOOT


def _open(paths, key_file, command):
    try:
        return Reader(load_segments(paths), read_key(key_file))
    except Unusable as e:
        print("sabot log %s: error: %s" % (command, e), file=sys.stderr)
        return None


def _read(reader, command):
    """The journal's records as the reader checks them, with progress; its last checks at the end."""
    for segment, found, offsets in progress.over_segments(reader.segments, reader.scanned(ALL_TYPES), command):
        for fields, offset in zip(found, offsets):
            yield Record(fields, segment, offset)
    reader.finish()


def _verdict(reader, command, paths):
    """0, or 1 with a warning when the integrity checks made while reading found the journal altered, or its chain
    does not reach the end the shoe's receipt beside it states (a record after the last link rewritten: format 4's
    chain alone, without the element's signatures that verify checks, does not show it)."""
    findings = list(reader.findings)
    try:
        receipt = receipts.found_in([str(p) for p in paths])
    except Unusable:
        receipt = None
    if receipt is not None and not findings:
        segment = next((s for s in reader.segments if s.number == receipt.segment), None)
        if segment is None or receipts.chain_at(segment, receipt.seq) != receipt.chain:
            findings.append(Finding("J-TAMPER", receipt.seq, "the journal does not end as the shoe's receipt states"))
    if not findings:
        return 0
    print("sabot log %s: warning: the journal's integrity is BROKEN (%d findings, the first at seq %d: %s): what "
          "this shows is not the shoe's record; run sabot log verify" % (
              command, len(findings), findings[0].seq, findings[0].message), file=sys.stderr)
    return 1


def export(paths, fmt, key_file, out=sys.stdout):
    reader = _open(paths, key_file, "export")
    if reader is None:
        return 2
    journal = _read(reader, "export")
    if fmt == "csv":
        writer = csvout.DictWriter(out, COLUMNS, lineterminator="\n")
        writer.writeheader()
        for line in rows(journal):
            writer.writerow(line)
    else:
        for line in rows(journal):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return _verdict(reader, "export", paths)


SHOW = {  # `log show`'s own words: (English, French)
    "burned": ("burned", "brûlées"),
    "stop": ("stop card out, position %d in the shoe", "carte d'arrêt sortie, en position %d dans le sabot"),
    "coup": ("coup %d", "coup %d"),
    "taille": ("Taille %d, séance %d, %s: %s", "Taille %d, séance %d, %s : %s"),
    "seance": ("Séance %d opened %s: table %d, %s, assigned by employee %d",
               "Séance %d ouverte le %s : table %d, %s, affectée par l'employé n° %d"),
}


def show(paths, key_file, out=sys.stdout, lang="fr"):
    """A table, coup by coup: each coup's cards on one line, by hand with its result when they were read;
    burned cards and incidents in the order they came, with their date and time."""
    reader = _open(paths, key_file, "show")
    if reader is None:
        return 2
    index = words.LANGUAGES[lang]
    french = index == words.FR

    def say(key):
        return SHOW[key][index]

    game = games.CHEMIN_DE_FER
    booted = False  # a boot seen: a power-up after it follows a power cut
    coup = None  # the coup under way: [number, [(hand, card text)]]
    burned = []

    def flush_burned():
        if burned:
            out.write("  %-9s %s\n" % (say("burned"), " ".join(burned)))
            burned.clear()

    def flush_coup(coup_result=None):
        nonlocal coup
        if not coup:
            return
        number, dealt = coup
        coup = None
        hands = coup_result[DISPOSITION] if coup_result is not None else 0
        if not 2 <= hands <= _HANDS_MOST:
            out.write("  %-9s %s\n" % (say("coup") % number, " ".join(text for _, text in dealt)))
            return
        by_hand = " | ".join("%s: %s" % (words.hand(game, h), " ".join(t for owner, t in dealt if owner == h))
                             for h in range(hands))
        out.write("  %-9s %s  ->  %s\n" % (say("coup") % number, by_hand, result(coup_result[CODE], hands, index)))

    for record in _read(reader, "show"):
        f = record.fields
        kind = f[TYPE]
        if kind == records.R_CARD:
            text = cards.name(f[CARD])
            if f[DISPOSITION] == records.DEALT and f[CONDITION] == records.NORMAL:
                if coup is None or coup[0] != f[COUP]:
                    flush_coup()
                    coup = [f[COUP], []]
                coup[1].append((unpack_hand(f[CODE]), text))
            elif f[DISPOSITION] == records.STOP_CARD:  # not a card burned: the stop card, and what is behind it
                flush_burned()
                out.write("  %s\n" % (say("stop") % f[POSITION]))
            else:
                if f[CONDITION]:
                    text += "(%s)" % words.said(words.CONDITIONS, f[CONDITION], index)
                burned.append(text)
        elif kind == records.R_RESULT:
            flush_burned()
            flush_coup(f)
        elif kind == records.R_COUP_END:
            flush_burned()
            flush_coup()
        elif kind in (records.R_RELEASE, records.R_STAND, records.R_NO_MORE_BETS):
            continue
        else:
            flush_burned()
            when = times.said(record.time_ms, french)
            if kind in (records.R_LOAD, records.R_SEANCE):
                flush_coup()
            if kind == records.R_LOAD:
                game = f[CODE] if f[CODE] < len(games.GAMES) else game
                out.write("\n" + say("taille") % (f[TAILLE], f[SEANCE], when, words.game(f[CODE])) + "\n")
                continue
            if kind == records.R_SEANCE:
                seance_game = f[CARD] if f[CARD] < len(games.GAMES) else game
                out.write("\n" + say("seance") % (f[SEANCE], when, f[CODE], words.game(seance_game),
                                                  unpack_employee(f[DISPOSITION], f[CONDITION])) + "\n")
                continue
            said = detail(f, game, index, booted)
            booted = booted or kind == records.R_BOOT
            if french:
                name = words.said(words.RECORDS, kind, index)
            else:
                name = words.said(words.RECORDS, kind, words.ID)
            if kind in _LOUD:
                name = name.upper()
            out.write("  %s  seq %d  %s%s\n" % (when, record.seq, name, (" : " if french else ": ") + said
                                                  if said else ""))
    flush_burned()
    flush_coup()
    return _verdict(reader, "show", paths)
