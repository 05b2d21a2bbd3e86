"""The hardware watchdog, started at its first feed: by then boot's journal recovery is over, which on a full segment
may outlast the RP2040's 8.4 s maximum timeout. Until then the gate is locked anyway. Once started it cannot be
stopped: a loop that stops feeding it (stuck, or stopped by a technician's Ctrl-C) resets the board."""


class Watchdog:
    def __init__(self, make, timeout_ms):
        self._make = make  # machine.WDT
        self._timeout_ms = timeout_ms
        self._wdt = None

    def feed(self):
        wdt = self._wdt
        if wdt is None:
            self._wdt = self._make(timeout=self._timeout_ms)
        else:
            wdt.feed()
