"""Simulated devices: what the shell drives on the sim board, recording what a real one would do."""

from firmware.ticks import TICKS_MAX


class VirtualClock:
    """Milliseconds since power-on of the simulation; only the runner moves it."""

    def __init__(self):
        self.now = 0

    def ticks(self):
        """What time.ticks_ms() would read: the firmware's time, wrapping every 2**30 ms as on a 32-bit board."""
        return self.now & TICKS_MAX


class SimWall:
    """The journal's clock on the sim and the bench: seconds since 2020 and milliseconds, from a millisecond clock
    (now_ms()) that started at start_s."""

    def __init__(self, now_ms, start_s):
        self._now_ms = now_ms
        self._start_s = start_s
        self.seconds = start_s
        self.ms = 0

    def stamp(self):
        now = self._now_ms()
        self.seconds = self._start_s + now // 1000
        self.ms = now % 1000


class SimOutputs:
    """The gate, the indicator and the buzzer the shell drives, in one object that records what a real board's would
    do: the board hands it to the shell for all three (a class less on a small heap, H-SIM). The gate is fail-secure:
    locked unless something positively holds it open (S-FAILSAFE)."""

    def __init__(self):
        self.is_open = False  # the gate
        self.releases = 0
        self.state = -1  # the indicator's IND_*
        self.sounded = 0  # the buzzer's count and last BUZZ_*
        self.last = 0

    def open(self):
        self.is_open = True
        self.releases += 1

    def close(self):
        self.is_open = False

    def show(self, state):
        self.state = state

    def sound(self, pattern):
        self.sounded += 1
        self.last = pattern
