"""`sabot log export` for other programs (JSON Lines, CSV) and `sabot log show` for people (H-EXPORT)."""

import csv
import json
import sys
from datetime import UTC, datetime, timedelta

from firmware import cards, games, record_names, records
from firmware.journal import EPOCH_2020
from firmware.record_names import unpack_hand
from sabot import words
from sabot.journalfile import (
    CARD,
    CODE,
    CONDITION,
    COUP,
    DISPOSITION,
    POSITION,
    SEANCE,
    TAILLE,
    TYPE,
    Reader,
    Unusable,
    load_segments,
)
from sabot.verify import read_key

COLUMNS = ("seq", "time", "event", "seance", "taille", "coup", "position", "card", "hand", "disposition",
           "condition", "detail")
_EPOCH = datetime.fromtimestamp(EPOCH_2020, UTC)
_LOUD = (records.R_ALARM, records.R_FINDING, records.R_RECOVERY)  # `log show` prints their type in capitals


def iso_time(record):
    moment = _EPOCH + timedelta(milliseconds=record.time_ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def detail(f, game=games.CHEMIN_DE_FER):
    """Words for what a record's code means."""
    kind, code = f[TYPE], f[CODE]
    if kind == records.R_RESULT:
        return words.result(code, f[DISPOSITION])
    if kind == records.R_STAND:
        return words.STANDS[words.EN] % words.hand(game, code)
    if kind in (records.R_ALARM, records.R_CLEAR):
        return words.said(words.ALARMS, code)
    if kind == records.R_FINDING:
        return words.said(words.FINDINGS, code)
    if kind == records.R_LOAD:
        return games.GAMES[code][games.NAME] if code < len(games.GAMES) else "game %d" % code
    if kind == records.R_SEANCE:
        return "table %d" % code
    if kind == records.R_COUP_END:
        return words.said(words.ENDS, code)
    if kind == records.R_RELEASE:
        return words.said(words.RELEASES, code)
    if kind == records.R_RECOVERY:
        text = words.TORN[words.EN] % code
        if f[CONDITION]:
            release = words.said(words.RELEASES, f[CONDITION])
            text += "; %s %s: whether a card left is unknown" % (release, words.UNCERTAIN[words.EN])
        return text
    return None


def row(record, game):
    f = record.fields
    is_card = f[TYPE] == records.R_CARD
    card = f[CARD]
    return {
        "seq": record.seq,
        "time": iso_time(record),
        "event": record_names.name(record_names.RECORD_NAMES, f[TYPE]),
        "seance": f[SEANCE], "taille": f[TAILLE], "coup": f[COUP], "position": f[POSITION],
        "card": (None if card == cards.UNKNOWN else cards.name(card)) if is_card else None,
        "hand": words.hand(game, unpack_hand(f[CODE])) if is_card and f[CODE] else None,
        "disposition": record_names.DISPOSITION_NAMES[f[DISPOSITION]] if is_card else None,
        "condition": record_names.CONDITION_NAMES[f[CONDITION]] if is_card else None,
        "detail": detail(f, game),
    }


def rows(journal):
    """Each record's row, naming hands after the game of the shoe loaded last."""
    game = games.CHEMIN_DE_FER
    for record in journal:
        if record.fields[TYPE] == records.R_LOAD:
            game = record.fields[CODE]
        yield row(record, game)


def _open(paths, key_file, command):
    try:
        reader = Reader(load_segments(paths), read_key(key_file))
        return reader, list(reader)
    except Unusable as e:
        print("sabot log %s: error: %s" % (command, e), file=sys.stderr)
        return None, None


def _warn_if_broken(reader, command):
    if reader.findings:
        print("sabot log %s: warning: the journal's integrity is broken (%d findings): run sabot log verify" % (
            command, len(reader.findings)), file=sys.stderr)


def export(paths, fmt, key_file, out=sys.stdout):
    reader, journal = _open(paths, key_file, "export")
    if reader is None:
        return 2
    if fmt == "csv":
        writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
        writer.writeheader()
        for line in rows(journal):
            writer.writerow(line)
    else:
        for line in rows(journal):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    _warn_if_broken(reader, "export")
    return 0


def show(paths, key_file, out=sys.stdout):
    """A table, coup by coup: each coup's cards on one line, by hand with its result when they were read;
    burned cards and incidents in the order they came."""
    reader, journal = _open(paths, key_file, "show")
    if reader is None:
        return 2
    game = games.CHEMIN_DE_FER
    coup = None  # the coup under way: [number, [(hand, card text)]]
    burned = []

    def flush_burned():
        if burned:
            out.write("  %-9s %s\n" % ("burned", " ".join(burned)))
            burned.clear()

    def flush_coup(coup_result=None):
        nonlocal coup
        if not coup:
            return
        number, dealt = coup
        coup = None
        if coup_result is None:
            out.write("  %-9s %s\n" % ("coup %d" % number, " ".join(text for _, text in dealt)))
            return
        hands = " | ".join("%s: %s" % (words.hand(game, h), " ".join(t for owner, t in dealt if owner == h))
                           for h in range(coup_result[DISPOSITION]))
        said_result = words.result(coup_result[CODE], coup_result[DISPOSITION])
        out.write("  %-9s %s  ->  %s\n" % ("coup %d" % number, hands, said_result))

    for record in journal:
        f = record.fields
        kind = f[TYPE]
        if kind == records.R_CARD:
            text = cards.name(f[CARD])
            if f[DISPOSITION] == 0 and f[CONDITION] == 0:
                if coup is None or coup[0] != f[COUP]:
                    flush_coup()
                    coup = [f[COUP], []]
                coup[1].append((unpack_hand(f[CODE]), text))
            else:
                if f[CONDITION]:
                    text += "(%s)" % words.said(words.CONDITIONS, f[CONDITION])
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
            if kind == records.R_LOAD:
                flush_coup()
                game = f[CODE] if f[CODE] < len(games.GAMES) else game
                out.write("\nTaille %d, séance %d: %s\n" % (f[TAILLE], f[SEANCE], detail(f)))
                continue
            said = detail(f, game)
            name = record_names.RECORD_NAMES[kind] if kind < len(record_names.RECORD_NAMES) else "type %d" % kind
            if kind in _LOUD:
                name = name.upper()
            out.write("  %s  seq %d  %s%s\n" % (iso_time(record)[11:23], record.seq, name, ": " + said if said else ""))
    flush_burned()
    flush_coup()
    _warn_if_broken(reader, "show")
    return 0
