"""`sabot element provision`: the factory bench's one step for a generic ATECC608B (docs/keys.md, "Les puces").

A Trust&GO part (ATECC608B-TNGTLS, the default: boards/<board>/board.json) ships locked with its key: nothing to do.
A generic ATECC608B ships with its configuration zone unlocked and no key; on a shoe running the development image,
over mpremote, this writes its configuration (slot 0 a P-256 private key, the counters), locks it, has the chip
generate its key and locks the data zone (boards/mcu/provision.py, run on the shoe through its own driver). A locked
part, a part of another family or one that does not answer is refused in one line, exit 2, and nothing changes.
The shoe is restarted after, its journal then vouched for by the new key; `sabot key enrol` comes next."""

import sys

from sabot.device import DeviceError
from sabot.production_link import production

_PROVISION = "from firmware.remote import provision_element\nfrom boards.mcu.provision import provision\n" \
             "provision_element(provision)"


def provision(port, out=sys.stdout):
    """Provision the element of the development shoe on port: 0 done, 2 refused (the reason on stderr)."""
    from sabot.shoe_link import ask, element_key_of, restart, resume

    try:
        client = production(port)
        if client is not None:
            client.link.close()
            raise DeviceError("the shoe on %s runs the production image: provision its element at the factory "
                              "bench, with the development image (boards/mcu/README.md)" % port)
        answer = ask(port, _PROVISION)
        if "refused" in answer:
            raise DeviceError("the element was not provisioned, nothing changed: %s" % answer["refused"])
        restart(port)
        enrolled = element_key_of(port)
        resume(port)
    except DeviceError as e:
        print("sabot element provision: error: %s" % e, file=sys.stderr)
        return 2
    if enrolled.get("public_key") != answer["public_key"]:
        print("sabot element provision: error: the element was provisioned (public key %s…) but the shoe, "
              "restarted, reads %s from it: check its wiring" % (answer["public_key"][:16],
                                                                 enrolled.get("public_key")), file=sys.stderr)
        return 2
    if answer.get("kept"):
        out.write("the journal begun before the element had a key is kept aside in /%s (mpremote)\n" % answer["kept"])
    out.write("element provisioned and locked: public key %s…; enrol the shoe: sabot key enrol --port %s\n" % (
        answer["public_key"][:16], port))
    return 0
