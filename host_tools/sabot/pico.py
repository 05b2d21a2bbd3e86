"""The emulated Raspberry Pi Pico (tools/pico/pico.mjs, docs/pico-emulator.md) from Python: its USB REPL on a
pseudo-terminal that mpremote opens as it opens /dev/ttyACM0, its pins, reader, clock and power through the
emulator's control socket, in simulated time; its secure element the one model (boards/sim/element.py), run here, in
this process, outside the emulator, each bus event of its I2C carried over a socketpair (ElementLink)."""

import functools
import itertools
import json
import os
import pty
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from boards.rpi_pico import pins
from sabot.pico_element import ElementLink, load_element

ROOT = Path(__file__).resolve().parents[2]
IMAGE_DIR = ROOT / "build" / "rpi_pico-image"


class PicoError(Exception):
    pass


@functools.cache
def heap_watch(elf=IMAGE_DIR / "firmware.elf"):
    """The emulator's options for a `gc` event after each garbage collection (pico.mjs): gc_collect_end's address
    and MP_STATE_MEM(area)'s, and gc_collect_start's (a collection's start, for the gate's events), read from the
    image's debug information by gdb; none without gdb."""
    gdb = shutil.which("gdb")
    if gdb is None or not Path(elf).exists():
        return []
    said = subprocess.run([gdb, "-batch", "-ex", "print &gc_collect_end", "-ex", "print &mp_state_ctx.mem.area",
                           "-ex", "print &gc_collect_start", str(elf)], capture_output=True, text=True).stdout
    found = re.findall(r"\) (0x[0-9a-f]+)", said)
    if len(found) != 3:
        return []
    return ["--gc-end", hex(int(found[0], 16) & ~1), "--heap-area", found[1], "--gc-start", hex(int(found[2], 16) & ~1)]


PRODUCTION, DEVELOPMENT = "firmware", "firmware-dev"  # the two images of make image, in IMAGE_DIR (.bin, .elf, .uf2)


