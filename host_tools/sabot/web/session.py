"""The page's side inside the browser's MicroPython VM: the sim board played one scenario line at a time, through
the scenario's parser and the runner's act(), so that `sabot sim` plays the recorded lines to the same journal.

Runs on MicroPython (the WebAssembly port) and CPython alike; the page's JavaScript calls play() and finish().
"""

import json
import struct

from boards.sim.board import SimBoard
from boards.sim.runner import GAP_MS, act
from boards.sim.scenario import ScenarioError, commands
from firmware import games
from firmware.layout import BODY
from firmware.storage import FileStorage

JOURNAL = "/journal"
HEADER = "# recorded by sabot web: sabot sim FILE plays it to the page's journal\n"


class Recorder:
    """The board's observer: what happened since the page last asked, as data the page words in its language."""

    def __init__(self):
        self.items = []

    def note(self, now, text):
        self.items.append({"t": now, "note": text})

    def event(self, event, arg, now, ctl):
        if ctl.refused:
            self.items.append({"t": now, "event": event, "refused": ctl.refused})

    def command(self, command, arg, now):
        pass

    def record(self, body, seq):
        self.items.append({"seq": seq, "r": list(struct.unpack(BODY, body))})

    def take(self):
        items, self.items = self.items, []
        return items


class Session:
    """A shoe powered on at time 0, as run() starts a scenario; each play() is one line of the scenario."""

    def __init__(self, folder=JOURNAL):
        self.lines = []  # the scenario so far, each line one command
        self._queue = []
        self._parser = self._parse(())
        self.game = games.CHEMIN_DE_FER
        self.finished = False
        self.recorder = Recorder()
        self.board = SimBoard(FileStorage(folder), observer=self.recorder)
        self.board.power_on()

    def _parse(self, lines):
        """The scenario's own parser, fed the lines played so far, then each new line as it comes."""

        def source():
            yield from lines
            while self._queue:
                yield self._queue.pop(0)

        parser = commands(source(), "page")
        for _ in lines:
            next(parser)
        return parser

    def play(self, line):
        """Check and carry out one scenario line; JSON of what the page shows, or of the parser's error."""
        if not line.split("#", 1)[0].split():
            return json.dumps({"error": "page: an empty line is no command"})
        self._queue.append(line)
        try:
            _, command, a, b = next(self._parser)
        except ScenarioError as e:
            self._queue = []
            self._parser = self._parse(self.lines)  # the refused line killed the parser: a new one, as it was
            return json.dumps({"error": str(e)})
        if self.finished:  # the journal was taken after the run's closing gap: time the file must replay
            self.lines.append("wait %d" % GAP_MS)
            self.finished = False
        self.lines.append(line)
        self.game = act(self.board, self.game, command, a, b)
        return self.report()

    def finish(self):
        """What `sabot sim` does after a file's last line, the closing gap, so the journal now is the one it
        writes for scenario(); the next play() records that gap as a wait."""
        if self.lines and not self.finished:
            self.board.advance(GAP_MS)
            self.finished = True
        return self.report()

    def scenario(self):
        """The lines played, as a scenario file: after finish(), the one `sabot sim` plays to this journal."""
        return HEADER + "".join(line + "\n" for line in self.lines)

    def report(self):
        board = self.board
        ctl = board.shell.ctl if board.shell else None
        return json.dumps({
            "items": self.recorder.take(),
            "now": board.clock.now,
            "power": ctl is not None,
            "gate": board.gate.is_open,
            "indicator": board.indicator.state,
            "buzzer": board.buzzer.sounded,
            "left": board.shoe.remaining(),
            "out": board.shoe.out,
            "game": self.game,
            "phase": ctl.phase if ctl else -1,
            "alarm": _first_alarm(ctl.alarms) if ctl else 0,
            "coup": ctl.coup if ctl else 0,
            "table": ctl.table if ctl else 0,  # the séance open's, 0 for none
            "lines": len(self.lines),
        })


def _first_alarm(alarms):
    """The lowest code of the controller's set of alarms (code n is bit n - 1), 0 for none: the page shows one."""
    code = 0
    while alarms:
        code += 1
        if alarms & 1:
            return code
        alarms >>= 1
    return 0
