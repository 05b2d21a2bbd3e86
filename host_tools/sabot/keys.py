"""`sabot key`: a shoe's enrolment (docs/keys.md): its number and its secure element's public key read and written to
the casino's registry, which verifies its journal; on a production shoe, over its protocol, the casino's key
installed too (a new shoe's first, under the one-time code on its label: sabot/enrolment_code.py). No secret leaves
the shoe or reaches it but the shoe's own key, wrapped, never printed: shoe and file are compared by the key's id."""

import json
import os
import secrets
import sys

from firmware.mac import Key
from sabot import csvout
from sabot.device import DeviceError
from sabot.enrolment_code import code_secret, install, write_label
from sabot.journalfile import Unusable
from sabot.json_out import said
from sabot.mpremote_link import element_key_of, resume
from sabot.shoe_keys import shoe_secret
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
    out.write("key written to %s; enrol a production shoe under it: sabot key enrol --port PORT --casino-key %s\n" % (
        path, path))
    return 0


REGISTRY = "shoes.json"  # the casino's shoes as enrolled: number, element's public key, casino key id
_FIELDS = ("sabot", "public_key", "casino_key", "enrolled")


def enrol(port, casino_key=None, registry=REGISTRY, current=None, out=sys.stdout, as_json=False, code=None):
    """Enrol a shoe: its number and its secure element's public key read and written to the casino's registry; on a
    production shoe, over its protocol, the casino's key installed (a first enrolment on a shoe that has none, under
    the one-time code on its label, code; a change only under the current key, --current). A development shoe is
    read over mpremote and takes no casino key."""
    from sabot import protocol
    from sabot.shoe_links import reach

    client = None
    try:
        secret = read_key(casino_key) if casino_key else None
        key_id = Key(secret).id.hex() if secret else None
        old = read_key(current) if current else None
        shoe = reach(port, timeout=10.0)  # a shoe only just started, or dealing, answers once it serves
        client = shoe.client if shoe.production else None
        if client is None:
            if secret:
                raise DeviceError("the shoe on %s is a development shoe (mpremote): it takes no casino key; enrol it "
                                  "without --casino-key (nor SABOT_CASINO_KEY, nor casino_key in sabot.toml)" % port)
            return _enrol_development(port, registry, out, as_json)
        if secret is None:
            raise DeviceError("the shoe on %s is a production shoe: give the casino's key, --casino-key FILE" % port)
        status = client.status()
        public = client.enrol()
        own = shoe_secret(secret, public)  # the shoe's own key: the casino's never crosses the cable
        own_id = Key(own).id.hex()
        if status["casino"] == key_id and old is None:  # enrolled under the casino's key itself, before shoe keys:
            own_id = key_id  # kept, and said, until `--current` gives it its own
        elif status["casino"] != own_id:
            was = _held(status["casino"], public, old) if status["casino"] else _first(port, status, code)
            if was is None:
                raise DeviceError("the shoe on %s holds casino key id %s: give it with --current FILE to change it"
                                  % (port, status["casino"]))
            done, answer = client.casino_key(was, own)
            if done == protocol.c.E_AUTH and not status["casino"]:
                raise DeviceError("the shoe on %s refused the enrolment code %s: not the code on its label (nothing "
                                  "changed; type it again from the label)" % (port, code))
            if done != protocol.c.OK:
                from sabot.shoe_said import refusal

                raise DeviceError(refusal(port, answer) if "refused" in answer else "the shoe refused the casino's "
                                  "key: %s" % protocol.Refused(done, answer))
        entry = {"sabot": status["sabot"], "public_key": public.hex(), "casino_key": key_id, "shoe_key": own_id,
                 "enrolled": _utc_now(), "port": port_entry(port, registry)}
        record(registry, entry)
    except (DeviceError, Unusable, protocol.ProtocolError, protocol.Refused, OSError) as e:
        print("sabot key enrol: error: %s" % e, file=sys.stderr)
        return 2
    finally:
        if client:
            client.link.close()
    if as_json:
        return said(out, "key enrol", port=port, sabot=entry["sabot"], public_key=entry["public_key"],
                    casino_key_id=key_id, configuration="production", registry=registry)
    own = ("the shoe's own key %s" % own_id if own_id != key_id else "the shoe holds the casino's key itself, enrolled "
           "before shoe keys: `sabot key enrol --current %s` gives it its own" % casino_key)
    out.write("sabot %d enrolled: element public key %s…, casino key id %s (%s); written to %s\n" % (
        entry["sabot"], entry["public_key"][:16], key_id, own, registry))
    return 0


def _first(port, status, code):
    """The Key a new shoe takes its first casino key under: its enrolment code's (the label's), never the new key
    itself; DeviceError saying what is missing."""
    if not status.get("code"):
        raise DeviceError("the shoe on %s holds no enrolment code, so it takes no first casino key: its factory writes "
                          "one (sabot key code, on the development image) and prints it on its label" % port)
    if not code:
        raise DeviceError("the shoe on %s is new: it takes its first casino key only with the enrolment code printed "
                          "on its label: --code XXXX-XXXX-XXXX-XXXX-XXXX (docs/keys.md)" % port)
    try:
        return Key(code_secret(code))
    except ValueError as e:
        raise DeviceError(str(e)) from None


