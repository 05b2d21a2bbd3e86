"""The journal's vocabulary: every code a record carries, which fields each record type uses, and how its packed
fields are packed.

One place for what the controller writes and every reader reads (the verifier, `log show`/`export`, the
report, the sim); firmware/layout.py places the bytes; docs/journal-format.md gives the same table for people.
The codes' identifiers and words are firmware/format/words.py's, which a device does not load. Adding a record type:
docs/architecture.md ("The vocabulary") lists every file it needs.
"""

from firmware.compat import const

# Record types: the body's first byte.
R_BOOT = const(1)  # code: why the shoe booted, BOOT_*
R_SEANCE = const(2)  # code: table; card: game; disposition, condition: the employee (pack_employee)
R_LOAD = const(3)  # code: game
R_NO_MORE_BETS = const(4)
R_CARD = const(5)  # code: the hand it was dealt to (pack_hand)
R_COUP_END = const(6)  # code: END_*
R_ALARM = const(7)  # code: ALARM_* / FAULT_*
R_CLEAR = const(8)  # code: the alarm cleared
R_FINDING = const(9)  # code: F_*; card: the card concerned
R_CLOSED = const(10)
R_RELEASE = const(11)  # intent, durable before the gate opens; code: REL_DEAL or REL_BURN (J-DURABLE)
R_RECOVERY = const(12)  # code: torn bytes cut (pack_torn); condition: the release left uncertain, REL_* (at boot,
# or when a fault such as lost interrupt events closes a release whose card may have gone unseen)
R_STAND = const(13)  # code: the hand that stands on an optional cell of the tableau
R_RESULT = const(14)  # code: pack_result; card: pack_counts; disposition: the number of hands
R_SEANCE_CLOSE = const(15)  # code: the table
# Banque ouverte (Article 61): written only at a séance opened for it, or when its commands are used.
R_OUVERTE = const(16)  # after R_SEANCE: code: the séance's rank in its casino day (1, 2); disposition: the break, min
R_REFUSAL = const(17)  # a séance's opening refused; code: why (events.REF_SEANCES, REF_BREAK); card: its game
R_CANDIDATE = const(18)  # code: a player who wants the bank (1-255)
R_DRAW = const(19)  # the bank drawn by lot: code: the random value; card: candidates; disposition: the winner
# First in a segment begun while a casino day at banque ouverte is under way: the day's count restated, as recovery
# reads the last segment only. card: its séances (1, 2) | DAY_OPEN | DAY_UNCLOSED; code, disposition, condition:
# the last one's close (seconds since 2020, low 16 bits, then a byte each), or the day's start when it has none.
R_OUVERTE_DAY = const(20)
# A value of the secure element's counter 0 spent with no checkpoint entry (firmware/checkpoints.py; J-TAMPER): the
# verifier accepts a gap in the checkpoints' counters only where these records cover it. code, disposition: the
# counter (bits 0-15, 16-23), the last value spent; card: how many values, that one the last; condition: why,
# EL_CUT (found at power-up, the counter ahead of the last checkpoint) or EL_FAULT (the element failed to sign).
R_ELEMENT = const(21)
EL_CUT = const(1)
EL_FAULT = const(2)
# A change of the casino's authority on the shoe (P-AUTHORITY), journalled before it takes effect, three records in
# one step: who asked, the value before, the value after (the part: condition bits 4-5, 0, 1, 2), each a 32-bit
# value in code (bits 0-15), card (16-23) and disposition (24-31); condition bits 0-3: what changed, AU_*. Who: the
# first 4 bytes of the id of the casino's key that authenticated it (zeros: over mpremote, no key).
R_AUTHORITY = const(22)
AU_NUMBER = const(1)  # the sabot number (S-IDENT): before, after
AU_KEY = const(2)  # the casino's key: its id's first 4 bytes before (zeros: none) and after
AU_CLOCK = const(3)  # the clock: the shoe's time before, the time set, seconds since 2020
AU_CLOCK_FORCED = const(4)  # the same, more than a day ahead of the journal's last record, under --force
CLOCK_AHEAD_MOST = const(86400)  # seconds a clock set may go past the journal's last record without --force
# 23: requests on the shoe's cable answered busy, a burst of them: firmware/record_names.py's R_BURST (the readers'
# and firmware/protocol.py's, never the sim board's: each name here is heap in a whole shoe's 65 KB, H-SIM)

# Which fields each record type uses: firmware/record_names.py's USES_* and NO_CODE, for readers (the controller
# writes them by type and never asks).

# Why the shoe booted: R_BOOT's code. Only a power-up may follow a power cut; a restart and a watchdog's reset
# kept the power on (the board tells which: boards/mcu/service.py, boards/vboard/board.py).
BOOT_POWER = const(0)
BOOT_RESTART = const(1)  # a reset with the power on: MicroPython's soft reset, the reset button, `sabot clock set`
BOOT_WATCHDOG = const(2)  # the watchdog reset a loop that stopped feeding it
CAUSE_SHIFT = const(20)  # EV_POWER_UP's argument: the torn bytes below this bit (pack_torn), the cause from it

