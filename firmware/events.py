"""What a board and the shoe's core say to each other: the events a board hands the controller, the commands it
carries out, the codes of a refused input. Drivers and boards import these from here, not from
firmware/controller.py. Names only: the sim loads this module, and every name in it costs heap on the VM (H-SIM);
the queue that carries the events is firmware/runtime.py's.
"""

from firmware.compat import const

# Events, with their argument.
EV_POWER_UP = const(1)  # arg: the torn bytes recovery cut, the boot's cause (records.BOOT_*) << CAUSE_SHIFT
EV_SEANCE = const(2)  # a séance opens (S-IDENT); arg: records.pack_seance(table, game, employee)
EV_LOAD = const(3)  # a full shoe was loaded; arg: game index
EV_NO_MORE_BETS = const(4)  # the croupier's "rien ne va plus"
EV_COUP_END = const(5)
EV_BURN = const(6)  # burn button: release one card to burn, between coups only
EV_DRAW = const(7)  # the dealer asks for a card (card request pad at the mouth)
EV_CARD = const(8)  # the mouth sensor saw a card pass; arg: card code
EV_TICK = const(9)  # the timer the board runs for deadline()
EV_CLEAR = const(10)  # supervisor key
EV_FAULT = const(11)  # the board found a fault; arg: records.FAULT_* (journal write failed or full, events lost,
# the journal rolled back, the development key)
EV_STAND = const(12)  # the croupier announces that a hand stands where the tableau leaves the choice; arg: hand
EV_FIRMWARE = const(13)  # at boot, the files' check against the release manifest; arg: 1 they match, 0 not
EV_SEANCE_CLOSE = const(14)
EV_CANDIDATE = const(15)  # a player wants the bank (banque ouverte); arg: his number, 1-255
EV_ADJUDICATE = const(16)  # the bank drawn by lot among the candidates; arg: the board's random value, 16 bits
EV_ELEMENT = const(17)  # secure element counter values spent with no checkpoint (firmware/checkpoints.py); arg:
# the counter's last value spent | how many (up to 7) << 21 | why (records.EL_*) << 24 (firmware/checkpoints.py)
EV_AUTHORITY = const(18)  # the casino's authority changed (records.R_AUTHORITY); arg: what, records.AU_*; who asked,
# the values before and after in the controller's asked (12 bytes, 3 little-endian u32), filled just before
# 19: a burst of requests on the cable answered busy, arg the bursts since power-up: firmware/protocol.py's EV_BURST
# (named there, which the sim board never loads: each name here is heap in a whole shoe's 65 KB, H-SIM)

# Commands to the devices: (command, argument) pairs in cmds[].
CMD_GATE_OPEN = const(1)  # release exactly one card
CMD_GATE_CLOSE = const(2)
CMD_INDICATOR = const(3)  # arg: IND_*
CMD_BUZZER = const(4)  # arg: BUZZ_*

IND_LOCKED = const(0)
IND_DEALING = const(1)
IND_ALARM = const(2)
IND_CLOSED = const(3)
BUZZ_REFUSED = const(1)
BUZZ_ALARM = const(2)

# Why an input was refused (refused is 0 when it was accepted). Every input checks its argument, then what it needs
# of the shoe (a release under way, an alarm, the shoe, the coup, the séance: firmware/controller.py's _NEEDS, one
# row an event, in one order), then its own rule.
REF_NO_SHOE = const(1)
REF_LOCKED = const(2)
REF_CLOSED = const(3)
REF_ALARM = const(4)
REF_BUSY = const(5)
REF_IN_COUP = const(6)
REF_NOT_IN_COUP = const(7)
REF_TAILLES = const(8)
REF_NO_ALARM = const(9)
REF_BAD_GAME = const(10)
REF_NOT_OPTIONAL = const(11)
REF_FIRMWARE = const(12)
REF_BAD_FAULT = const(13)
REF_NO_SEANCE = const(14)
REF_SEANCES = const(15)  # Article 61: two séances at banque ouverte already in this casino day
REF_BREAK = const(16)  # Article 61: the break after the day's first séance is not over
REF_CANDIDATES = const(17)  # a draw with fewer than two candidates, or a candidate twice, or too many
REF_NOT_OUVERTE = const(18)  # candidates and the draw: at a séance of banque ouverte only
REF_SEANCE_OPEN = const(19)  # a new number or casino key while a séance is open (P-AUTHORITY)
