"""A development shoe's REPL brought to a known state before mpremote speaks to it. mpremote reads the raw REPL's
banner as the answer to its own Ctrl-A; a banner something else caused and said late (the production probe's
Ctrl-A, the raw REPL a reboot re-enters) is then taken for the answer to its raw-paste request, and mpremote fails
with `could not exec command (response: b'R\\x01')` after the board may already have run the command."""

import time

_SYNC = b"print('sabot'+'-sync')\r"  # a line the REPL runs: its output, not its echo, says "sabot-sync"
_SYNCED = b"sabot-sync"
SETTLE_MOST = 10.0


def settle(link, most=SETTLE_MOST):
    """Ctrl-C (what mpremote sends first: it stops a development loop), Ctrl-B back to the friendly REPL, then a
    line whose output is read here, and its prompt: the REPL answers in order, so everything said before has been
    read. True once settled; False after most seconds without the answer, or the port gone meanwhile (mpremote
    then tries as it would, and says what it finds)."""
    from sabot.protocol import ProtocolError

    try:
        link.write(b"\r\x03\x03\x02")
        link.write(_SYNC)
        deadline = time.monotonic() + most
        heard = b""
        while time.monotonic() < deadline and _SYNCED not in heard:
            heard = heard[-len(_SYNCED):] + link.read()
        if _SYNCED not in heard:
            return False
        prompt = heard[heard.index(_SYNCED) + len(_SYNCED):]
        while time.monotonic() < deadline and b">>> " not in prompt:
            prompt = prompt[-4:] + link.read()
        return b">>> " in prompt
    except ProtocolError:
        return False


def settled(port, most=SETTLE_MOST):
    """settle() on the port, opened for it alone: after a restart, whose reboot ends in the raw REPL (a soft reset
    from mpremote's raw REPL keeps it), before the next mpremote."""
    from sabot import protocol

    try:
        link = protocol.SerialLink(port)
    except protocol.ProtocolError:
        return False  # a board whose USB is re-enumerating: mpremote says what it finds
    try:
        return settle(link, most)
    finally:
        link.close()
