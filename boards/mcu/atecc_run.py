"""The ATECC608B's execution layer, as cryptoauthlib's calib_execution.c does it but a poll at a time: a sequence of
commands sent in one wake and its answers polled for (Run), an increment settled by reading the counter back when its
answer is lost (Counting), and the errors the driver raises. boards/mcu/atecc.py, the API, starts them and talks to
the bus; a shoe's loop polls them once a pass, the driver's own calls in a loop that sleeps."""

from firmware.compat import const

ATTEMPTS = const(3)  # a whole sequence sent at most this many times


class ElementError(OSError):
    """The element refused a command or answered garbled bytes, or no element answers: status is its status code
    (None for a garbled answer or none)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class Again(ElementError):
    """A failure that sending the command again may cure."""


class Run:
    """Commands sent to the element in one wake (ATECC.start), their answers polled for without waiting: a shoe's loop
    polls a receipt's signature once a pass (firmware/receipt.py's Signing), so that the chip's 115 ms of signing (at
    the production clock) hold no pass; the driver's own commands are runs polled in a loop that sleeps. A transient
    failure sends the whole sequence again in a new wake, at most attempts times; the chip is put to idle after (to
    sleep after a transient failure: a clean start). number: the answer as a little-endian integer."""

    def __init__(self, element, commands, attempts, every, number):
        self._element = element
        self._commands = commands
        self._left = attempts
        self._every = every
        self._number = number
        self._index = -1  # the command awaited; -1: a wake and the first command due
        self._waited = 0
        self._got = b""
        self._answer = None
        self._failure = None
        self.done = False

    def poll(self, ms):
        """The answer once the chip gave it (the last command's; with every, all their data joined, a status that
        answers a command without data left out), None while it works;
        raises what failed, at every poll from then on. ms: the time since the last poll, at least (a pass of the
        loop counts as the 1 ms it sleeps: a chip is never given up on sooner than its longest time)."""
        if not self.done:
            element = self._element
            try:
                if self._step(ms):
                    element._idle_quietly()
                    self.done = True
            except Again as e:
                element._sleep_quietly()
                self._index = -1
                if not self._left:
                    self._failure = e
                    self.done = True
            except Exception as e:  # noqa: BLE001 - kept for the owner, who may not be the caller (ATECC.start)
                element._idle_quietly()
                self._failure = e
                self.done = True
        if self._failure is not None:
            raise self._failure
        return self._answer

    def _step(self, ms):
        element = self._element
        commands = self._commands
        if self._index < 0:
            self._left -= 1
            self._index = 0
            self._got = b""
            element.wake()
            self._send()
            return False
        self._waited += ms
        opcode, _, _, _, size = commands[self._index]
        one = element._taken(opcode, size, self._waited)
        if one is None:
            return False
        if not self._every:
            self._got = one
        elif size > 1:  # a command answered with data; one that only succeeded (a status byte) adds none
            self._got = self._got + one
        self._index += 1
        if self._index < len(commands):
            self._send()
            return False
        self._answer = int.from_bytes(self._got, "little") if self._number else self._got
        return True

    def _send(self):
        opcode, param1, param2, data, _ = self._commands[self._index]
        self._waited = 0
        self._element._send(opcode, param1, param2, data)


class Counting:
    """ATECC.increment a poll at a time (ATECC.incrementing): the read before when the caller knows no value, then
    the increment sent once a wake; a lost answer settled by reading the counter back (it moved: that value is the
    answer), counted again only when it did not, ATTEMPTS increments at most."""

    def __init__(self, element, which, seen):
        self._element = element
        self._which = which
        self._before = seen
        self._left = ATTEMPTS
        self._failure = None  # type: Exception | None  # the last increment's, while its read back is under way
        self._answer = None
        self.done = False
        self._run = element.reading(which) if seen is None else self._count()

    def _count(self):
        """The increment sent (one attempt: never counted twice blindly), or, when the chip did not take it, the read
        back that tells whether it counted."""
        self._left -= 1
        self._failure = None
        try:
            return self._element._incrementing_once(self._which)
        except Again as e:
            self._failure = e
            return self._element.reading(self._which)

    def poll(self, ms):
        if self.done:
            failure = self._failure
            if self._answer is None and failure is not None:
                raise failure
            return self._answer
        try:
            got = self._run.poll(ms)
        except Again as e:
            if self._before is None or self._failure is not None:
                raise self._over(e) from None  # a read failed, after the driver's own attempts
            self._failure = e  # the increment's answer lost: did it count?
            self._run = self._element.reading(self._which)
            return None
        except Exception as e:
            raise self._over(e) from None
        if got is None:
            return None
        if self._before is None:
            self._before = got  # the read before
        elif self._failure is None or got > self._before:
            self._answer = got  # counted (read back: only the answer was lost)
            self.done = True
            return got
        elif not self._left:
            raise self._over(self._failure) from None
        self._run = self._count()
        return None

    def _over(self, failure):
        self._failure = failure
        self.done = True
        return failure
