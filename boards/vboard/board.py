"""The virtual board, a board of its own (config.json: "board": "vboard"): the sim board's devices on the device's
own filesystem, inside the MicroPython unix port behind `sabot vboard`'s pseudo-terminal.

mpremote reaches it as it reaches a Pico: play() runs a scenario to its end (the journal lands in
journal/), serve() then runs the controller's loop until a technician interrupts it (Ctrl-C). After a soft reset
`sabot vboard` starts the VM again with reboot(): the controller recovers its journal, gate locked, and waits for
the technician's commands. The board's sabot number is config.json's, its journal vouched for by its secure element
(the model outside the VM), its clock the one `sabot clock set` gave it (RTC, the DS3231's part).
"""

import os
import select
import struct
import sys
import time

from boards.sim.board import START_S, SimBoard
from boards.sim.devices import SimWall
from boards.sim.observer import Observer
from boards.sim.runner import run
from boards.sim.scenario import commands
from boards.vboard.element_link import element
from firmware.checkpoints import Checkpoints
from firmware.layout import BODY_AT, BODY_SECONDS, FRAME_SIZE, HEADER_SIZE
from firmware.protocol import READ_MAX, Protocol
from firmware.records import BOOT_POWER, BOOT_RESTART
from firmware.runtime import Runtime
from firmware.startup import CONFIG, JOURNAL, check_firmware, held_keys, load_config
from firmware.storage import FileStorage
from firmware.ticks import ticks_diff

BOARD = None  # the running board, for a technician's questions over mpremote
RTC = "rtc.txt"  # the wall clock's seconds since 2020-01-01 UTC as set at commissioning: the board's DS3231


def play(path="scenario.txt", out=sys.stdout):
    """Check, then play a scenario on the board (powered on at first use); it stays powered after. Its timeline
    goes to out."""
    global BOARD
    with open(path) as f:
        for _ in commands(f, path):
            pass
    if BOARD is None:
        observer = Observer(out)
        BOARD = _board(observer)
        observer.wall_ms = BOARD.wall_ms
    with open(path) as f:
        run(commands(f, path), BOARD)
    if BOARD.shell:
        # The shoe a technician's commands reach (firmware/remote.py), not serving: resume() serves it.
        Runtime.current = _serving(BOARD, _idle_until_ctrl_c())


def serve():
    """The controller's loop on the sim board's devices, on its virtual clock, until interrupted."""
    global BOARD
    if BOARD is None or BOARD.shell is None:
        BOARD = _board(None)
        BOARD.power_on()
    _serving(BOARD, _idle_until_ctrl_c()).serve()


def reboot():
    """What a soft reset leaves: the board powered on again, its journal recovered and the gate locked, the
    controller waiting for a technician's command (remote.resume() serves again)."""
    global BOARD
    BOARD = _board(None)
    BOARD.power_on(BOOT_RESTART)  # the power stayed on: its boot record says a restart, not a power cut
    Runtime.current = _serving(BOARD, _idle_until_ctrl_c())
    print("controller recovered from journal/, gate locked")


def production(restarted=False, image=""):
    """The production configuration: stdin and stdout carry the shoe's protocol alone (firmware/protocol.py), Ctrl-C
    is a byte like any other, the loop never returns. An exception, a clock set or a new number locks the gate and
    ends the VM, which `sabot vboard` starts again as a board restarts (its boot record says a restart). image: the
    folder its code is imported from, which the firmware's identity covers (the folder it runs in holds data)."""
    import micropython

    micropython.kbd_intr(-1)  # first: no KeyboardInterrupt, so no way out of the loop to a prompt
    from firmware import identity

    identity.IMAGE = image
    global BOARD
    try:
        config = load_config(CONFIG)
        live = config.get("live")  # ms between two of the scenario's commands, dealt while serving (live.py)
        if not restarted and config.get("scenario") and not live:
            play(config["scenario"], _Quiet())
        if BOARD is None or BOARD.shell is None:
            BOARD = _board(None)
            BOARD.power_on(BOOT_RESTART if restarted else BOOT_POWER)
        dealer = None
        if live and not restarted and config.get("scenario"):
            from boards.vboard.live import Live

            dealer = Live(config["scenario"], BOARD, live, config.get("live_log"))
        _serve_protocol(BOARD, dealer)
    finally:
        if BOARD is not None:
            BOARD.gate.close()
        sys.exit(1)


class _Quiet:
    """Where a production board's scenario timeline goes: nowhere, its stdout is the protocol's."""

    def write(self, text):
        pass