class Pico:
    """One emulated Pico: flash is its 2 MB flash file, kept across restarts; image is written at its start as a UF2
    drop would (False: the flash as it is): by default the production image (firmware.bin: the shoe's protocol alone
    on USB), with development the development image (firmware-dev.bin: mpremote's REPL); blank starts from an erased
    chip."""

    def __init__(self, flash, image=None, blank=False, timing="typical", log=None, development=False,
                 element=load_element):
        self.flash = Path(flash)
        self._element = element  # (state file, clock) -> the secure element's model: a test's may inject faults
        self.name = DEVELOPMENT if development else PRODUCTION
        self.image = image
        self.blank = blank
        self.timing = timing
        self.log = log
        self.events = []
        self.console = bytearray()  # all the Pico said on USB, mpremote's exchanges included
        self._replies = {}
        self._ids = itertools.count(1)
        self._changed = threading.Condition()

    def start(self):
        for needed in (self.name + ".bin", "bootrom.bin"):
            if self.image is None and not (IMAGE_DIR / needed).exists():
                raise PicoError("no %s in %s: run make image BOARD=rpi_pico" % (needed, IMAGE_DIR))
        node = shutil.which("node")
        if node is None:
            raise PicoError("node is not installed: make system-deps")
        self._dir = tempfile.mkdtemp(prefix="sabot-pico-")
        self.control_path = os.path.join(self._dir, "control")
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        tty.setraw(self.master)
        self.port = os.ttyname(self.slave)
        command = [node, str(ROOT / "tools" / "pico" / "pico.mjs"), "--flash", str(self.flash),
                   "--bootrom", str(IMAGE_DIR / "bootrom.bin"), "--control", self.control_path,
                   "--timing", self.timing, "--pins", WIRING]
        image = IMAGE_DIR / (self.name + ".bin") if self.image is None else self.image
        if image:
            command += ["--image", str(image)]
        command += heap_watch(IMAGE_DIR / (self.name + ".elf"))
        if self.blank:
            command.append("--blank")
        # The element's state beside the flash file, outside the emulated flash: kept across power cycles, cuts and
        # --blank (an erased flash leaves the chip as it was); neither mpremote nor a dump of the flash reaches it.
        self.link = ElementLink(self.flash.parent / (self.flash.name + ".element"), self._element)
        self.element = self.link.model
        command += ["--element-fd", str(self.link.child.fileno())]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.log or subprocess.DEVNULL, cwd=ROOT,
                                        pass_fds=(self.link.child.fileno(),))
        self.link.start()
        threading.Thread(target=self._host_to_usb, daemon=True).start()
        threading.Thread(target=self._usb_to_host, daemon=True).start()
        self._socket = self._control_socket(time.monotonic() + 30)
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _control_socket(self, deadline):
        """The emulator's control socket, once it listens: node binds the path (the file appears) a moment before
        it listens, and a loaded machine can look in between (refused: try again)."""
        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise PicoError("the emulator did not start (exit %s)" % self.process.poll())
            if os.path.exists(self.control_path):
                control = socket.socket(socket.AF_UNIX)
                try:
                    control.connect(self.control_path)
                    return control
                except ConnectionRefusedError:
                    control.close()
            time.sleep(0.05)

    def _host_to_usb(self):
        """The pty's bytes to the emulator's USB. A read of the pty's master fails (EIO) while a program that had
        the port open closes it: the bytes keep flowing after, as a Pico's USB outlives its host's programs."""
        while self.process.poll() is None:
            try:
                if select.select([self.master], [], [], 0.5)[0]:
                    data = os.read(self.master, 4096)
                    self.process.stdin.write(data)
                    self.process.stdin.flush()
            except OSError:
                time.sleep(0.05)

    def _usb_to_host(self):
        out = self.process.stdout.fileno()
        while data := os.read(out, 4096):
            self.console += data
            try:
                os.write(self.master, data)
            except OSError:
                pass

    def _read(self):
        for line in self._socket.makefile("r"):
            event = json.loads(line)
            with self._changed:
                if event["ev"] == "reply":
                    self._replies[event["id"]] = event
                else:
                    self.events.append(event)
                self._changed.notify_all()

    def command(self, cmd, timeout=120, **fields):
        """Send one command (pin, uart, power_cycle, cut, time, rtc; at_us schedules it in simulated time) and
        wait for its reply: for a scheduled one, until the simulated time comes."""
        ident = next(self._ids)
        self._socket.sendall((json.dumps(dict(fields, cmd=cmd, id=ident)) + "\n").encode())
        reply = self.wait(lambda: self._replies.get(ident), timeout)
        if "error" in reply:
            raise PicoError(reply["error"])
        return reply

    def wait(self, found, timeout=120):
        """found() once it is truthy, called under the events' lock; PicoError after timeout seconds."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                value = found()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise PicoError("the emulated Pico did not get there (exit %s)" % self.process.poll())
                self._changed.wait(min(left, 0.5))

    def boots(self):
        return [e for e in list(self.events) if e["ev"] == "boot"]

    def started(self, boots=1, timeout=600):
        """Once the controller of the boots-th boot serves: its loop's first pass starts the watchdog. Before that
        an mpremote's Ctrl-C would stop main.py as it starts."""
        def watchdog():
            since = self.boots()[boots - 1]["t_us"] if len(self.boots()) >= boots else None
            return since is not None and [e for e in self.events if e["ev"] == "watchdog" and e["t_us"] >= since]
        self.wait(watchdog, timeout)
        return self

    def now_us(self):
        return self.command("time")["t_us"]

    def pin_events(self, pin):
        with self._changed:
            return [e for e in self.events if e["ev"] == "pin" and e["pin"] == pin]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._socket.close()
        os.close(self.master)
        os.close(self.slave)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# The board's wiring as the emulator takes it (pico.mjs --pins), from the one pin map the firmware freezes.
WIRING = json.dumps({"inputs": [pins.NO_MORE_BETS, pins.COUP_END, pins.BURN, pins.DRAW, pins.LOAD, pins.SEANCE,
                                pins.CLEAR, pins.MAINTENANCE, pins.BEAM, pins.STOP_DETECT],  # pulled up
                     "watched": [pins.LED, pins.BUZZER, pins.GATE], "gate": pins.GATE,
                     "gate_open": 1 - pins.GATE_LOCKED, "beam": pins.BEAM, "beam_broken": pins.BEAM_BROKEN})

FLASH_BYTES = 2 * 1024 * 1024  # the W25Q16JV
STORAGE = FLASH_BYTES - 1408 * 1024  # rp2.Flash()'s region: the last 1408 KB of the chip
RING = STORAGE + 896 * 1024  # the journal's ring: the region's last 512 KB (boards/rpi_pico/journal_flash.py)
GATE, BEAM_AFTER_OPEN_US = pins.GATE, 8000  # the gate's pin; a card breaks the beam 8 ms after the gate opens
WHOLE_SHOE = "game chemin_de_fer\nshoe seed=2026\nburn 1\n" + "no_more_bets\ndraw 6\n" * 64 + "no_more_bets\n"


