"""The tools' side of a production shoe, the one that speaks the protocol alone (docs/protocol.md): finding out
whether a port has one, its state-changing commands under the casino's key, and its answer after a restart."""

import os
import time

from firmware.format.commands import C_STATUS
from firmware.frames import frame
from sabot.device import DeviceError, no_device
from sabot.repl_settle import settle


def production(port, timeout=1.5):
    """The protocol's client when the shoe on port is a production shoe (it answers the status request within
    timeout), None for a development shoe, which mpremote reaches: its serving loop ignores the probe's bytes,
    which hold no Ctrl-B to Ctrl-E and no line end; its REPL takes the frame's Ctrl-A (the version's and the status
    command's byte) into the raw REPL, and says so late on a loaded computer: settle (repl_settle.py) brings the
    REPL back to a known state before mpremote speaks. The timeout leaves a busy shoe (an emulated Pico on a loaded
    computer took over 0.5 s) time to answer, rather than be taken for a development one."""
    if not os.path.exists(port):
        raise no_device(port)
    from sabot import protocol

    try:
        client = protocol.Client(protocol.SerialLink(port), timeout=timeout)
    except protocol.PortBusy as e:
        raise DeviceError(str(e)) from None
    except protocol.ProtocolError:
        return None
    while set(frame(C_STATUS, client.seq + 1)) & _INERT:
        client.seq += 1
    try:
        client.status()
    except (protocol.ProtocolError, protocol.Refused):
        settle(client.link)  # the probe's Ctrl-A took its REPL into the raw REPL
        client.link.close()
        return None
    client.timeout = 10.0
    return client


_INERT = set(b"\x02\x03\x04\x05\r\n")  # what a probe never sends a development shoe's REPL


def authenticated(client, casino_key, command, act):
    """A state-changing command to a production shoe under the casino's key file: the shoe's answer, its JSON; a
    refusal of the protocol's (no key, wrong key) a DeviceError that says it in French and English."""
    from sabot import protocol
    from sabot.journalfile import Unusable
    from sabot.shoe_keys import held_key
    from sabot.verify import read_key

    try:
        if not casino_key:
            raise DeviceError("a production shoe takes `%s` only under the casino's key: give --casino-key FILE" % (
                command))
        try:
            secret = read_key(casino_key)
        except Unusable as e:
            raise DeviceError("the casino's key: %s" % e) from None
        status, answer = act(client, held_key(client, secret))  # the shoe's own key (sabot/shoe_keys.py)
    except (protocol.ProtocolError, ValueError) as e:
        raise DeviceError(str(e)) from None
    finally:
        client.link.close()
    if status in (protocol.c.OK, protocol.c.E_REFUSED, protocol.c.E_FAULT, protocol.c.E_BEHIND):
        return answer
    raise DeviceError("the shoe refused the command: %s" % protocol.Refused(status, answer))


def restarted_production(port, timeout=90.0):
    """The status of a production shoe once it has restarted and answers again (an emulated Pico boots in 1.4 s of
    its time, 5 to 10 times that of ours on a loaded machine)."""
    from sabot import protocol

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        client = production(port)
        if client:
            try:
                return client.status()
            except (protocol.ProtocolError, protocol.Refused):
                pass
            finally:
                client.link.close()
        time.sleep(0.2)
    raise DeviceError("the shoe on %s did not answer again within %d s of its restart" % (port, timeout))
