"""What the sim shows of a run: the readable timeline and the JSON Lines trace of events and commands.

Both are written on CPython and on the MicroPython VM alike, so their outputs can be compared byte for byte.
"""

import struct

from firmware import games, records
from firmware.cards import name as card_name
from firmware.events import CMD_BUZZER, CMD_INDICATOR
from firmware.format import words
from firmware.format.words import EN, ID, said
from firmware.layout import BODY


def _clock(seconds, ms):
    """The time of day (UTC) of a journal time, for the timeline."""
    day = seconds % 86400
    return "%02d:%02d:%02d.%03d" % (day // 3600, day // 60 % 60, day % 60, ms)


class Observer:
    def __init__(self, timeline=None, trace=None):
        self.timeline = timeline  # a stream for people, or None
        self.trace = trace  # a stream for JSON Lines, or None
        self.cards = 0  # card records journalled
        self.findings = 0
        self.alarms = 0
        self.now = 0
        self.game = 0  # of the shoe loaded last: names the hands
        self.wall_ms = None  # the board's clock, to time lines that are not records

    def summary(self, board):
        """The run's last lines: what left the shoe and what the journal holds."""
        shoe = board.shoe
        lines = ["%d cards out of the shoe, %d journalled, %d left in it; %d findings, %d alarms" % (
            shoe.out, self.cards, shoe.remaining(), self.findings, self.alarms)]
        if board.unseen:
            lines.append("%d cards pulled while the shoe had no power: no record" % board.unseen)
        return "\n".join(lines)

    def note(self, now, text):
        """A line about the physical world (an action, an unseen card)."""
        if self.timeline:
            self.timeline.write("%s  %s\n" % (self._stamp(), text))
        if self.trace:
            self.trace.write('{"t":%d,"note":"%s"}\n' % (now, text.replace('"', "'")))

    def event(self, event, arg, now, ctl):
        self.now = now
        if self.trace:
            refused = ',"refused":"%s"' % said(words.REFUSALS, ctl.refused) if ctl.refused else ""
            self.trace.write('{"t":%d,"event":"%s","arg":%d%s}\n' % (now, said(words.EVENTS, event, ID), arg, refused))
        if ctl.refused and self.timeline:
            self.timeline.write("%s  refused %s: %s\n" % (self._stamp(), said(words.EVENTS, event),
                                                         said(words.REFUSALS, ctl.refused)))

    def command(self, command, arg, now):
        if self.trace:
            word = ""
            if command == CMD_INDICATOR:
                word = ',"state":"%s"' % said(words.INDICATORS, arg, ID)
            elif command == CMD_BUZZER:
                word = ',"pattern":%d' % arg
            self.trace.write('{"t":%d,"cmd":"%s"%s}\n' % (now, said(words.COMMANDS, command, ID), word))

    def record(self, body, seq):
        rtype, seconds, ms, seance, taille, coup, position, card, disposition, condition, code = struct.unpack(
            BODY, body)
        if self.trace:
            self.trace.write('{"t":%d,"record":"%s","seq":%d}\n' % (self.now, said(words.RECORDS, rtype, ID), seq))
        if rtype == records.R_CARD:
            self.cards += 1
        elif rtype == records.R_FINDING:
            self.findings += 1
        elif rtype == records.R_ALARM:
            self.alarms += 1
        if not self.timeline or rtype == records.R_RELEASE:
            return
        if rtype == records.R_CARD:
            where = "coup %d" % coup if disposition == 0 else "       "
            text = "%s  card %3d  %-4s %s" % (where, position, card_name(card),
                                              said(words.DISPOSITIONS, disposition, ID))
            if code:
                text += " to %s" % words.HANDS[self.game != 0][code - 1]
            if condition:
                text += " (%s)" % said(words.CONDITIONS, condition, EN)
        elif rtype == records.R_RESULT:
            text = "coup %d result: %s" % (coup, words.result(code, disposition))
        elif rtype == records.R_STAND:
            text = "coup %d: %s stands (croupier's announcement)" % (coup, words.HANDS[self.game != 0][code])
        elif rtype == records.R_NO_MORE_BETS:
            text = "coup %d: no more bets, shoe unlocked" % coup
        elif rtype == records.R_COUP_END:
            text = "coup %d ends: %s, shoe locked" % (coup, said(words.ENDS, code))
        elif rtype == records.R_LOAD:
            self.game = code
            row = games.GAMES[code]
            text = "taille %d: %s shoe loaded, %d decks, stop card before the last %d" % (
                taille, row[games.NAME], row[games.DECKS], row[games.STOP_BEFORE])
        elif rtype == records.R_ALARM:
            text = "ALARM %s: shoe locked until the supervisor clears it" % said(words.ALARMS, code)
        elif rtype == records.R_CLEAR:
            text = "supervisor cleared: %s" % said(words.ALARMS, code)
        elif rtype == records.R_FINDING:
            text = "FINDING %s%s" % (said(words.FINDINGS, code), (" at card %d" % position) if card else "")
        elif rtype == records.R_CLOSED:
            text = "shoe closed: no other coup until a new shoe is loaded"
        elif rtype == records.R_SEANCE:
            text = "séance %d opens at table %d" % (seance, code)
            if disposition or condition:
                text += ", assigned by employee %d" % (disposition | condition << 8)
        elif rtype == records.R_BOOT:
            text = "power-up: gate locked, waiting for the croupier"
        elif rtype == records.R_RECOVERY:
            text = "RECOVERY: %d torn bytes cut from the journal" % code
            if condition:
                text += "; a %s release was under way: whether a card left is UNKNOWN" % said(
                    words.RELEASES, condition, ID)
        elif rtype == records.R_ELEMENT:
            text = "ELEMENT: %s" % words.element(card, disposition, condition, code)
        elif rtype >= records.R_OUVERTE:
            text = "%s: %s" % (said(words.RECORDS, rtype),
                               words.article61(rtype, card, disposition, code, EN, condition))
        else:
            text = said(words.RECORDS, rtype, ID)
        self.timeline.write("%s  %s\n" % (_clock(seconds, ms), text))

    def _stamp(self):
        now = self.wall_ms()
        return _clock(now // 1000, now % 1000)
