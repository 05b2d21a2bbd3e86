"""Alarms, faults and power-ups (S-FORCED, S-FAILSAFE, S-ONE, J-TAMPER, H-FIRMWARE, J-DURABLE): what raises an
alarm, what may clear it, and what a power-up and its recovery record say of a release cut short."""

from firmware.records import (
    ALARM_FORCED,
    ALARM_MAX,
    BOOT_WATCHDOG,
    EL_CUT,
    EL_FAULT,
    FAULT_DEVKEY,
    FAULT_DOUBLE_FEED,
    FAULT_ELEMENT,
    FAULT_FIRMWARE,
    FAULT_JAM,
    FAULT_ROLLBACK,
    R_ALARM,
    R_BOOT,
    R_RECOVERY,
)
from sabot.rules.layout import _ANY


def on_alarm(s, f):
    seq, code = f.seq, f.code
    expected = s._pop(R_ALARM)
    if code < 1 or code > ALARM_MAX:
        s._find("J-EVENTS", seq, "alarm of unknown code %d: it raises nothing and clears nothing" % code)
    elif not expected:
        if code == ALARM_FORCED:
            s._find("S-FORCED", seq, "a forced-extraction alarm with no forced card")
        elif code == FAULT_DOUBLE_FEED:
            s._find("S-ONE", seq, "a double-feed fault with no double-fed card")
        elif code == FAULT_JAM and not s.release:
            s._find("S-ONE", seq, "a jam with no release under way")
        elif code == FAULT_ROLLBACK:
            s._find("J-TAMPER", seq, "the shoe found its journal behind its last signed checkpoint, or its "
                    "checkpoints behind its secure element's counter, at power-up: records were cut, deleted or put "
                    "back on the shoe")
        elif code == FAULT_FIRMWARE:
            s._find("H-FIRMWARE", seq, "the shoe found firmware files that differ from the approved release")
        elif code == FAULT_DEVKEY:
            s._find("H-VERIFY", seq, "a board under the public development key: anyone can have written "
                    "its journal")
        elif code == FAULT_ELEMENT:
            s._find("J-EVENTS", seq, "the secure element's fault with no record of the counter it spent")
    if 0 < code <= ALARM_MAX:
        s.alarms |= 1 << code  # a set: a fault never replaces an alarm
    if code == FAULT_FIRMWARE:
        s.firmware_unchecked = True
    elif code == FAULT_ROLLBACK:
        # What the journal lost is unknown (a stop card's coup, a closed shoe): no other coup from this shoe.
        s.in_coup = False
        s.closed = s.loaded
    s.release = 0
    s.released_card = False
    s.dealing = False  # the coup pauses; "no more bets" resumes it once cleared


def on_clear(s, f):
    seq, code = f.seq, f.code
    if code < 1 or code > ALARM_MAX or not s.alarms >> code & 1:
        s._find("S-FORCED" if s.alarms >> ALARM_FORCED & 1 else "J-EVENTS", seq,
                "alarm %d cleared, which was not raised" % code)
        return
    if code == FAULT_DEVKEY:
        s._find("H-FIRMWARE", seq, "the development key's fault cleared: no key switch clears it, the shoe "
                "needs a key of its own")
    elif code == FAULT_FIRMWARE and s.firmware_unchecked:
        s._find("H-FIRMWARE", seq, "the firmware fault cleared with no power-up since it was raised: only a "
                "boot that finds the approved files again lets the supervisor clear it")
    s.alarms &= ~(1 << code)


def on_boot(s, f):
    if f.code > BOOT_WATCHDOG:
        s._find("J-EVENTS", f.seq, "a boot of unknown cause %d: 0 power-up, 1 restart, 2 watchdog" % f.code)
    s.dealing = False  # S-FAILSAFE: power-up never resumes dealing by itself
    s.released_card = False
    s.firmware_unchecked = False  # this boot checked the files: raised again, or found approved
    if s.release:
        s.expect.append((R_RECOVERY, _ANY, "J-DURABLE"))


def on_recovery(s, f):
    seq, torn, uncertain = f.seq, f.code, f.condition
    s._pop(R_RECOVERY)
    if s.last != R_BOOT:
        # Live, a fault (interrupt events lost) closes an open release: its alarm follows, nothing is torn.
        if not uncertain or torn:
            s._find("J-DURABLE", seq, "a recovery record that does not follow a power-up")
        s.expect.append((R_ALARM, _ANY, "J-DURABLE"))
    if uncertain != s.release:
        s._find("J-DURABLE", seq, "recovery says release %d was under way; the journal says %d" % (
            uncertain, s.release))
    if uncertain:
        s._find("J-DURABLE", seq, "a release was under way %s: whether a card left is unknown" % (
            "at a power cut" if s.last == R_BOOT else "when events were lost"))
    if torn:
        s._find("J-DURABLE", seq, "%s%d torn bytes cut at power-up: a record being written when the power "
                "failed is lost" % ("at least " if torn == 65535 else "", torn))
        if not uncertain:  # the lost record may have been a card forced past the locked gate: its alarm
            s.expect.append((R_ALARM, ALARM_FORCED, "S-FORCED"))
    elif not uncertain:
        s._find("J-EVENTS", seq, "a recovery record with nothing recovered")
    s.release = 0


def on_burst(s, f):
    """Requests on the shoe's cable answered busy, a burst (R_BURST): a fact of the cable, journalled between coups,
    the bursts since power-up in its code; no state of the game changes. Said by log show and the report."""


def on_element(s, f):
    """Counter values of the secure element spent with no checkpoint (R_ELEMENT): kept for the checkpoints' check
    (sabot.checkpoints: a gap in their counters is accepted only where these cover it); an element's failure locks
    the shoe in its fault, next."""
    seq, why, count = f.seq, f.condition, f.card
    counter = f.code | f.disposition << 16
    if why != EL_CUT and why != EL_FAULT:
        s._find("J-EVENTS", seq, "a secure element record of unknown cause %d" % why)
        return
    if why == EL_CUT and not count:
        s._find("J-EVENTS", seq, "a secure element's counter found ahead at power-up by no value")
    if count > counter:
        s._find("J-EVENTS", seq, "a secure element record of %d values spent before counter %d" % (count, counter))
        return
    s.elements.append((seq, counter, count, why))
    if why == EL_FAULT and not s.alarms >> FAULT_ELEMENT & 1:
        s.expect.append((R_ALARM, FAULT_ELEMENT, "J-EVENTS"))