def gate_falls(events, cards=None):
    """For each card that slid out (or of cards): (simulated µs from its beam break to the gate pin's next fall, that
    fall's event: what the core was doing then). The PIO's state machine shuts it: boards/rpi_pico/pio_gate.py."""
    falls = [e for e in events if e["ev"] == "pin" and e["pin"] == GATE and e["level"] == 0]
    return _after_breaks(events, falls, cards)


def gate_closings(events):
    """For each card that slid out: simulated µs from the beam's break to the gate's pin falling."""
    return [us for us, _ in gate_falls(events)]


def interrupt_closings(events, cards=None):
    """For each card that slid out (or of cards): simulated µs from the beam's break to the interrupt path's own lock,
    the beam's handler's `set pins, 0` written into the gate's state machine (boards/rpi_pico/gate_irq.py; the
    emulator's `exec` events): what would shut the gate were the PIO's machine not there, the ESP32's path."""
    locks = [e for e in events if e["ev"] == "exec" and e["pio"] == 0 and e["sm"] == 0]
    return [us for us, _ in _after_breaks(events, locks, cards)]


def _after_breaks(events, marks, cards=None):
    """For each card that slid out (or of cards): (µs from its beam break to the first of marks at or after it, it)."""
    found = []
    for card in cards if cards is not None else [e for e in events if e["ev"] == "card"]:
        broken = _broken(card)
        mark = next(m for m in marks if m["t_us"] >= broken)
        found.append((mark["t_us"] - broken, mark))
    return found


def _broken(card):
    """When the card broke the beam: the emulator says so, or (older events) 8 ms after the gate opened."""
    return card.get("broken_us", card["opened_us"] + BEAM_AFTER_OPEN_US)


def heap_low_water(events):
    """(the fewest bytes free after a garbage collection, the heap's bytes) from the emulator's gc events, or None
    when it saw no collection (no gdb to find the heap: heap_watch)."""
    collected = [e for e in events if e["ev"] == "gc"]
    return (min(e["free"] for e in collected), collected[0]["heap"]) if collected else None


def erases(events, since_us=0):
    """(the ring's, littlefs's) sector erases on the emulated flash since since_us, from its flash events."""
    offsets = [e["offset"] for e in events if e["ev"] == "flash" and e["op"] == "erase" and e["offset"] >= STORAGE
               and e["t_us"] >= since_us]
    ring = sum(1 for offset in offsets if offset >= RING)
    return ring, len(offsets) - ring


def deal_whole_shoe(board, folder):
    """A new Pico commissioned (sabot 42, table 3), a séance opened with sabot, then WHOLE_SHOE dealt through its pins
    and reader, to the stop card; returns the deal's reply (cards dealt, requests refused, began_us: when it began)."""
    commission(board, folder)
    open_seance(board)
    scenario = Path(folder) / "whole-shoe.txt"
    scenario.write_text(WHOLE_SHOE)
    began = board.now_us()
    return dict(play(board, scenario), began_us=began)


def open_seance(board):
    """A séance opened on the Pico with sabot (table 3, employee 4711), as a casino's workstation does."""
    opened = subprocess.run([str(Path(sys.executable).parent / "sabot"), "seance", "open", "--port", board.port,
                             "--table", "3", "--by", "4711"], capture_output=True, text=True)
    if opened.returncode:
        raise PicoError("sabot seance open: %s" % opened.stderr.strip())


PRESS_US = 60_000  # a button held 60 ms: past the 30 ms the firmware waits a contact to settle
GAP_US = 200_000  # the croupier's rhythm between two actions, simulated
BETS_US = 400_000  # the players' bets before "no more bets", simulated: a table takes far longer
OPENING_US = 400_000  # the croupier after "no more bets": the shoe signs the coup's opening (some 185 ms at M0)
NO_CARD_US = 300_000  # a gate still shut this long after the dealer's request stays shut: the tableau said no
PINS = {"no_more_bets": pins.NO_MORE_BETS, "coup_end": pins.COUP_END, "burn": pins.BURN, "draw": pins.DRAW,
        "shoe": pins.LOAD, "seance": pins.SEANCE, "clear_alarm": pins.CLEAR}