def _serve_protocol(board, dealer=None):
    """dealer: a scenario dealt while serving (live.py), a step a pass, or None."""
    casino, enrolment = held_keys()  # none: not enrolled (every state-changing command refused), no code
    clock = board.clock
    last = [time.ticks_ms()]

    def runs():
        """A shoe's clock runs: frames and challenges time out, records move on."""
        now = time.ticks_ms()
        clock.now += ticks_diff(now, last[0])
        last[0] = now
        if dealer is not None:
            dealer.step()

    runtime = _serving(board, runs)
    try:
        chip = element()  # its driver, over the socket to the model outside the VM
    except OSError:
        chip = None  # a VM started without sabot vboard: enrolment reads no element
    protocol = Protocol(runtime.shell, runtime.now, sys.stdout.buffer.write, os.urandom, casino, sys.modules[__name__],
                        chip, enrolment)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    read = sys.stdin.buffer.read

    def received():
        """What waits on the port, up to READ_MAX bytes a pass, as the Pico's loop reads USB (boards/mcu/service.py);
        a pass with nothing waits up to 5 ms for a byte."""
        if not poll.poll(5):
            return None
        data = read(1)
        while len(data) < READ_MAX and poll.poll(0):
            data += read(1)
        return data

    protocol.listen(received)
    runtime.serve(protocol)  # the Pico's loop too: Runtime's, the protocol heard after each pass


def _serving(board, idle):
    """The board's own loop (SimBoard.runtime: the queue its interrupts fill, its virtual clock), served with what the
    virtual board does between passes: watch its terminal for a technician's Ctrl-C, or keep its clock running."""
    runtime = board.runtime
    runtime.idle = idle
    return runtime


def _board(observer):
    """The sim board on this filesystem, its firmware checked against the release manifest and its journal's
    checkpoints signed by its secure element (the model outside the VM), as a shoe's are, its headers naming the
    element (with none answering, the journal's own id: the board locked, firmware/checkpoints.py); its config's
    sabot number."""
    try:
        sabot = load_config(CONFIG)["sabot"]
    except (OSError, ValueError, KeyError):
        sabot = 1  # a board being commissioned: no config.json yet
    board = SimBoard(FileStorage(JOURNAL), sabot=sabot, observer=observer)
    board.firmware, board.firmware_ok = check_firmware("sim")
    try:
        chip = element()  # its driver, over the socket to the model outside the VM
    except OSError:
        chip = None  # a VM started without sabot vboard: every power-up is then a rollback fault
    board.checkpoints = Checkpoints(JOURNAL, chip, sabot)
    board.key = board.checkpoints.key()
    board.wall = SimWall(lambda: board.clock.now, _rtc_start())
    return board


def set_clock(year, month, day, hour, minute, second):
    """Commissioning: the board's clock set to UTC (`sabot clock set`, firmware/remote.py), as the boards set their
    DS3231; read at the next power-up."""
    seconds = (_days_since_2020(year, month, day) * 24 + hour) * 3600 + minute * 60 + second
    with open(RTC, "w") as f:
        f.write("%d\n" % seconds)


def _days_since_2020(year, month, day):
    """Days from 2020-01-01 (boards/mcu/clock.py's own, which the sim build does not carry)."""
    before = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)[month - 1]  # days before the month
    leap = 1 if month > 2 and year % 4 == 0 else 0  # 2020 to 2099
    return (year - 2020) * 365 + (year - 2017) // 4 + before + leap + day - 1


def _rtc_start():
    """Where the board's clock starts: its RTC's setting, or a second after the journal's last record when that is
    later, as a DS3231 that kept time while the board was off would (a new board: the sim's start)."""
    try:
        with open(RTC) as f:
            start = max(START_S, int(f.read()))
    except (OSError, ValueError):
        start = START_S
    try:
        names = sorted(n for n in os.listdir(JOURNAL) if n.endswith(".sbj"))
    except OSError:
        names = []
    if not names:
        return start
    with open(JOURNAL + "/" + names[-1], "rb") as f:
        data = f.read()
    frames = (len(data) - HEADER_SIZE) // FRAME_SIZE
    if frames < 1:
        return start
    seconds = struct.unpack_from("<I", data, HEADER_SIZE + (frames - 1) * FRAME_SIZE + BODY_AT + BODY_SECONDS)[0]
    return max(start, seconds + 1)


def _idle_until_ctrl_c():
    """What a board's USB serial does by itself: a Ctrl-C from the technician's mpremote interrupts the loop.
    The unix port only hears SIGINT, so the virtual board watches its terminal for the byte."""
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)

    def idle():
        if poll.poll(5) and sys.stdin.buffer.read(1) == b"\x03":
            raise KeyboardInterrupt

    return idle


def start(config):
    """main.py's entry: the scenario named in config.json, if any, then the loop."""
    if config.get("scenario"):
        play(config["scenario"])
    serve()
