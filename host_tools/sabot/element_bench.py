"""`sabot element provision`: the factory bench's one step for a generic ATECC608B (docs/keys.md, "Les puces").

A Trust&GO part (ATECC608B-TNGTLS, the default: boards/<board>/board.json) ships locked with its key, at 0x35:
nothing to do. A generic ATECC608B ships at 0x60 with its configuration zone unlocked and no key; on a shoe running
the development image, over mpremote, this writes its configuration (slot 0 a P-256 private key, slot 1 one for
internal signatures, the counters), locks it, has the chip generate its keys, locks the data zone and sets the
address it answers at from its next power-up on to the board's (UserExtraAdd, as a Trust&GO's): boards/mcu/
provision.py, run on the shoe through its own driver. A locked part, a part of another family or one that does not
answer is refused in one line, exit 2, and nothing changes. The shoe is then powered off and on (the element takes
its new address only then), and `sabot key enrol` reads the key."""

import sys

from sabot.device import DeviceError
from sabot.shoe_links import reach

GENERIC_ADDRESS = 0x60  # a generic ATECC608B as it ships (boards/mcu/atecc.py's GENERIC_ADDRESS)
_PROVISION = """from firmware.remote import provision_element
from boards.mcu.provision import provision
provision_element(lambda element: provision(element.at(%d)))"""


def address(text):
    """An I2C address as the datasheets write it: 0x60 (or 96)."""
    value = int(text, 0)
    if not 0x08 <= value <= 0x77:
        raise ValueError(text)
    return value


def provision(port, at=GENERIC_ADDRESS, out=sys.stdout):
    """Provision the element at address at of the development shoe on port: 0 done, 2 refused (the reason on
    stderr)."""
    from sabot.mpremote_link import ask

    try:
        shoe = reach(port)
        if shoe.production:
            shoe.close()
            raise DeviceError("the shoe on %s runs the production image: provision its element at the factory "
                              "bench, with the development image (boards/mcu/README.md)" % port)
        answer = ask(port, _PROVISION % at)
        if "refused" in answer:
            raise DeviceError("the element was not provisioned, nothing changed: %s" % answer["refused"])
    except DeviceError as e:
        print("sabot element provision: error: %s" % e, file=sys.stderr)
        return 2
    if answer.get("kept"):
        out.write("the journal begun before the element had a key is kept aside in /%s\n" % answer["kept"])
    out.write("element provisioned and locked: public key %s…\n"
              "power the shoe off and on (the element answers at the board's address from then on), then enrol it: "
              "sabot key enrol --port %s\n" % (answer["public_key"][:16], port))
    return 0