def factory_code(port, label=None, out=sys.stdout):
    """The factory's bench: a new shoe's one-time enrolment code written to it (its key; a development shoe, over
    mpremote) and said for its label, and written to the file label; a shoe that holds a code or a casino key
    already keeps it (exit 2)."""
    try:
        if label and os.path.exists(label):
            raise DeviceError("%s exists: a label file is never overwritten" % label)
        code = install(port)
        if code is None:
            raise DeviceError("the shoe on %s holds an enrolment code or a casino key already: kept, nothing written"
                              % port)
    except (DeviceError, OSError) as e:
        print("sabot key code: error: %s" % e, file=sys.stderr)
        return 2
    if label:
        write_label(label, code)
    out.write("enrolment code written to the shoe on %s; print it on its label: %s\n" % (port, code))
    return 0


def _held(held_id, public, old):
    """The Key the shoe holds (its id held_id) of the current key file's (--current): that casino key's shoe key, or
    the file itself (a shoe enrolled under it before shoe keys); None when neither is it."""
    if old is not None:
        for key in (Key(shoe_secret(old, public)), Key(old)):
            if key.id.hex() == held_id:
                return key
    return None


def _enrol_development(port, registry, out, as_json=False):
    """A development shoe's enrolment over mpremote: its number and its element's public key, into the registry."""
    answer = element_key_of(port)
    resume(port)  # its loop, which mpremote interrupted, started again: the shoe deals on after its enrolment
    if answer.get("public_key") is None:
        print("sabot key enrol: error: the shoe on %s cannot sign its journal: %s" % (
            port, answer.get("error", "no secure element answers")), file=sys.stderr)
        return 2
    record(registry, {"sabot": answer["sabot"], "public_key": answer["public_key"], "casino_key": None,
                      "enrolled": _utc_now(), "port": port_entry(port, registry)})
    if as_json:
        return said(out, "key enrol", port=port, sabot=answer["sabot"], public_key=answer["public_key"],
                    casino_key_id=None, configuration="development", registry=registry)
    out.write("sabot %d enrolled: element public key %s…, a development shoe (no casino key); written to %s\n" % (
        answer["sabot"], answer["public_key"][:16], registry))
    return 0


def port_entry(port, registry):
    """The port as the registry keeps it, for `sabot nuit`: a device path as given (/dev/serial/by-id/... names the
    same shoe whatever USB socket), a relative one (a virtual board's FS.tty) relative to the registry's folder."""
    if os.path.isabs(port):
        return port
    return os.path.relpath(os.path.abspath(port), os.path.dirname(os.path.abspath(registry)))


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
    try:
        with open(registry) as f:
            held = json.load(f)
    except FileNotFoundError:
        held = {}
    _write(registry, dict(held, shoes=kept))


def _write(registry, held):
    with open(registry + ".new", "w") as f:
        json.dump(held, f, indent=1)
        f.write("\n")
    os.replace(registry + ".new", registry)


def renumbered(registry, public_key, sabot, replaced=()):
    """After `sabot number set`: the registry's entry of that element says the new number; the entries of another
    element under that number (replaced, `--replace`) leave the shoes for the registry's "replaced" list, with when
    and by which element (K-REGISTRY: one element a number)."""
    for shoe in shoes(registry):
        if shoe["public_key"] == public_key.hex():
            record(registry, dict(shoe, sabot=sabot))
    if not replaced:
        return
    with open(registry) as f:
        held = json.load(f)
    gone = {shoe["public_key"] for shoe in replaced}
    held["replaced"] = held.get("replaced", []) + [dict(shoe, replaced=_utc_now(), by=public_key.hex())
                                                   for shoe in held["shoes"] if shoe["public_key"] in gone]
    held["shoes"] = [shoe for shoe in held["shoes"] if shoe["public_key"] not in gone]
    _write(registry, held)


def export(registry=REGISTRY, form="csv", out=sys.stdout):
    """The registry for the ministry: CSV (a header line, one shoe a line) or JSON."""
    try:
        listed = shoes(registry)
    except (OSError, ValueError, KeyError) as e:
        print("sabot key export: error: %s: %s" % (registry, e), file=sys.stderr)
        return 2
    numbers = [shoe["sabot"] for shoe in listed]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:  # K-REGISTRY: the ministry never gets two rows for one number
        print("sabot key export: erreur : %s tient le sabot %s sous plusieurs éléments : un numéro par sabot "
              "(sabot number set N, ou --replace) ; rien n'est exporté / error: sabot %s held under several "
              "elements; nothing exported" % (registry, ", ".join(map(str, twice)), ", ".join(map(str, twice))),
              file=sys.stderr)
        return 2
    if form == "json":
        out.write(json.dumps({"shoes": [{name: shoe.get(name) for name in _FIELDS} for shoe in listed]},
                             indent=1) + "\n")  # the workstation's ports are the casino's alone
        return 0
    writer = csvout.DictWriter(out, _FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({name: shoe[name] for name in _FIELDS} for shoe in listed)
    return 0
