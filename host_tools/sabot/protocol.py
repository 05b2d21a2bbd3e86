"""The host's side of the shoe's protocol (docs/protocol.md, firmware/protocol.py): requests framed as the shoe
reads them, over its serial port (or the virtual board's pty), each answer awaited within a timeout; a
state-changing command asks the shoe's challenge first and carries the casino key's authenticator."""

import errno
import json
import os
import struct
import termios
import time

from firmware import protocol as p
from firmware.format import commands as c

# Each status's words, French first (docs/protocol.md's table).
STATUSES = {
    c.OK: ("fait", "done"),
    c.E_VERSION: ("version du protocole inconnue", "unknown protocol version"),
    c.E_UNKNOWN: ("commande inconnue", "unknown command"),
    c.E_LENGTH: ("longueur invalide pour la commande", "wrong length for the command"),
    c.E_ARGUMENT: ("valeur hors limites", "value out of range"),
    c.E_NO_KEY: ("aucune clé du casino enrôlée", "no casino key enrolled"),
    c.E_CHALLENGE: ("défi absent, expiré ou déjà utilisé", "no challenge, or expired, or used"),
    c.E_AUTH: ("authentification refusée", "authenticator refused"),
    c.E_REFUSED: ("refusé par le sabot", "refused by the shoe"),
    c.E_FAULT: ("sabot en défaut : rien n'est journalisé", "the shoe is in fault: nothing journalled"),
    c.E_BEHIND: ("l'heure reculerait derrière le journal", "the time would go back behind the journal"),
    c.E_NOT_FOUND: ("segment inconnu", "no such segment"),
    c.E_NO_ELEMENT: ("pas d'élément sécurisé", "no secure element"),
    c.E_NO_MANIFEST: ("pas de manifeste de version", "no release manifest"),
    c.E_INTERNAL: ("erreur interne, porte verrouillée", "internal error, gate locked"),
    c.E_BUSY: ("sabot occupé, redemander", "the shoe is busy: ask again"),
}


class ProtocolError(Exception):
    """No answer, a garbled one, or one that is not the request's."""


class PortBusy(ProtocolError):
    """The port is held by another program of ours or mpremote (each locks the ports it opens, as mpremote does)."""


class Refused(Exception):
    """The shoe answered with a status other than OK: status, and the answer's data."""

    def __init__(self, status, data):
        self.status = status
        self.data = data
        words = STATUSES.get(status, ("statut %d" % status, "status %d" % status))
        super().__init__("%s (%s)" % (words[1], words[0]))


class SerialLink:
    """The shoe's serial port, raw: pyserial (mpremote's own dependency) on a device or a pty, locked while open as
    mpremote locks it (flock): a second program (`sabot nuit` while `sabot pit follow` holds the port) is told so
    rather than taking the first one's answers."""

    def __init__(self, port):
        import serial

        try:
            self.port = serial.Serial(port, 115200, timeout=0.05, exclusive=True)
        except (serial.SerialException, OSError) as e:
            if e.errno == errno.EWOULDBLOCK:
                raise PortBusy("the port %s is held by another program (a `sabot pit follow`, a `sabot nuit`, "
                               "mpremote): stop it first / le port est tenu par un autre programme" % port) from None
            raise ProtocolError("cannot open %s: %s" % (port, e)) from None

    def write(self, data):
        try:
            self.port.write(data)
            self.port.flush()
        except (OSError, termios.error) as e:  # pyserial's SerialException is an OSError; tcdrain's is not
            raise ProtocolError("the link to the shoe was lost (cable pulled?): %s" % e) from None

    def read(self):
        try:
            return self.port.read(max(1, self.port.in_waiting))
        except (OSError, termios.error) as e:
            raise ProtocolError("the link to the shoe was lost (cable pulled?): %s" % e) from None

    def close(self):
        self.port.close()


