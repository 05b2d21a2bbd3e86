"""The protocol's commands and statuses (docs/protocol.md), as data: each command's code, the sizes its arguments may
have, and whether it is cheap (answered within any pass's budget). Codes below AUTHENTICATED read, never authenticated;
AUTHENTICATED and above change the shoe's state, the authenticator (frames.TAG_SIZE) after their arguments. The shoe's
handlers are firmware/commands.py's, one a command; the host's client (host_tools/sabot/protocol.py) reads this."""

from firmware.compat import const

C_STATUS = const(0x01)
C_CHALLENGE = const(0x02)
C_SEGMENTS = const(0x10)  # the first segment listed (u16), then the kept journal's number (u16; none: the journal's)
C_CHUNK = const(0x11)  # segment (u32; 0: the checkpoint file), offset (u32), count (u16), then the kept journal's
C_RECEIPT = const(0x12)  # the host's nonce, 16 to 32 bytes
C_ENROL = const(0x20)
C_FIRMWARE = const(0x21)  # the seed (32 bytes), the answer's page (u16)
C_SEANCE_OPEN = const(0x40)  # table (u16), employee (u16), the game's name's length (u8) and 16 bytes for it
C_SEANCE_CLOSE = const(0x41)  # as C_SEANCE_OPEN
C_CLOCK_SET = const(0x42)  # seconds since 2020 (u32), year (u16), month, day, hour, minute, second (u8 each)
C_CASINO_KEY = const(0x43)  # the new key (32 bytes), XORed with HMAC(current key, frames.WRAP + challenge)
C_NUMBER_SET = const(0x44)  # the sabot number (u16)
C_CLOCK_FORCE = const(0x45)  # as C_CLOCK_SET, more than a day ahead of the journal's last record (`clock set --force`)
AUTHENTICATED = const(0x40)

# Each command's arguments: (least, most, step) bytes (the authenticated ones' before their tag); a size outside is
# E_LENGTH. The cheap ones cost a pass nothing worth counting (firmware/protocol.py's budget): CHEAP.
ARGS = {
    C_STATUS: (0, 0, 1),
    C_CHALLENGE: (0, 0, 1),
    C_SEGMENTS: (2, 4, 2),
    C_CHUNK: (10, 12, 2),
    C_RECEIPT: (16, 32, 1),
    C_ENROL: (0, 0, 1),
    C_FIRMWARE: (34, 34, 1),
    C_SEANCE_OPEN: (21, 21, 1),
    C_SEANCE_CLOSE: (21, 21, 1),
    C_CLOCK_SET: (11, 11, 1),
    C_CASINO_KEY: (32, 32, 1),
    C_NUMBER_SET: (2, 2, 1),
    C_CLOCK_FORCE: (11, 11, 1),
}
CHEAP = (C_STATUS, C_CHALLENGE)

# Statuses: an answer's first payload byte (docs/protocol.md's table, its words in host_tools/sabot/protocol.py).
# E_VERSION to E_AUTH refuse a malformed, unknown or unauthenticated request: they are counted.
OK = const(0)
E_VERSION = const(1)
E_UNKNOWN = const(2)
E_LENGTH = const(3)
E_ARGUMENT = const(4)
E_NO_KEY = const(5)
E_CHALLENGE = const(6)
E_AUTH = const(7)
E_REFUSED = const(8)
E_FAULT = const(9)
E_BEHIND = const(10)
E_NOT_FOUND = const(11)
E_NO_ELEMENT = const(12)
E_NO_MANIFEST = const(13)
E_INTERNAL = const(14)
E_BUSY = const(15)  # the pass's expensive request, or its cheap ones, already answered: ask again (a flood's answer)


def fits(command, size):
    """Whether size bytes are arguments command takes."""
    least, most, step = ARGS[command]
    return least <= size <= most and (size - least) % step == 0