def press(board, pin, after_us=GAP_US):
    """A button pressed after after_us of simulated time and released PRESS_US later; returns when released."""
    start = board.now_us() + after_us
    board.command("pin", pin=pin, level=0, at_us=start)
    return board.command("pin", pin=pin, level=1, at_us=start + PRESS_US)["t_us"]


def pull(board, pin, card):
    """The dealer's request (DRAW or BURN) with a card at the gate: True once it slid out past the beam, False
    when the gate stayed shut (the card taken back). card: a reader's line, or None for a card it cannot read."""
    armed = board.command("card", line=card)["id"]
    released = press(board, pin)
    board.command("time", at_us=released + NO_CARD_US)  # a card slides out within 15 ms of the gate's opening
    if any(e["ev"] == "card" and e["id"] == armed for e in list(board.events)):
        return True
    board.command("uncard")
    return False


def steps(scenario):
    """A scenario file (docs/scenarios.md) as the emulator's croupier steps (tools/pico/pico.mjs, `deal`): each card
    a slide past the beam when the gate opens. The séance's table is config.json's (the panel's button); commands
    with no pin on the Pico (stand, seance_close, double, jam, force) are refused before anything runs."""
    from boards.sim.scenario import commands
    from boards.sim.shoe import shuffled_shoe, with_stop_card
    from firmware import cards, games

    lines = list(commands(Path(scenario).read_text().splitlines(), str(scenario)))
    refused = [(n, c) for n, c, _, _ in lines if c in ("stand", "seance_close", "double", "jam", "force")]
    if refused:
        raise PicoError("%s:%d: %s has no pin on the Pico" % (scenario, refused[0][0], refused[0][1]))
    game, reader, out = games.CHEMIN_DE_FER, True, []
    for _, command, a, b in lines:
        if command == "game":
            game = a
        elif command in ("shoe_seed", "shoe_cards"):
            stack = (shuffled_shoe(game, a) if command == "shoe_seed"
                     else bytearray(a) if b < 0 else with_stop_card(a, b))
            out += [{"deck": [cards.name(c) for c in stack]}, {"press": PINS["shoe"]}]
        elif command in ("draw", "burn"):
            out += [{"press": PINS[command], "draw": True, "read": reader}] * a
        elif command == "reader":
            reader = a
        elif command == "wait":
            out.append({"wait_us": a * 1000})
        elif command == "power_cut":
            out.append({"power_cycle": True})
        elif command == "no_more_bets":  # the bets placed first: the shoe meanwhile writes the last coup's
            out += [{"wait_us": BETS_US}, {"press": PINS[command]}, {"wait_us": OPENING_US}]  # signed checkpoint
            # (docs/journal-format.md), then the coup's opening signed before its first card (issue 37)
        elif command == "seance":  # a séance's opening is a signed checkpoint too: the shoe busy with it, a request
            out += [{"press": PINS[command]}, {"wait_us": OPENING_US}]  # pressed meanwhile would find no card left
        elif command != "power_on":  # the power comes back with the cut's boot
            out.append({"press": PINS[command]})
    return out + [{"wait_us": GAP_US}]


def play(board, scenario, timeout=3600, gap_us=None):
    """A scenario file dealt on the Pico's pins and reader as a croupier would, in simulated time: its reply. gap_us:
    between one step's end and the next press (the emulator's 40 ms unless given: a croupier at the quickest)."""
    fields = {} if gap_us is None else {"gap_us": gap_us}
    return board.command("deal", timeout=timeout, steps=steps(scenario), **fields)


def commission(board, folder, sabot=42, table=3):
    """What a technician does to a new Pico that has the image: config.json (with a card reader), the DS3231 set
    with the board's set_clock (a stopped clock keeps the controller from starting, so sabot's clock set cannot);
    then a power cycle. No key: the secure element holds its own."""
    from sabot.mpremote_link import mpremote

    config = Path(folder) / "config.json"
    config.write_text(json.dumps({"board": "rpi_pico", "sabot": sabot, "table": table, "game": "chemin_de_fer",
                                  "reader": True}))
    mpremote(board.port, "cp", str(config), ":config.json")
    mpremote(board.port, "exec", "from boards.rpi_pico.board import set_clock\nset_clock(2026, 12, 1, 8, 0, 0)")
    board.command("power_cycle")
    board.started(len(board.boots()) + 1)
