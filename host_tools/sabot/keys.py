"""`sabot key`: a shoe's journal key made at commissioning and installed on the shoe (docs/keys.md). The secret is
never printed: the shoe and the file are compared by the key's id."""

import os
import secrets
import sys

from firmware.journal import Key
from firmware.startup import KEY
from sabot.journalfile import Unusable
from sabot.shoe_link import DeviceError, ask, fault, mpremote, restart, restarted
from sabot.verify import read_key


def new_key(path, out=sys.stdout):
    """32 random bytes as hexadecimal text, in a file only its owner can read."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as e:
        hint = ": choose another name (an existing key is never overwritten)" if e.errno == 17 else ""
        print("sabot key new: error: %s: %s%s" % (path, e.strerror, hint), file=sys.stderr)
        return 2
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32) + "\n")
    out.write("key written to %s; install it on the shoe: sabot key install --port PORT %s\n" % (path, path))
    return 0


_DEVICE_KEY_ID = """
from firmware.startup import read_key
try:
    print(read_key().id.hex())
except OSError:
    print('none')
"""

def install(port, path, force=False, out=sys.stdout):
    """Copy a key file to the shoe's /keys/sabot.key (the folder made), check it there by its id, and restart
    the shoe so that it signs with it. A different key already on the shoe stays unless force."""
    try:
        key_id = Key(read_key(path)).id.hex()
        present = mpremote(port, "exec", _DEVICE_KEY_ID).strip().splitlines()[-1]
        if present == key_id:
            out.write("the shoe on %s already holds key id %s\n" % (port, key_id))
            return 0
        if present != "none" and not force:
            raise DeviceError("the shoe on %s holds another key (key id %s): its journal is signed with it; "
                              "give --force to replace it" % (port, present))
        folder = KEY.rpartition("/")[0]
        mpremote(port, "exec", "import os\ntry:\n    os.mkdir(%r)\nexcept OSError:\n    pass" % folder,
                 "+", "fs", "--no-verbose", "cp", str(path), ":" + KEY)
        installed = mpremote(port, "exec", _DEVICE_KEY_ID).strip().splitlines()[-1]
        if installed != key_id:
            raise DeviceError("the shoe reads key id %s from %s, not %s: install it again" % (installed, KEY, key_id))
        kept = ask(port, "from firmware.remote import fresh\nfresh()")
        restart(port)
        now = restarted(port)
    except (DeviceError, Unusable) as e:
        print("sabot key install: error: %s" % e, file=sys.stderr)
        return 2
    if now["broken"] or now["alarms"] or now["key"] != key_id:
        print("sabot key install: error: %s" % fault(port, dict(now, fault=now["alarms"])), file=sys.stderr)
        return 1
    out.write("key id %s installed on the shoe on %s as /%s%s; the shoe restarted to sign its journal with it: boot "
              "record %d\n" % (key_id, port, KEY, kept["kept"] and "; its journal under key id %s kept in /%s/, a new "
                                "one begun" % (kept["was"]["key"], kept["kept"]) or "", now["seq"]))
    return 0
