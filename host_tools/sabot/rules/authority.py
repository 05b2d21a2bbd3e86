"""The casino's authority on the shoe (P-AUTHORITY): each change (its number, the casino's key, its clock) is three
records in one step, who asked, the value before, the value after (firmware/records.py's R_AUTHORITY). A new number
or key while an alarm stands or a séance is open is one the shoe refuses; a clock set more than a day ahead of the
journal's last record, one it refuses without --force (then journalled as forced). Kept in s.authorities for the
verifier's output and the report: (seq, time in ms, what, who, before, after)."""

from firmware.record_names import unpack_authority
from firmware.records import AU_CLOCK, AU_CLOCK_FORCED, AU_KEY, AU_NUMBER, CLOCK_AHEAD_MOST, R_AUTHORITY
from sabot.rules.layout import _ANY

_WHAT = {AU_NUMBER: "a new sabot number", AU_KEY: "a new casino key", AU_CLOCK: "the clock set",
         AU_CLOCK_FORCED: "the clock set under --force"}


def on_authority(s, f):
    what, part, value = unpack_authority(f.card, f.disposition, f.condition, f.code)
    asked = s.asked
    if what not in _WHAT or part > 2:
        s._find("J-EVENTS", f.seq, "an authority record of unknown kind %d, part %d" % (what, part))
        del asked[:]
        return
    expect = s.expect
    if part:
        if len(asked) != 3 + part or asked[2] != what:
            s._find("J-EVENTS", f.seq, "an authority record (part %d of %s) with no record of who asked before it" % (
                part, _WHAT[what]))
            del asked[:]
            return
        if expect and expect[0][0] == R_AUTHORITY:
            del expect[0]
        asked.append(value)
        if part == 2:
            _done(s, *asked)
            del asked[:]
        return
    if asked:
        s._find("J-EVENTS", f.seq, "an authority change begun before the last one's three records were written")
    asked[:] = [f.seq, f.time, what, value]
    expect.append((R_AUTHORITY, _ANY, "J-EVENTS"))
    expect.append((R_AUTHORITY, _ANY, "J-EVENTS"))


def _done(s, seq, time, what, who, before, after):
    s.authorities.append((seq, time, what, who, before, after))
    if what == AU_NUMBER or what == AU_KEY:
        if s.alarms:
            s._find("P-AUTHORITY", seq, "%s while an alarm or fault stood uncleared: the shoe refuses it" % _WHAT[what])
        if s.seance_open:
            s._find("P-AUTHORITY", seq, "%s while a séance was open: the shoe refuses it" % _WHAT[what])
    elif what == AU_CLOCK and after > time // 1000 + CLOCK_AHEAD_MOST:
        s._find("P-AUTHORITY", seq, "the clock set more than a day ahead without --force: the shoe refuses it")
