"""What a device runs at boot (its main.py calls start()): the configuration, the journal, then the board's own
start. Files on the device, outside the firmware: /config.json, /keys/casino.key once enrolled (a production shoe's;
/keys/enrolment.key, the factory's code, until then),
/journal/ (its segments and its signed checkpoints, firmware/checkpoints.py). No file holds a key that signs the
journal: its secure element does (docs/keys.md).
"""

import json

from firmware import identity
from firmware.checkpoints import Checkpoints
from firmware.games import by_name
from firmware.journal import Journal
from firmware.mac import Key
from firmware.records import BREAK_MIN, SABOT_MAX, TABLE_MAX, TABLE_MIN
from firmware.ring import RingStorage
from firmware.shell import Shell
from firmware.storage import FileStorage
from firmware.version import IMAGE, development_identity

CONFIG = "config.json"  # {"board": "rpi_pico", "sabot": 42}
CASINO_KEY = "keys/casino.key"  # the casino's key its commands are authenticated under (docs/protocol.md)
# The factory's one-time enrolment code (the shoe's label), as a key: the only key a first casino key is taken under;
# spent (removed) once one is (docs/keys.md, "Le code d'enrôlement")
ENROLMENT_KEY = "keys/enrolment.key"
JOURNAL = "journal"


_FLAGS = ("reader", "stop_detector")  # fitted or not: true or false


def whole(what, value, low, high):
    """value when it is a whole number from low to high (not a bool), else ValueError saying so."""
    if type(value) is not int or not low <= value <= high:
        raise ValueError("%s %r: a whole number from %d to %d" % (what, value, low, high))
    return value


def check_config(config, path=CONFIG):
    """The configuration's values refused at the edge, one clear line, rather than wrapped or crashed on later."""
    if type(config) is not dict or type(config.get("board")) is not str or "sabot" not in config:
        raise ValueError("%s needs \"board\" (a name) and \"sabot\"" % path)
    whole('%s: "sabot"' % path, config["sabot"], 0, SABOT_MAX)
    if "table" in config:
        whole('%s: "table"' % path, config["table"], TABLE_MIN, TABLE_MAX)
    if "game" in config:
        by_name(config["game"])
    if "ouverte_break" in config:
        whole('%s: "ouverte_break"' % path, config["ouverte_break"], 0, 255)  # minutes (Article 61's dinner)
    for flag in _FLAGS:
        if flag in config and type(config[flag]) is not bool:
            raise ValueError('%s: "%s" %r: true or false' % (path, flag, config[flag]))
    return config


def load_config(path=CONFIG):
    with open(path) as f:
        return check_config(json.load(f), path)


def read_key(path):
    """A key file (`sabot key new`): hexadecimal text."""
    with open(path) as f:
        text = f.read().strip()
    return Key(bytes.fromhex(text))


def held_keys():
    """(the casino's Key, the enrolment code's Key) a production shoe holds, each None when it has none: its
    protocol's keys (firmware/protocol.py), read at each boot."""
    held = []
    for path in (CASINO_KEY, ENROLMENT_KEY):
        try:
            held.append(read_key(path))
        except (OSError, ValueError):
            held.append(None)  # none: not enrolled (every state-changing command refused), or the code spent
    return held[0], held[1]


def check_firmware(board):
    """(identity bytes for the journal, True when the files match the release manifest, None without one). A
    production Pico reads no manifest from its filesystem, which holds data alone: its code is the image's, and its
    name says so, where the development image's says it is one (a boot under it is then a segment of its own)."""
    if identity.REGION is not None:
        return development_identity(board, IMAGE), None
    try:
        manifest = identity.load_manifest()
    except (OSError, ValueError):
        return development_identity(board), None  # a development build: no release to compare with
    wrong = identity.check(manifest)
    for name in wrong:
        print("firmware: %s differs from the release manifest: the shoe stays locked" % name)
    return identity.release_identity(manifest), not wrong


def open_journal(config, wall, key, firmware=None, ring=None):
    """The shoe's journal on its flash, through the write-ahead ring when the board has its partition (a block
    device, firmware/ring.py), named after key (its element's, Checkpoints.key())."""
    files = FileStorage(JOURNAL)
    storage = files if ring is None else RingStorage(ring, files)
    return Journal(storage, key, config["sabot"], firmware or development_identity(config["board"]), wall)


def make_shell(config, gate, indicator, buzzer, wall, ring=None, element=None):
    """The shell of a real board: its journal named after the firmware checked at boot and after the board's secure
    element, which signs its checkpoints (element: its driver; None when it has none, and every power-up is then a
    rollback fault: the shoe cannot tell). With no element answering it has no key of its own: it starts locked,
    with the fault that says so (Checkpoints.attach)."""
    firmware, ok = check_firmware(config["board"])
    points = Checkpoints(JOURNAL, element, config["sabot"])
    key = points.key()
    shell = points.attach(Shell(gate, indicator, buzzer, open_journal(config, wall, key, firmware, ring), None, ok))
    shell.ctl.break_min = config.get("ouverte_break", BREAK_MIN)
    return shell


def start(path=CONFIG):
    config = load_config(path)
    board = __import__("boards.%s.board" % config["board"], None, None, ("start",))
    if not hasattr(board, "start"):  # the sim board is the simulator's; the virtual board is a board of its own
        raise ValueError('%s: "board" %r starts nothing: rpi_pico, esp32 or vboard' % (path, config["board"]))
    board.start(config)
