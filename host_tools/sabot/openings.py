"""A coup's signed opening and its signed end (issue 37, docs/journal-format.md "Checkpoints"): "no more bets" opens
a coup under a checkpoint the element counts up and signs before the gate unlocks, and the coup's end is signed with
the same counter value. An opening whose next checkpoint is not its end, with nothing between them that explains it
(an alarm in the coup, a power-up), is a J-TAMPER finding naming the coup."""

import re

from firmware import layout as fmt
from firmware.format import checkpoint as cp
from firmware.records import R_BOOT
from sabot.journalfile import Finding

_INTERRUPTED = bytes((cp.ALARM, cp.BOOT, cp.RECOVERY, cp.PULL))  # an alarm's checkpoint in the coup, a power-up's,
# a pull's (over mpremote, the coup under way: its end is counted after it)
# The openings followed by none of them, nor (in a checkpoint File in line, whose counters are) by their end: found
# in C, a few among 200,000 (a Python loop over them cost 0.1 s a million cards).
_UNLIKE = {in_line: re.compile(re.escape(bytes((cp.OPENING,))) + b"(?=[^" + re.escape(
    _INTERRUPTED + (bytes((cp.COUP_END,)) if in_line else b"")) + b"])") for in_line in (True, False)}


def unended(entries, segments):
    """A coup opened under a signature (OPENING) whose next entry is neither its end (with the same counter) nor an
    alarm's in it nor a power-up's nor a pull's, with no power-up between the two (a power-up's after a cut may write
    none): the coup's records cut or replaced (issue 37). A coup still open at the last entry is the records after
    it."""
    size = entries.layout.size if hasattr(entries, "layout") else 0  # a checkpoint File, in line
    reasons = bytes(entries.data[1:len(entries) * size:size]) if size else bytes(e.reason for e in entries)
    found = []
    for match in _UNLIKE[bool(size)].finditer(reasons):
        at = match.start()
        opening, after = entries[at], entries[at + 1]
        if after.reason == cp.COUP_END and after.counter == opening.counter:
            continue
        if not _powered_up(segments, opening.seq, after.seq):
            coup = _body(segments, opening.seq)
            found.append(Finding("J-TAMPER", opening.seq, "coup %d of taille %d, opened under checkpoint %d (counter "
                                 "%d), has no signed end: its records cut or replaced" % (
                                     _field(coup, fmt.BODY_SEANCE + 4), _field(coup, fmt.BODY_SEANCE + 2),
                                     opening.index, opening.counter)))
    return found


def _body(segments, seq):
    """The body of record seq, or None."""
    for segment in reversed(segments):
        if segment.seq_before < seq:
            return segment.body_at(seq - segment.seq_before - 1)
    return None


def _field(body, at):
    return int.from_bytes(body[at:at + 2], "little") if body else 0


def _powered_up(segments, low, high):
    """Whether a power-up's record (R_BOOT) lies after seq low and at or before seq high."""
    return any(body is not None and body[0] == R_BOOT for body in (_body(segments, seq)
                                                                     for seq in range(low + 1, high + 1)))
