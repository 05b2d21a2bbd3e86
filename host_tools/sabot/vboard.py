"""`sabot vboard`: a virtual board behind a pseudo-terminal, the firmware inside the MicroPython unix port (or the
emulated Pico), its secure element's model outside the VM."""

import json
import os
import pty
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import tty
from pathlib import Path

from sabot.boards import element as board_element
from sabot.device import stop_on_terminate, vboard_error
from sabot.vms import ROOT
from sabot.vms import unix_port as micropython_command


def vboard(scenario=None, fs=None, blank=False, build=None, out=sys.stdout, board="sim", development=False,
           element=None, live=None):
    """The firmware with the sim board inside the MicroPython unix port, its REPL on a pseudo-terminal whose
    path mpremote connects to. The folder fs is the board's filesystem: what is on it (a deployed build, its
    config.json, its journal) stays, as on a Pico's flash. A soft reset (mpremote without `resume`)
    ends the unix port: it starts again at once, the controller recovering its journal (boards/vboard/board.py's
    reboot), and answers mpremote's raw REPL as a Pico does. Its port is also FS.tty, a link that names the same
    board whatever pty a later `sabot vboard --fs FS` gets, as a Pico keeps its /dev/ttyACM0. Its secure element is
    the model run here, outside the VM, its key and counters in FS.element beside the folder, its I2C a socket the
    VM inherits (boards/vboard/element_link.py). board "rpi_pico": the emulated Pico instead
    (sabot.pico_vboard.serve). element: the part a new board's element is (boards/sim/element_parts.py's names; the
    board's own, board.json's, by default); an element made before keeps its part, as a soldered chip does.
    Unless development, the board runs the production configuration: its pty carries the shoe's protocol alone
    (docs/protocol.md), no REPL, and a restart starts it again so; its code is the image build (a build, or a bundle
    of make dist with its manifest), never copied to fs, which holds only its data (config.json, keys/, journal/).
    live: the scenario dealt in real time while the board serves its protocol, live ms between two commands
    (boards/vboard/live.py), rather than at once before it serves."""
    from boards.sim.element_parts import PARTS

    if element is not None and element not in PARTS:
        return vboard_error("--element %s: no such part; one of %s" % (element, ", ".join(sorted(PARTS))))
    if board == "rpi_pico":
        from sabot.pico_vboard import serve

        return serve(scenario, fs, blank, out, development)
    fs = Path(fs) if fs else Path(tempfile.mkdtemp(prefix="sabot-vboard-"))
    build = Path(build) if build else ROOT / "build" / "sim"
    if scenario and not Path(scenario).is_file():
        return vboard_error("no scenario file %s" % scenario)
    if fs.exists() and not fs.is_dir():
        return vboard_error("--fs %s is a file: give a folder for the board's filesystem" % fs)
    if not blank and not (fs / "main.py").exists() and not (build / "main.py").exists():
        return vboard_error("no build in %s: run make mpy" % build)
    production = not development and not blank
    if production and not (build / "main.py").exists():
        return vboard_error("no image in %s: run make mpy (or make dist, a bundle with its manifest)" % build)
    fs.mkdir(parents=True, exist_ok=True)
    if not blank:
        if not production and not (fs / "main.py").exists():  # a new board: the build; a deployed one keeps its own
            shutil.copytree(build, fs, dirs_exist_ok=True)
        if not (fs / "config.json").exists():  # a new board: the factory's configuration and enrolment code
            (fs / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 1}))
            factory_code(fs)
        if scenario:
            shutil.copy(scenario, fs / "scenario.txt")
            config = json.loads((fs / "config.json").read_text())
            config["scenario"] = "scenario.txt"
            config.pop("live", None)
            config.pop("live_log", None)
            if live:  # the dealer's timeline beside the folder, as FS.log (bench/pit.py)
                config.update(live=live, live_log=str((fs.parent / (fs.name + ".live")).resolve()))
            (fs / "config.json").write_text(json.dumps(config))
    master, slave = pty.openpty()
    tty.setraw(slave)
    # Production: the code comes from the image alone, as a Pico's frozen firmware; the folder holds only data.
    env = dict(os.environ, MICROPYPATH=str(build.resolve()) if production else ".")
    from boards.sim.element import SimElement
    from boards.vboard.element_link import ENV, serve

    # its key and counters, never under fs; no clock: every command done at once (boards/vboard/element_link.py)
    chip = SimElement.load(str(fs.parent / (fs.name + ".element")), part=element or board_element("vboard")[0])

    log = open(fs.parent / (fs.name + ".log"), "ab") if production else master  # its tracebacks: not on the line

    def power_on(soft_reset):
        """The VM started, its secure element's bus a socket it inherits, answered here by the model."""
        if production:  # '' leaves sys.path before any import: nothing in the folder is ever imported
            command = [micropython_command(), "-c", "import sys\nsys.path.remove('')\nfrom boards.vboard import "
                       "board\nboard.production(%r, %r)" % (soft_reset, str(build.resolve()))]
        elif not (fs / "main.py").exists():
            command = [micropython_command()]
        elif soft_reset:
            command = [micropython_command(), "-i", "-c", "from boards.vboard import board\n"
                       "board.reboot()"]
        else:
            command = [micropython_command(), "-i", "main.py"]
        ours, theirs = socket.socketpair()
        with theirs:
            process = subprocess.Popen(command, stdin=master, stdout=master, stderr=log, cwd=fs,
                                       env=dict(env, **{ENV: str(theirs.fileno())}), pass_fds=(theirs.fileno(),))
        threading.Thread(target=serve, args=(ours, chip), daemon=True).start()
        return process

    process = power_on(False)
    link = fs.parent / (fs.name + ".tty")
    link.unlink(missing_ok=True)
    link.symlink_to(os.ttyname(slave))
    out.write("virtual board on %s (filesystem %s; the same board at %s across restarts)\n" % (
        os.ttyname(slave), fs, link))
    if production:
        out.write("production configuration: the shoe's protocol alone on its port (sabot pull-log --port %s)\n" % link)
    else:
        out.write("try: mpremote connect %s exec \"print('hello')\"\n" % link)
    out.flush()
    signal.signal(signal.SIGTERM, stop_on_terminate)  # a terminated vboard takes its MicroPython process with it
    try:
        while True:
            process.wait()
            if production:  # an exception or a clock set: the shoe restarts, gate locked, protocol again
                process = power_on(True)
                continue
            # mpremote's Ctrl-D in the raw REPL: a Pico says so, reboots and enters the raw REPL again, before it
            # reads what the technician's tools sent meanwhile (kept in order behind it).
            os.write(master, b"soft reboot\r\n")
            os.write(slave, b"\r\x01" + _waiting(master))
            process = power_on(True)
    except KeyboardInterrupt:
        return 0
    finally:
        link.unlink(missing_ok=True)  # a pty left behind may be another program's next
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
        os.close(slave)
        if production:
            log.close()


def factory_code(fs):
    """The factory's one-time enrolment code of a new virtual board: its key in the board's keys/ (unless it holds a
    key already), the code on its label, FS.code beside the folder (sabot/enrolment_code.py)."""
    from sabot.enrolment_code import key_text, new_code, write_label

    keys = fs / "keys"
    if (keys / "enrolment.key").exists() or (keys / "casino.key").exists():
        return
    code = new_code()
    keys.mkdir(exist_ok=True)
    (keys / "enrolment.key").write_text(key_text(code))
    write_label(str(fs.parent / (fs.name + ".code")), code)


def _waiting(master):
    """The bytes written to the board's port that no process has read yet."""
    waiting = b""
    while select.select([master], [], [], 0)[0]:
        waiting += os.read(master, 4096)
    return waiting
