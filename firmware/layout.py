"""The journal's bytes: where each field of a record, a frame and a segment header is (docs/journal-format.md).

Beside firmware/records.py's codes, the one place every writer and reader takes an offset from: the journal and
the ring (firmware/journal.py, firmware/ring.py), the controller's snapshot, the verifier (host_tools/sabot), the
sim. host_tools/sabot/_frames.c repeats some in C; tests/host/test_layout.py checks it against these.
"""

from firmware.compat import const

MAGIC = b"SBJ"
VERSION = const(5)

# Record body: type, time (seconds since 2020-01-01 UTC and milliseconds), séance, taille, coup, position in
# the shoe, card, disposition, condition, code. The 2020 epoch keeps seconds a small int on 32-bit ports.
BODY = "<BIHHHHHBBBH"
BODY_SIZE = const(20)
FIELDS = ("type", "seconds", "ms", "seance", "taille", "coup", "position", "card", "disposition", "condition",
          "code")
EPOCH_2020 = 1577836800  # 2020-01-01T00:00:00Z in Unix seconds
# Where a field starts in the body (the type at 0): séance to position, 8 bytes, are a record's place in the shoe.
BODY_SECONDS = const(1)
BODY_MS = const(5)
BODY_SEANCE = const(7)
BODY_CARD = const(15)
BODY_CODE = const(18)

# Frame: sync, body length, sequence number, body, link (previous chain value's first bytes), CRC-32. No tag: the
# chain value after a record is SHA-256(the one before it || its body), 52 bytes, one SHA-256 block; the secure
# element signs the chain's head between coups (firmware/checkpoints.py).
SYNC = const(0xA5)
SEQ_AT = const(2)
BODY_AT = const(6)
LINK_AT = const(26)
CRC_AT = const(34)
FRAME_SIZE = const(38)
LINK_SIZE = const(8)
CHAIN_SIZE = const(32)  # a SHA-256 chain value
# CRC-32 of any bytes followed by their own CRC-32 (little-endian): an intact frame, header or ring entry checks to
# this small int, where the CRC itself (most values over 2**30) would be a long int allocated on a 32-bit board.
CRC_RESIDUE = const(0x2144DF1C)

# Segment header: fixed fields, the controller's snapshot, CRC-32.
HEADER = "<3sBHHI8s16s32sII"  # magic, version, header size, sabot, segment, key id, firmware, previous chain,
HEADER_FIXED = const(76)  # previous segment's valid length, sequence number of the record before this segment
PREVIOUS_CHAIN_AT = const(36)
# The controller's snapshot (Controller.snapshot()): séance, table, taille, tailles in the séance, game, coup, in a
# coup, cards dealt in the coup, position, stop card seen, the alarms (code n as bit n - 1), phase, release under
# way; then one count a card code (S-COUNT), 54 bytes, then the coup's hands, 13 bytes (tableau.Coup.save).
SNAPSHOT = "<HHHBBHBBHBHBB"
SNAPSHOT_FIXED = const(19)
SNAPSHOT_HANDS = const(73)
SNAPSHOT_SIZE = const(86)
# Format 5: the firmware's name is 32 bytes, its first 16 in HEADER's, the rest after the snapshot (format 4 cut a
# board's name at 16: "sabot 0.3.0 rpi_"); every offset before them is format 4's.
FIRMWARE_SIZE = const(32)
FIRMWARE_MORE_AT = const(162)
HEADER_CRC_AT = const(178)
HEADER_SIZE = const(182)
