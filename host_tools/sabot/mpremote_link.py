"""A development shoe's transport: firmware/remote.py's functions run on it through mpremote (its REPL), the
controller's loop interrupted and resumed; a production shoe's is the protocol (production_link.py). Each answer one
line of JSON; a Python exception on the device one line of error."""

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from sabot.device import DeviceError, no_device
from sabot.repl_settle import settled

NOT_A_SHOE = ("neither a production shoe's protocol nor a development shoe's REPL answered: is it the shoe's port? "
              "(a production shoe takes pull-log, seance, number, clock, key enrol, firmware verify and status alone; "
              "deploy and element provision are for a development shoe)")


# The watchdog fed by a long session's steps, where a controller runs (its loop, which fed it, interrupted): a
# development Pico resets 5 s after its loop stops, mid-copy. Through the running loop's own Runtime, not an import:
# a shoe of an older firmware, or one half-deployed, is fed or left alone, never made to load a file.
FEED = ("import sys\nr = sys.modules.get('firmware.runtime')\n"
        "if r and r.Runtime.current:\n    r.Runtime.current.feed()\n")

# The running controller's state (firmware/remote.py's status), None when no controller runs on the shoe.
STATUS_ASKED = ("from firmware.runtime import Runtime\nfrom firmware.remote import status\nimport json\n"
                "print(json.dumps(status(Runtime.current.shell) if Runtime.current else None))")


def mpremote(port, *args, timeout=300, each_line=None):
    """Run mpremote on the device at port without resetting it (`resume`): a soft reset would stop a shoe,
    and ends the unix port behind a virtual board. A Python exception on the device becomes one line."""
    if not os.path.exists(port):
        raise no_device(port)
    command = [str(Path(sys.executable).parent / "mpremote"), "connect", port, "resume", *args]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as done:
        timer = threading.Timer(timeout, done.kill)
        timer.start()
        try:
            stdout = []
            for line in done.stdout:  # as it comes, for a caller that shows progress
                stdout.append(line)
                if each_line:
                    each_line(line)
            stderr = done.stderr.read()
            done.wait()
        finally:
            timer.cancel()
    stdout = "".join(stdout)
    if done.returncode == -signal.SIGKILL:
        raise DeviceError("no answer from %s within %d s: %s" % (port, timeout, NOT_A_SHOE))
    said = (stderr + stdout).strip()
    if "failed to access" in said:
        raise DeviceError("%s is held by another program (a terminal, a serial monitor): close it and try again"
                          % port)
    if "could not enter raw repl" in said:
        raise DeviceError("%s: %s" % (port, NOT_A_SHOE))
    if done.returncode or "Traceback (most recent call last)" in stdout:
        raise DeviceError(device_error(said) or "mpremote failed on %s" % port)
    return stdout


def device_error(said):
    """The one line that says what went wrong on the device: an exception's last line, or mpremote's."""
    lines = [line.strip() for line in said.splitlines() if line.strip()]
    if any(line.startswith("Traceback") for line in lines):
        return "the shoe answered: " + lines[-1]
    return lines[-1] if lines else ""


def ask(port, code):
    """Run firmware/remote.py's code on the shoe: its one-line JSON answer."""
    said = mpremote(port, "exec", code).strip().splitlines()
    try:
        return json.loads(said[-1])
    except (ValueError, IndexError):
        raise DeviceError("the shoe on %s answered %r, not what this sabot's firmware answers: deploy it" % (
            port, said[-1] if said else "")) from None


def element_key_of(port):
    """A development shoe's number and its element's public key (hex, None when no element answers)."""
    return ask(port, "from firmware.remote import element_key\nelement_key()")


_RESTART = "import machine\ngetattr(machine, 'reset', getattr(machine, 'soft_reset', None))()"


def restart(port):
    """Restart the shoe (a reset): it boots into service again, gate locked first, its journal recovered. Its reboot
    ends in the raw REPL, whose banner may come after the next mpremote's own Ctrl-A: settled before that one."""
    mpremote(port, "exec", "--no-follow", _RESTART)
    settled(port)


def resume(port):
    mpremote(port, "exec", "--no-follow", "from firmware.remote import resume\nresume()")


def restarted(port):
    """The shoe's state after a restart (its boot record), and serving again."""
    state = ask(port, "from firmware.remote import state\nstate()")
    resume(port)
    return state
