"""`sabot key`: a shoe's journal key made at commissioning and installed on the shoe (docs/keys.md); a production
shoe's enrolment over its protocol, the casino's key installed and the shoe written to the casino's registry. The
secret is never printed: the shoe and the file are compared by the key's id."""

import csv
import json
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


REGISTRY = "shoes.json"  # the casino's shoes as enrolled: number, element's public key, casino key id
_FIELDS = ("sabot", "public_key", "casino_key", "enrolled")


def enrol(port, casino_key, registry=REGISTRY, current=None, out=sys.stdout):
    """Enrol a production shoe over its protocol: its number and its secure element's public key read, the casino's
    key installed (a first enrolment on a shoe that has none; a change only under the current key, --current), and
    the shoe written to the casino's registry."""
    from sabot import protocol
    from sabot.production_link import production

    client = None
    try:
        secret = read_key(casino_key)
        key_id = Key(secret).id.hex()
        was = Key(read_key(current)) if current else None
        client = production(port, timeout=10.0)  # a shoe only just started, or dealing, answers once it serves
        if client is None:
            raise DeviceError("the shoe on %s answers no protocol: a development shoe takes its key by `sabot key "
                              "install`" % port)
        status = client.status()
        public = client.enrol()
        if status["casino"] != key_id:
            if status["casino"] is not None and was is None:
                raise DeviceError("the shoe on %s holds casino key id %s: give it with --current FILE to change it"
                                  % (port, status["casino"]))
            done, answer = client.casino_key(was, secret)
            if done != protocol.p.OK:
                raise DeviceError("the shoe refused the casino's key: %s" % protocol.Refused(done, answer))
        entry = {"sabot": status["sabot"], "public_key": public.hex(), "casino_key": key_id,
                 "enrolled": _utc_now()}
        record(registry, entry)
    except (DeviceError, Unusable, protocol.ProtocolError, protocol.Refused, OSError) as e:
        print("sabot key enrol: error: %s" % e, file=sys.stderr)
        return 2
    finally:
        if client:
            client.link.close()
    out.write("sabot %d enrolled: element public key %s…, casino key id %s; written to %s\n" % (
        entry["sabot"], entry["public_key"][:16], key_id, registry))
    return 0


def _utc_now():
    import datetime

    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()


def shoes(registry):
    try:
        with open(registry) as f:
            return json.load(f)["shoes"]
    except FileNotFoundError:
        return []


def record(registry, entry):
    """The entry in the registry, in place of any of the same element (its public key names the shoe)."""
    kept = [shoe for shoe in shoes(registry) if shoe["public_key"] != entry["public_key"]]
    kept = sorted(kept + [entry], key=lambda shoe: (shoe["sabot"], shoe["public_key"]))
    with open(registry + ".new", "w") as f:
        json.dump({"shoes": kept}, f, indent=1)
        f.write("\n")
    os.replace(registry + ".new", registry)


def renumbered(registry, public_key, sabot):
    """After `sabot number set`: the registry's entry of that element says the new number."""
    for shoe in shoes(registry):
        if shoe["public_key"] == public_key.hex():
            record(registry, dict(shoe, sabot=sabot))


def export(registry=REGISTRY, form="csv", out=sys.stdout):
    """The registry for the ministry: CSV (a header line, one shoe a line) or JSON."""
    try:
        listed = shoes(registry)
    except (OSError, ValueError, KeyError) as e:
        print("sabot key export: error: %s: %s" % (registry, e), file=sys.stderr)
        return 2
    if form == "json":
        out.write(json.dumps({"shoes": listed}, indent=1) + "\n")
        return 0
    writer = csv.DictWriter(out, _FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({name: shoe[name] for name in _FIELDS} for shoe in listed)
    return 0