# A card's disposition and condition (J-EVERY).
DEALT = const(0)
BURNED = const(1)
STOP_CARD = const(2)
NORMAL = const(0)
FORCED = const(1)
DOUBLE_FEED = const(2)

# Alarms (security) and faults (equipment): R_ALARM's and R_CLEAR's code (S-FORCED, S-ONE).
ALARM_FORCED = const(1)
FAULT_DOUBLE_FEED = const(2)
FAULT_JAM = const(3)
FAULT_JOURNAL = const(4)
FAULT_JOURNAL_FULL = const(5)
FAULT_OVERRUN = const(6)  # the interrupts' event queue overflowed: something may have gone unseen
FAULT_FIRMWARE = const(7)  # the firmware's files differ from the approved release (H-FIRMWARE)
FAULT_ROLLBACK = const(8)  # at boot the journal ends before its last signed checkpoint, or no element (J-TAMPER)
FAULT_DEVKEY = const(9)  # a board's firmware under the public development key (firmware/devkey.py)
FAULT_ELEMENT = const(10)  # the secure element failed to sign a checkpoint: the shoe cannot vouch for its journal
ALARM_MAX = const(10)  # the highest code; the controller holds the codes raised as bits, code n as 1 << n - 1

# Findings: what the shoe sees that breaks a rule it cannot prevent; R_FINDING's code.
F_STOP_POSITION = const(1)  # S-STOPPOS
F_FOREIGN_CARD = const(2)  # S-COUNT
F_SHORT_COUP = const(3)  # a coup ended under the game's minimum (G-*)
F_NO_STOP = const(4)  # no stop card by the position where it must come out: the shoe closes after the coup (S-STOP)

# Why a coup ended: R_COUP_END's code.
END_BUTTON = const(0)
END_MAXIMUM = const(1)
END_TABLEAU = const(2)  # no hand may draw any more (T-CF, T-DT)

# Releases: R_RELEASE's code and R_RECOVERY's condition.
REL_NONE = const(0)
REL_DEAL = const(1)
REL_BURN = const(2)

# Who won a tableau, in R_RESULT's code.
WIN_PONTE = const(1)
WIN_BANQUE = const(2)
WIN_EGALITE = const(3)

# What a séance and a shoe's configuration may carry, checked where each enters (the scenario parser, /config.json
# in firmware/startup.py, firmware/remote.py's seance(), the host's `sabot seance`): the same limits on CPython and
# both VMs, every packed value then a small int on a 32-bit board.
TABLE_MIN = const(1)  # 0 is the panel's button
TABLE_MAX = const(4095)  # 12 bits of EV_SEANCE's argument (pack_seance)
EMPLOYEE_MAX = const(65535)  # R_SEANCE's two bytes (employee_low, employee_high)
SABOT_MAX = const(65535)  # the segment header's 16 bits (firmware/journal.py HEADER)

# Article 61's casino day: its hours, its candidates and R_OUVERTE_DAY's card are firmware/article61.py's.
BREAK_MIN = const(60)  # the break between the two séances (the dinner), minutes, when the config gives none

NO_HAND = const(255)  # pack_hand's and unpack_hand's "no hand": the card not read, or no tableau
_TORN_MAX = const(65535)


def pack_hand(hand):
    """R_CARD's code: the hand plus one, 0 for none."""
    return 0 if hand == NO_HAND else hand + 1


def pack_seance(table, game, employee):
    """EV_SEANCE's argument (0: the panel's button, whose table and game the board's config gives)."""
    return table | game << 12 | employee << 14


def seance_table(arg):
    return arg & TABLE_MAX


def seance_game(arg):
    return arg >> 12 & 3


def seance_employee(arg):
    return arg >> 14


def employee_low(employee):
    """R_SEANCE's disposition and condition: the employee number's low and high bytes (0-65535). Two ints, not
    a tuple, so the controller allocates nothing."""
    return employee & 255


def employee_high(employee):
    return employee >> 8


def pack_counts(counts):
    """R_RESULT's card: each hand's card count, 2 bits a hand."""
    return counts[0] | counts[1] << 2 | counts[2] << 4


def pack_result(totals, winner_1, winner_2):
    """R_RESULT's code: the totals, 4 bits a hand (hand 0 lowest), then from bit 12 the winner of each tableau,
    2 bits each (the second 0 at chemin de fer). An int, so the controller allocates nothing."""
    return totals[0] | totals[1] << 4 | totals[2] << 8 | winner_1 << 12 | winner_2 << 14


def pack_torn(torn):
    """R_RECOVERY's code: the torn bytes cut, at most 65535."""
    return torn if torn < _TORN_MAX else _TORN_MAX
