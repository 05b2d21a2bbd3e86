"""The power-up's verdict on the journal and the secure element's counter (J-TAMPER, issue 37; docs/journal-
format.md, "A counter ahead at power-up"): the last checkpoint entry must be intact, the journal recovered must reach
its end with its chain value, and the element's counter must be the entry's, or at most AHEAD_MOST above it with
records after the entry, the journal ending on a step that writes a checkpoint or holding a coup's opening: a power
cut during that checkpoint (its increment made, the entry never written, or the counter gone up by more on the cut),
which the power-up journals; values the element's records after the entry say it spent (a signature that failed)
need no cut. No entry while the counter is above 0: the journal was deleted. Pure but for reading an earlier segment
again (_chain_at); firmware/checkpoints.py reads the counter and the entry and keeps the verdict."""

import struct
from binascii import crc32

from firmware import layout
from firmware.compat import const
from firmware.format.checkpoint import ENTRY, OPENING
from firmware.journal import JournalError, chained, header_chain, parse_header

# How far the element's counter may be ahead of the last entry at power-up and be a power cut during a checkpoint:
# the one increment the entry was for, and the datasheet's "more than one on some power losses" (docs/journal-
# format.md, "A counter ahead at power-up"). More is a rollback.
AHEAD_MOST = const(3)
# The records a step that writes a checkpoint ends with (its last one), as bits by type: a power-up's (R_BOOT,
# R_RECOVERY, R_ALARM), a séance's (R_SEANCE, R_OUVERTE, R_REFUSAL, R_OUVERTE_DAY, R_SEANCE_CLOSE), a coup's opening
# (R_NO_MORE_BETS), a coup's end (R_COUP_END, R_CLOSED), an alarm's, the element's (R_ELEMENT), an authority change's
# (R_AUTHORITY). A journal whose last record is another ends on a step with no checkpoint (a load, a burn, a clear, a
# card in a coup): no cut during a checkpoint left it so. A literal, each name an import on the board
# (tests/host/test_element_faults.py checks it against the names). A coup's end after its signed opening counts
# nothing (ENDS, below).
STEP_ENDS = const(0x7394D6)
ENDS = const(0x440)  # R_COUP_END, R_CLOSED: the end of a coup, signed with its opening's counter value


def judged(entry, version, counter, journal, watch, tail):
    """(rolled back, the counter value the entries reach, a cut's counter value found ahead of them (0: none)) for
    the last entry (b"": none) of version, the element's counter, the journal recovered, the recovery's watch
    ([segment, seq, chain value seen there, last segment]) and the power-up's replay (tail: checkpoint_hook.Tail, None
    when none replayed the journal)."""
    if not entry:  # none yet: a journal's first checkpoint cut (issue 37), or the file deleted
        if not counter:
            return False, counter, 0
        if not journal.seq:
            return True, counter, 0
        counted = reason = 0
    else:
        if crc32(entry) != layout.CRC_RESIDUE:
            return True, counter, 0  # an entry edited by hand; a torn append is never counted whole
        fields = struct.unpack_from(ENTRY, entry, 0)
        if fields[0] != version or fields[4] > watch[3] or fields[5] > journal.seq:
            return True, counter, 0
        if watch[2] is not None and watch[2] != fields[6]:
            return True, counter, 0
        counted = fields[3]
        reason = fields[1]
        if counter > counted and watch[2] is None and fields[4] < watch[3]:
            watch[2] = _chain_at(journal.storage, fields[4], fields[5])  # an earlier segment's, read again
            if watch[2] != fields[6]:
                return True, counter, 0
        if not (counter > counted and fields[5] < journal.seq and watch[2] is not None):
            return counter != counted, counter, 0
    # tail None: no power-up replayed the journal, no record says what a cut spent
    spent, kind = (tail.spent, tail.type) if tail is not None else (0, 0)
    if counted < spent <= counter:
        counted = spent  # journalled by the shoe: its element failed to sign
    found = 0
    if counted < counter:
        opened = tail is not None and tail.opened  # a coup opened after the entry: its opening's, never written
        if counter - counted > AHEAD_MOST or not (STEP_ENDS >> kind & 1 or opened):
            return True, counter, 0
        if reason == OPENING and ENDS >> kind & 1:
            return True, counter, 0  # a coup's end after its signed opening counts nothing: no cut left it ahead
        found = counter
    return False, counted, found


def _chain_at(storage, segment, seq):
    """The chain value after record seq of an earlier segment, read again from its start: what a power-up needs when a
    cut left the counter ahead of an entry in a segment the recovery did not read (a torn tail's recovery began the
    next one, and a second cut came in its checkpoint: issue 37). None where the segment does not reach seq intact.
    Rare (a cut), and one segment at most."""
    frame = bytearray(layout.FRAME_SIZE)
    try:
        with storage.reader(segment) as stream:
            header = stream.read(layout.HEADER_SIZE)
            at = parse_header(header)[9]
            chain = header_chain(header)
            while at < seq:
                if (stream.readinto(frame) != layout.FRAME_SIZE or frame[0] != layout.SYNC
                        or crc32(frame) != layout.CRC_RESIDUE or struct.unpack_from("<I", frame, layout.SEQ_AT)[0]
                        != at + 1 or frame[layout.LINK_AT:layout.CRC_AT] != chain[:layout.LINK_SIZE]):
                    return None
                chain = chained(chain, memoryview(frame)[layout.BODY_AT:layout.LINK_AT])
                at += 1
    except (OSError, JournalError):
        return None
    return chain if at == seq else None
