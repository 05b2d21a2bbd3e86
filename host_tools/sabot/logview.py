"""`sabot log export` for other programs (JSON Lines, CSV) and `sabot log show` for people (H-EXPORT)."""

import csv
import json
import sys
from datetime import UTC, datetime, timedelta

from boards.sim import names
from firmware import cards, games, record_names
from firmware.journal import EPOCH_2020
from firmware.records import (
    R_ALARM,
    R_CARD,
    R_CLEAR,
    R_COUP_END,
    R_FINDING,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RECOVERY,
    R_RELEASE,
    R_RESULT,
    R_SEANCE,
    R_STAND,
)
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


def iso_time(record):
    moment = _EPOCH + timedelta(milliseconds=record.time_ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def hand_name(game, hand):
    hands = names.HANDS[game != games.CHEMIN_DE_FER]
    return hands[hand] if hand < len(hands) else "hand %d" % hand


def detail(f, game=games.CHEMIN_DE_FER):
    """Words for what a record's code means."""
    kind, code = f[TYPE], f[CODE]
    if kind == R_RESULT:
        return names.result(code, f[DISPOSITION])
    if kind == R_STAND:
        return "%s stands" % hand_name(game, code)
    if kind in (R_ALARM, R_CLEAR):
        return names.ALARMS[code] if code < len(names.ALARMS) else "code %d" % code
    if kind == R_FINDING:
        return names.FINDINGS[code] if code < len(names.FINDINGS) else "code %d" % code
    if kind == R_LOAD:
        return games.GAMES[code][games.NAME] if code < len(games.GAMES) else "game %d" % code
    if kind == R_SEANCE:
        return "table %d" % code
    if kind == R_COUP_END:
        return names.ENDS[code] if code < len(names.ENDS) else "code %d" % code
    if kind == R_RELEASE:
        return record_names.RELEASE_NAMES[code] if code < len(record_names.RELEASE_NAMES) else "code %d" % code
    if kind == R_RECOVERY:
        text = "%d torn bytes cut" % code
        if f[CONDITION]:
            text += "; %s release uncertain: whether a card left is unknown" % record_names.RELEASE_NAMES[f[CONDITION]]
        return text
    return None


def row(record, game):
    f = record.fields
    is_card = f[TYPE] == R_CARD
    card = f[CARD]
    return {
        "seq": record.seq,
        "time": iso_time(record),
        "event": record_names.name(record_names.RECORD_NAMES, f[TYPE]),
        "seance": f[SEANCE], "taille": f[TAILLE], "coup": f[COUP], "position": f[POSITION],
        "card": (None if card == cards.UNKNOWN else cards.name(card)) if is_card else None,
        "hand": hand_name(game, f[CODE] - 1) if is_card and f[CODE] else None,
        "disposition": record_names.DISPOSITION_NAMES[f[DISPOSITION]] if is_card else None,
        "condition": record_names.CONDITION_NAMES[f[CONDITION]] if is_card else None,
        "detail": detail(f, game),
    }


def rows(records):
    """Each record's row, naming hands after the game of the shoe loaded last."""
    game = games.CHEMIN_DE_FER
    for record in records:
        if record.fields[TYPE] == R_LOAD:
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
    reader, records = _open(paths, key_file, "export")
    if reader is None:
        return 2
    if fmt == "csv":
        writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
        writer.writeheader()
        for line in rows(records):
            writer.writerow(line)
    else:
        for line in rows(records):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    _warn_if_broken(reader, "export")
    return 0


def show(paths, key_file, out=sys.stdout):
    """A table, coup by coup: each coup's cards on one line, by hand with its result when they were read;
    burned cards and incidents in the order they came."""
    reader, records = _open(paths, key_file, "show")
    if reader is None:
        return 2
    game = games.CHEMIN_DE_FER
    coup = None  # the coup under way: [number, [(hand, card text)]]
    burned = []

    def flush_burned():
        if burned:
            out.write("  %-9s %s\n" % ("burned", " ".join(burned)))
            burned.clear()

    def flush_coup(result=None):
        nonlocal coup
        if not coup:
            return
        number, dealt = coup
        coup = None
        if result is None:
            out.write("  %-9s %s\n" % ("coup %d" % number, " ".join(text for _, text in dealt)))
            return
        hands = " | ".join("%s: %s" % (hand_name(game, h), " ".join(t for hand, t in dealt if hand == h))
                           for h in range(result[DISPOSITION]))
        out.write("  %-9s %s  ->  %s\n" % ("coup %d" % number, hands, names.result(result[CODE], result[DISPOSITION])))

    for record in records:
        f = record.fields
        kind = f[TYPE]
        if kind == R_CARD:
            text = cards.name(f[CARD])
            if f[DISPOSITION] == 0 and f[CONDITION] == 0:
                if coup is None or coup[0] != f[COUP]:
                    flush_coup()
                    coup = [f[COUP], []]
                coup[1].append((f[CODE] - 1, text))
            else:
                if f[CONDITION]:
                    text += "(%s)" % record_names.CONDITION_NAMES[f[CONDITION]].replace("_", " ")
                burned.append(text)
        elif kind == R_RESULT:
            flush_burned()
            flush_coup(f)
        elif kind == R_COUP_END:
            flush_burned()
            flush_coup()
        elif kind in (R_RELEASE, R_STAND, R_NO_MORE_BETS):
            continue
        else:
            flush_burned()
            if kind == R_LOAD:
                flush_coup()
                game = f[CODE] if f[CODE] < len(games.GAMES) else game
                out.write("\nTaille %d, séance %d: %s\n" % (f[TAILLE], f[SEANCE], detail(f)))
                continue
            words = detail(f, game)
            name = record_names.RECORD_NAMES[kind] if kind < len(record_names.RECORD_NAMES) else "type %d" % kind
            out.write("  %s  seq %d  %s%s\n" % (iso_time(record)[11:23], record.seq,
                                               name.upper() if kind in (R_ALARM, R_FINDING, R_RECOVERY) else name,
                                               ": " + words if words else ""))
    flush_burned()
    flush_coup()
    _warn_if_broken(reader, "show")
    return 0
