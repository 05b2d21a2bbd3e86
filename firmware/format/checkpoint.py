"""The checkpoint file's entries (docs/journal-format.md, "Checkpoints"): its name, the entry's versions, layout and
offsets, the label its signed bytes begin with, the key id's label, and why an entry was written (its reason byte).
Written by the shoe (firmware/checkpoints.py), read by the host's readers (sabot.checkpoints, sabot.receipts,
sabot.openings, sabot.kept), which import this and nothing of the shoe. Not in firmware/layout.py, which every shoe
loads: the sim board's shoe, which has no element, must run in a 65 KB heap (H-SIM), where each name costs."""

from firmware.compat import const

FILE = "checkpoints.sbc"
VERSION = const(3)  # signed by the element's internal-sign key, vouching for its counter; 2: by slot 0, external
EXTERNAL = const(2)  # a part with no internal-sign key (148 bytes); 1: journal format 4's, 116 bytes, not chained
ENTRY = "<BBHIII32s32s"  # version, reason, sabot, counter, segment, seq, chain the next record links to, previous
PREVIOUS_AT = const(48)  # SHA-256 of the entry before it in the file, whole (zeros for a journal's first)
SIGNED = const(80)  # the bytes vouched for, after LABEL: their digest's first 20 bytes are the element's NumIn
RAND_AT = const(80)  # version 3: the element's RandOut, 32 bytes (its Nonce's random number, in TempKey)
CHIP_AT = const(112)  # version 3: the 5 configuration bytes its message carries (ATECC.attestation)
SIGNATURE_AT = const(117)  # R || S, 64 bytes (80 in version 2)
CRC_AT = const(181)  # CRC-32 of the bytes before it (144 in version 2)
SIZE = const(185)  # 148 in version 2
EXTERNAL_SIGNATURE_AT = const(80)
EXTERNAL_CRC_AT = const(144)
EXTERNAL_SIZE = const(148)
LABEL = b"sabot checkpoint\x00"
ELEMENT_ID = b"sabot element id "  # a header's key id on a board: SHA-256 of this and the public key, 8 bytes
# Why an entry was written (its reason byte).
BOOT = const(1)  # a power-up that cut nothing
RECOVERY = const(2)  # a power-up that cut a torn tail
COUP_END = const(3)  # a step that ended a coup
SEANCE = const(4)  # a séance opened or closed
PULL = const(5)  # the journal pulled (sabot pull-log over mpremote)
BEGUN = const(6)  # a new journal begun (another number or key: the old one kept aside)
ALARM = const(7)  # a step that raised an alarm or a fault
AUTHORITY = const(8)  # the casino's authority changed (R_AUTHORITY): signed before it takes effect
OPENING = const(9)  # "no more bets" opened a coup: counted up and signed before the gate unlocks (issue 37)