class Client:
    """Requests over a link (write(bytes), read() -> bytes within a short wait); answers matched by sequence
    number, anything else on the line skipped."""

    def __init__(self, link, timeout=5.0, clock=time.monotonic):
        self.link = link
        self.timeout = timeout
        self.clock = clock
        self.seq = int.from_bytes(os.urandom(2), "little")
        self.answers = []
        self.framer = p.Framer(self._frame)

    def _frame(self, view):
        self.answers.append((view[2], view[3] | view[4] << 8, bytes(view[p.HEADER:])))

    def request(self, command, payload=b""):
        """The answer's data when its status is OK; Refused otherwise, ProtocolError without an answer."""
        status, data = self.ask(command, payload)
        if status != c.OK:
            raise Refused(status, data)
        return data

    def ask(self, command, payload=b""):
        """(status, data) of the shoe's answer; asked again, a little later, while the shoe answers E_BUSY (its pass
        had answered its budget already: docs/protocol.md)."""
        deadline = self.clock() + self.timeout
        self.seq = (self.seq + 1) & 0xFFFF  # the same on a retry: an authenticator covers it
        while True:
            status, data = self._ask_once(command, payload, deadline)
            if status != c.E_BUSY or self.clock() >= deadline:
                return status, data
            time.sleep(0.05)

    def _ask_once(self, command, payload, deadline):
        self.answers.clear()
        self.link.write(p.frame(command, self.seq, payload))
        while self.clock() < deadline:
            self.framer.feed(self.link.read(), int(self.clock() * 1000) & 0x3FFFFFFF)
            for answer, seq, data in self.answers:
                if answer == command | p.ANSWER and seq == self.seq and data:
                    return data[0], data[1:]
        raise ProtocolError("no answer to command 0x%02x within %g s: is the shoe a production shoe on this port?"
                            % (command, self.timeout))

    def authenticated(self, key, command, args):
        """A state-changing command: the shoe's challenge, then the command with its authenticator."""
        nonce = self.request(c.C_CHALLENGE)
        tag = p.authenticator(key, nonce, command, (self.seq + 1) & 0xFFFF, args)
        return self.ask(command, args + tag)

    def status(self):
        return json.loads(self.request(c.C_STATUS))

    def segments(self, kept=0):
        """(segment, size) of every segment of the shoe's journal, the ring's undrained records counted; or of the
        journal it kept aside as journal.N (kept N)."""
        found, total = [], None
        while total is None or len(found) < total:
            data = self.request(c.C_SEGMENTS, struct.pack("<H", len(found)) + _kept(kept))
            total = struct.unpack_from("<H", data)[0]
            page = [struct.unpack_from("<II", data, at) for at in range(2, len(data), 8)]
            if not page and len(found) < total:
                raise ProtocolError("the shoe listed %d of %d segments" % (len(found), total))
            found += page
        return found

    def segment(self, segment, size, kept=0):
        """A segment's bytes, chunk by chunk (segment 0: the checkpoint file), of the journal or a kept one."""
        data = b""
        while len(data) < size:
            chunk = self.request(c.C_CHUNK, struct.pack("<IIH", segment, len(data), 508) + _kept(kept))
            if not chunk:
                break
            data += chunk
        return data

    def receipt(self, nonce):
        return json.loads(self.request(c.C_RECEIPT, nonce))

    def seance(self, key, table, game, by, close=False):
        """(status, answer) of a séance opened or closed."""
        name = game.encode()
        args = struct.pack("<HHB", table, by, len(name)) + name.ljust(16, b"\0")[:16]
        return self._answered(self.authenticated(key, c.C_SEANCE_CLOSE if close else c.C_SEANCE_OPEN, args))

    def set_clock(self, key, seconds, fields, force=False):
        """(status, answer) of the clock set; force: more than a day ahead of the journal's last record."""
        return self._answered(self.authenticated(key, c.C_CLOCK_FORCE if force else c.C_CLOCK_SET,
                                                 struct.pack("<IHBBBBB", seconds, *fields)))

    def enrol(self):
        """The secure element's public key, X || Y (64 bytes): what the casino's registry records."""
        return self.request(c.C_ENROL)

    def casino_key(self, current, secret):
        """(status, answer) of the casino's key (secret, 32 bytes) enrolled under the current Key: the one the shoe
        holds, or a new shoe's enrolment code's (sabot/enrolment_code.py); the new key wrapped under it, never in
        clear on the cable."""
        nonce = self.request(c.C_CHALLENGE)
        wrapped = bytes(a ^ b for a, b in zip(secret, current.tag(p.WRAP + nonce, p.TAG_SIZE)))
        tag = p.authenticator(current, nonce, c.C_CASINO_KEY, (self.seq + 1) & 0xFFFF, wrapped)
        return self._answered(self.ask(c.C_CASINO_KEY, wrapped + tag))

    def set_number(self, key, sabot):
        return self._answered(self.authenticated(key, c.C_NUMBER_SET, struct.pack("<H", sabot)))

    def firmware(self, seed):
        """The firmware challenge's answer, page by page: as firmware/identity.py's answer, and the configuration."""
        files = []
        while True:
            page = json.loads(self.request(c.C_FIRMWARE, seed + struct.pack("<H", len(files))))
            if "file" not in page:
                unlisted = ["%d file(s) that can run" % page["unlisted"]] if page["unlisted"] else []
                return {"files": files, "overall": page["overall"], "unlisted": unlisted,
                        "configuration": page.get("configuration", "production")}
            files.append(page["file"])

    @staticmethod
    def _answered(answer):
        status, data = answer
        return status, json.loads(data) if data else {}


def _kept(kept):
    """A read's kept journal field: none for the journal itself (the request as before kept journals)."""
    return struct.pack("<H", kept) if kept else b""
