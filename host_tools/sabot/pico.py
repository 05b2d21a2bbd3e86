"""The emulated Raspberry Pi Pico (tools/pico/pico.mjs, docs/pico-emulator.md) from Python: its USB REPL on a
pseudo-terminal that mpremote opens as it opens /dev/ttyACM0, its pins, reader, clock and power through the
emulator's control socket, in simulated time."""

import itertools
import json
import os
import pty
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMAGE_DIR = ROOT / "build" / "rpi_pico-image"


class PicoError(Exception):
    pass


class Pico:
    """One emulated Pico: flash is its 2 MB flash file, kept across restarts; image (firmware.bin) is written at
    its start as a UF2 drop would; blank starts from an erased chip."""

    def __init__(self, flash, image=None, blank=False, timing="typical", log=None):
        self.flash = Path(flash)
        self.image = image
        self.blank = blank
        self.timing = timing
        self.log = log
        self.events = []
        self._replies = {}
        self._ids = itertools.count(1)
        self._changed = threading.Condition()

    def start(self):
        for needed in ("firmware.bin", "bootrom.bin"):
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
                   "--timing", self.timing]
        image = IMAGE_DIR / "firmware.bin" if self.image is None else self.image
        if image:
            command += ["--image", str(image)]
        if self.blank:
            command.append("--blank")
        self.process = subprocess.Popen(command, stdin=self.master, stdout=self.master,
                                        stderr=self.log or subprocess.DEVNULL, cwd=ROOT)
        deadline = time.monotonic() + 30
        while not os.path.exists(self.control_path):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise PicoError("the emulator did not start (exit %s)" % self.process.poll())
            time.sleep(0.05)
        self._socket = socket.socket(socket.AF_UNIX)
        self._socket.connect(self.control_path)
        threading.Thread(target=self._read, daemon=True).start()
        return self

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


def serve(scenario=None, flash=None, blank=False, out=sys.stdout):
    """`sabot vboard --board rpi_pico`: the emulated Pico behind a pty until interrupted. flash (--fs) is its 2 MB
    flash file, kept across restarts, its port also FLASH.tty; a new flash (or --blank) is erased, the image
    written on it as a UF2 drop would, and, unless --blank, a config.json {"board": "rpi_pico", "sabot": 1}
    written and the Pico restarted, so the controller runs."""
    flash = Path(flash) if flash else Path(tempfile.mkdtemp(prefix="sabot-pico-")) / "shoe.flash"
    if flash.is_dir():
        return _error("--fs %s is a folder: give the Pico's flash file" % flash)
    if scenario and not Path(scenario).is_file():
        return _error("no scenario file %s" % scenario)
    new = blank or not flash.exists()
    flash.parent.mkdir(parents=True, exist_ok=True)
    try:
        board = Pico(flash, blank=new).start()
    except PicoError as e:
        return _error(str(e))
    link = flash.parent / (flash.name + ".tty")
    link.unlink(missing_ok=True)
    link.symlink_to(board.port)
    signal.signal(signal.SIGTERM, _stop)
    try:
        if new and not blank:
            from sabot.shoe_link import mpremote

            mpremote(board.port, "exec", "import json\nwith open('config.json', 'w') as f:\n"
                     "    json.dump({'board': 'rpi_pico', 'sabot': 1}, f)")
            board.command("power_cycle")
        out.write("virtual board on %s (emulated Raspberry Pi Pico, flash %s; the same board at %s across "
                  "restarts)\n" % (board.port, flash, link))
        out.write("try: mpremote connect %s exec \"print('hello')\"\n" % link)
        out.flush()
        if scenario:
            play(board, scenario)
        board.process.wait()
        return 0 if board.process.returncode in (0, -signal.SIGTERM) else 1
    except KeyboardInterrupt:
        return 0
    finally:
        link.unlink(missing_ok=True)
        board.stop()


def _error(message):
    print("sabot vboard: error: %s" % message, file=sys.stderr)
    return 2


def _stop(signum, frame):
    raise KeyboardInterrupt
