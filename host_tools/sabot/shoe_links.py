"""A shoe the technician's commands reach, the same calls whichever its transport (issue 34): a production shoe over
its protocol, each state-changing command under the casino's key (production_link.py), a development one through
mpremote (mpremote_link.py), its controller's loop interrupted by each call and resumed by done(). reach(port,
casino_key) gives the one that answers on port; the séance, number and clock commands (shoe_link.py, authority.py)
call it and branch on nothing but what a shoe is (production: the casino's registry follows its number)."""

from sabot.mpremote_link import ask, restart, restarted, resume
from sabot.production_link import authenticated, production, restarted_production


class ProtocolShoe:
    """A production shoe: its protocol; each state-changing call authenticated under the casino's key (its link then
    closed), and the shoe restarts by itself after a new number or clock."""

    production = True

    def __init__(self, port, client, casino_key):
        self.port = port
        self.client = client
        self.casino_key = casino_key

    def status(self):
        return self.client.status()

    def element_key(self):
        """Its element's public key (bytes), None without one."""
        from sabot.protocol import ProtocolError, Refused

        try:
            return self.client.enrol()
        except (Refused, ProtocolError):
            return None

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
        return ask(self.port, "from firmware.remote import state\nstate()")

    def element_key(self):
        return None  # a development shoe's number is not the casino's registry's

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


def reach(port, casino_key=None):
    """The shoe on port: a production one if its protocol answers, else a development one (mpremote's)."""
    client = production(port)
    return ProtocolShoe(port, client, casino_key) if client else MpremoteShoe(port)
