"""`sabot log export` for other programs (JSON Lines, CSV) and `sabot log show` for people (H-EXPORT)."""

import csv
import json
import sys
from datetime import UTC, datetime, timedelta

from boards.sim import names
from firmware import cards, games
from firmware.controller import (
    R_ALARM,
    R_CARD,
    R_CLEAR,
    R_COUP_END,
    R_FINDING,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RECOVERY,
    R_RELEASE,
    R_SEANCE,
)
from firmware.journal import EPOCH_2020
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

COLUMNS = ("seq", "time", "event", "seance", "taille", "coup", "position", "card", "disposition", "condition",
           "detail")
_EPOCH = datetime.fromtimestamp(EPOCH_2020, UTC)


def iso_time(record):
    moment = _EPOCH + timedelta(milliseconds=record.time_ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def detail(f):
    """Words for what a record's code means."""
    kind, code = f[TYPE], f[CODE]
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
        return names.RELEASES[code] if code < len(names.RELEASES) else "code %d" % code
    if kind == R_RECOVERY:
        text = "%d torn bytes cut" % code
        if f[CONDITION]:
            text += "; %s release uncertain: whether a card left is unknown" % names.RELEASES[f[CONDITION]]
        return text
    return None


def row(record):
    f = record.fields
    is_card = f[TYPE] == R_CARD
    card = f[CARD]
    return {
        "seq": record.seq,
        "time": iso_time(record),
        "event": names.RECORDS[f[TYPE]] if f[TYPE] < len(names.RECORDS) else "type %d" % f[TYPE],
        "seance": f[SEANCE], "taille": f[TAILLE], "coup": f[COUP], "position": f[POSITION],
        "card": (None if card == cards.UNKNOWN else cards.name(card)) if is_card else None,
        "disposition": names.DISPOSITIONS[f[DISPOSITION]] if is_card else None,
        "condition": names.CONDITIONS[f[CONDITION]] if is_card else None,
        "detail": detail(f),
    }


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
        for record in records:
            writer.writerow(row(record))
    else:
        for record in records:
            out.write(json.dumps(row(record), ensure_ascii=False) + "\n")
    _warn_if_broken(reader, "export")
    return 0


def show(paths, key_file, out=sys.stdout):
    """A table, coup by coup: each coup's cards on one line, incidents between them."""
    reader, records = _open(paths, key_file, "show")
    if reader is None:
        return 2
    line = None  # the coup being written: [label, cards]

    def flush():
        nonlocal line
        if line:
            out.write("  %-9s %s\n" % (line[0], " ".join(line[1])))
            line = None

    for record in records:
        f = record.fields
        kind = f[TYPE]
        clock = iso_time(record)[11:23]
        if kind == R_CARD:
            label = "coup %d" % f[COUP] if f[DISPOSITION] == 0 and f[CONDITION] == 0 else "burned"
            text = cards.name(f[CARD])
            if f[CONDITION]:
                text += "(%s)" % names.CONDITIONS[f[CONDITION]].replace("_", " ")
            if line is None or line[0] != label:
                flush()
                line = [label, []]
            line[1].append(text)
        elif kind == R_RELEASE:
            continue
        else:
            if kind != R_NO_MORE_BETS or line is None or line[0] != "coup %d" % f[COUP]:
                flush()
            if kind == R_LOAD:
                out.write("\nTaille %d, séance %d: %s\n" % (f[TAILLE], f[SEANCE], detail(f)))
            elif kind == R_COUP_END:
                continue
            elif kind not in (R_NO_MORE_BETS,):
                words = detail(f)
                out.write("  %s  seq %d  %s%s\n" % (clock, record.seq, names.RECORDS[kind].upper()
                                                   if kind in (R_ALARM, R_FINDING, R_RECOVERY) else
                                                   names.RECORDS[kind], ": " + words if words else ""))
    flush()
    _warn_if_broken(reader, "show")
    return 0
