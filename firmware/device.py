"""What a device runs at boot (its main.py calls start()): the configuration, the shoe's key, the journal, then
the board's own start. Files on the device, outside the firmware: /config.json, /keys/sabot.key, /journal/.
"""

import json

from firmware.journal import Journal, Key
from firmware.storage import FileStorage
from firmware.version import identity

CONFIG = "config.json"  # {"board": "rpi_pico", "sabot": 42}
KEY = "keys/sabot.key"  # the shoe's key, hexadecimal, provisioned at commissioning (docs/keys.md)
JOURNAL = "journal"


def load_config(path=CONFIG):
    with open(path) as f:
        config = json.load(f)
    if "board" not in config or "sabot" not in config:
        raise ValueError("%s needs \"board\" and \"sabot\"" % path)
    return config


def read_key(path=KEY):
    with open(path) as f:
        text = f.read().strip()
    return Key(bytes.fromhex(text))


def open_journal(config, wall_ms, key=None):
    """The shoe's journal on its flash; a missing key file raises, and the shoe stays locked."""
    return Journal(FileStorage(JOURNAL), key or read_key(), config["sabot"], identity(config["board"]), wall_ms)


def start(path=CONFIG):
    config = load_config(path)
    board = __import__("boards.%s.device" % config["board"], None, None, ("start",))
    board.start(config)
