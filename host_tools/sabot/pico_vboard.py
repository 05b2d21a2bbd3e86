"""`sabot vboard --board rpi_pico`: a new production Pico through the factory's bench (the development image, its
configuration, clock and key), then the emulated Pico served behind its pseudo-terminal until interrupted
(docs/pico-emulator.md); the emulator itself is sabot/pico.py's."""

import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sabot import progress
from sabot.device import stop_on_terminate, vboard_error
from sabot.pico import Pico, PicoError, play

FACTORY_CONFIG = {"board": "rpi_pico", "sabot": 1, "table": 1, "game": "chemin_de_fer", "reader": True}


def factory(flash, files=None, log=None):
    """The factory's bench for a new production Pico, before its first start: the development image on an erased
    flash, config.json (FACTORY_CONFIG: sabot 1 until `sabot number set`), its one-time enrolment code's key (the
    code printed on its label: FLASH.code beside the flash file) and its DS3231 set to this computer's UTC time, in
    one mpremote exec (no journal key: its secure element holds its own); files: {path: text} written too (the
    tests' planted code). Its flash then takes the production image as a UF2 drop, the filesystem kept (Pico(flash)
    does). The code."""
    from sabot.enrolment_code import PUT, key_text, new_code, write_label
    from sabot.mpremote_link import mpremote

    code = new_code()
    writes = {"config.json": json.dumps(FACTORY_CONFIG), "keys/enrolment.key": key_text(code)}
    writes.update(files or {})
    lines = [PUT] + ["put(%r, %r)" % item for item in writes.items()]
    with Pico(flash, blank=True, development=True, log=log) as board:
        board.command("rtc", seconds=int(time.time()))
        mpremote(board.port, "exec", "\n".join(lines))
    write_label(str(flash) + ".code", code)
    return code


def serve(scenario=None, flash=None, blank=False, out=sys.stdout, development=False):
    """`sabot vboard --board rpi_pico`: the emulated Pico behind a pty until interrupted. flash (--fs) is its 2 MB
    flash file, kept across restarts, its port also FLASH.tty. By default the production image (the shoe's protocol
    alone on USB): a new flash goes through the factory's bench first (factory(): config.json, the code, the DS3231).
    development (or --blank): the development image, mpremote's REPL; a new flash (or --blank) is erased, the image
    written on it as a UF2 drop would, and, unless --blank, a config.json {"board": "rpi_pico", "sabot": 1} written
    and the Pico restarted, so the controller runs."""
    flash = Path(flash) if flash else Path(tempfile.mkdtemp(prefix="sabot-pico-")) / "shoe.flash"
    if flash.is_dir():
        return vboard_error("--fs %s is a folder: give the Pico's flash file" % flash)
    if scenario and not Path(scenario).is_file():
        return vboard_error("no scenario file %s" % scenario)
    development = development or blank
    new = blank or not flash.exists()
    flash.parent.mkdir(parents=True, exist_ok=True)
    with progress.waiting("Pico émulé : %sdémarrage" % ("banc d'usine, puis " if new and not development else "")):
        try:
            if new and not development:
                factory(flash)
            board = Pico(flash, blank=new and development, development=development).start()
        except (PicoError, subprocess.CalledProcessError) as e:
            return vboard_error(str(e))
        if not development:  # its port named once it answers the protocol, so that the README's next step finds it
            from sabot.device import DeviceError
            from sabot.production_link import restarted_production

            try:
                board.started()
                restarted_production(board.port)
            except (PicoError, DeviceError) as e:
                board.stop()
                return vboard_error("the production Pico did not serve: %s" % e)
    link = flash.parent / (flash.name + ".tty")
    link.unlink(missing_ok=True)
    signal.signal(signal.SIGTERM, stop_on_terminate)
    try:
        if new and development and not blank:
            from sabot.mpremote_link import mpremote

            mpremote(board.port, "exec", "import json\nwith open('config.json', 'w') as f:\n"
                     "    json.dump({'board': 'rpi_pico', 'sabot': 1}, f)")
            board.command("power_cycle")
        link.symlink_to(board.port)  # once the board is the technician's: no mpremote of ours on it any more
        out.write("virtual board on %s (emulated Raspberry Pi Pico, flash %s; the same board at %s across "
                  "restarts)\n" % (board.port, flash, link))
        if development:
            out.write("try: mpremote connect %s exec \"print('hello')\"\n" % link)
        else:
            out.write("production configuration: the shoe's protocol alone on its port (sabot pull-log --port %s)\n"
                      % link)
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
