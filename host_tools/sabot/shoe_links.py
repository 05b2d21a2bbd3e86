"""A shoe the technician's commands reach, the same calls whichever its transport (issue 34): a production shoe over
its protocol, each state-changing command under the casino's key (production_link.py), a development one through
mpremote (mpremote_link.py), its controller's loop interrupted by each call and resumed by done(). reach(port,
casino_key) gives the one that answers on port: every command that reaches a shoe (pull-log, séance, number, clock,
status, key enrol, firmware verify, element provision, nuit) asks it, and branches on nothing but what a shoe is."""

import json

from sabot.device import DeviceError
from sabot.mpremote_link import STATUS_ASKED, ask, mpremote, restart, restarted, resume
from sabot.production_link import authenticated, production, restarted_production
from sabot.shoe_said import fault_in


def _answered(request, *args):
    """A request's answer, the protocol's failure (no answer, a refusal) as a DeviceError: one line, exit 2."""
    from sabot.protocol import ProtocolError, Refused

    try:
        return request(*args)
    except (ProtocolError, Refused) as e:
        raise DeviceError(str(e)) from None


class ProtocolShoe:
    """A production shoe: its protocol; each state-changing call authenticated under the casino's key (its link then
    closed), and the shoe restarts by itself after a new number or clock."""

    production = True

    def __init__(self, port, client, casino_key=None):
        self.port = port
        self.client = client
        self.casino_key = casino_key

    def status(self):
        """Its state (firmware/remote.py's status), read between its passes."""
        return _answered(self.client.status)

    def element_key(self):
        """Its element's public key (bytes), None without one."""
        from sabot.protocol import ProtocolError, Refused

        try:
            return self.client.enrol()
        except (Refused, ProtocolError):
            return None

    def firmware(self, seed):
        """Its image's answer to the seed (firmware/identity.py), and its fault if it is in one."""
        return dict(_answered(self.client.firmware, seed), fault=fault_in(self.port, self.status()))

    def seance(self, table, game, by, close):
        return authenticated(self.client, self.casino_key, "seance",
                             lambda c, key: c.seance(key, table, game, by, close=close))

    def number(self, sabot):
        return authenticated(self.client, self.casino_key, "number set", lambda c, key: c.set_number(key, sabot))

    def clock(self, seconds, fields, force):
        return authenticated(self.client, self.casino_key, "clock set",
                             lambda c, key: c.set_clock(key, seconds, fields, force=force))

    def done(self):
        """Nothing to resume: the shoe served the requests between its passes."""

    def restarted(self):
        """Its state once it has restarted by itself and answers again."""
        return restarted_production(self.port)

    def close(self):
        self.client.link.close()


class MpremoteShoe:
    """A development shoe: firmware/remote.py's functions run through its REPL, its loop stopped meanwhile."""

    production = False

    def __init__(self, port):
        self.port = port

    def status(self):
        """Its state, None when no controller runs on it (stopped before its loop, or never deployed)."""
        return ask(self.port, STATUS_ASKED)

    def element_key(self):
        return None  # a development shoe's number is not the casino's registry's

    def firmware(self, seed):
        """The challenge its REPL answers (firmware/identity.py), its fault if it is in one; its loop started again."""
        try:
            now = self.status()
        except DeviceError:
            now = None  # a shoe whose firmware cannot say its state: the challenge says what it runs
        said = mpremote(self.port, "exec", "from firmware.identity import challenge\nchallenge(%r)" % seed.hex())
        if now:
            self.done()
        return dict(json.loads(said.strip().splitlines()[-1]), configuration="development",
                    fault=fault_in(self.port, now))

    def seance(self, table, game, by, close):
        return ask(self.port, "from firmware.remote import seance\nseance(%d, %r, %d, close=%r)" % (
            table, game, by, close))

    def number(self, sabot):
        return ask(self.port, "from firmware.remote import number\nnumber(%d)" % sabot)

    def clock(self, seconds, fields, force):
        return ask(self.port, "from firmware.remote import set_clock\nset_clock(%d, %d, %d, %d, %d, %d, %d, %r)" % (
            seconds, *fields, force))

    def done(self):
        """Its controller's loop started again."""
        resume(self.port)

    def restarted(self):
        """Restarted over mpremote (a reset), then its state, serving again."""
        restart(self.port)
        return restarted(self.port)

    def close(self):
        """Nothing held between calls."""


def reach(port, casino_key=None, timeout=1.5):
    """The shoe on port: a production one if its protocol answers within timeout (production_link.production),
    else a development one (mpremote's)."""
    client = production(port, timeout=timeout)
    return ProtocolShoe(port, client, casino_key) if client else MpremoteShoe(port)
