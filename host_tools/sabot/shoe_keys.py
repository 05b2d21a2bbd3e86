"""Each production shoe's own key, derived from the casino's (issue 38, docs/keys.md): HMAC-SHA256 under the
casino's key of the shoe's secure element's public key. The casino's key stays on its workstation and never crosses
the cable; a shoe's flash holds its own key alone, which gives nothing on another shoe's nor on the casino's. The shoe
itself knows no difference: it checks its commands with the key it was enrolled with (firmware/protocol.py)."""

import hmac
from hashlib import sha256

from firmware.mac import Key

LABEL = b"sabot shoe key v1 "


def shoe_secret(casino_secret, public_key):
    """The 32 bytes a shoe whose element has public_key (X || Y) holds under this casino's key."""
    return hmac.new(bytes(casino_secret), LABEL + bytes(public_key), sha256).digest()


def held_key(client, casino_secret):
    """The Key that authenticates the casino's commands to the shoe behind client: its own, derived from its
    element's public key; the casino's key itself on a shoe enrolled under it before shoe keys (`sabot key enrol`
    moves it onto its own), or on a shoe without an element to derive from."""
    from sabot.protocol import Refused

    casino = Key(casino_secret)
    if client.status().get("casino") == casino.id.hex():
        return casino
    try:
        return Key(shoe_secret(casino_secret, client.enrol()))
    except Refused:  # no element answers: nothing to derive from
        return casino
