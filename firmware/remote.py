"""What a technician's mpremote runs on a running shoe: the shoe was interrupted to run it, and resume() starts
it again (run with mpremote exec --no-follow). The host's side is host_tools/sabot/shoe_link.py."""

from firmware.events import EV_SEANCE, EV_SEANCE_CLOSE
from firmware.games import by_name
from firmware.records import EMPLOYEE_MAX, TABLE_MAX, TABLE_MIN, pack_seance
from firmware.runtime import Runtime
from firmware.startup import whole


def seance(table, game, by, close=False):
    """A séance opened (or closed) by the responsible employee, from a technician's mpremote: the running shoe
    was interrupted to run this; resume() starts it again (S-IDENT, Article 58). A table, game or employee out of
    range is refused before the shoe hears of it (closing takes none of them)."""
    if not close:
        whole("table", table, TABLE_MIN, TABLE_MAX)
        whole("employee", by, 0, EMPLOYEE_MAX)
        game = by_name(game)
    runtime = Runtime.current
    if runtime is None:
        raise RuntimeError("the controller is not running on this shoe")
    shell = runtime.shell
    shell.journal.reopen()
    was = shell.ctl.table  # a séance's close leaves no table
    if close:
        shell.handle(EV_SEANCE_CLOSE, 0, runtime.now())
    else:
        shell.handle(EV_SEANCE, pack_seance(table, game, by), runtime.now())
    print("refused" if shell.ctl.refused else "seance %d %s at table %d" % (
        shell.ctl.seance, "closed" if close else "opened", was if close else shell.ctl.table))


def receipt(nonce_hex):
    """The journal's head signed under the shoe's key with the host's fresh nonce, as one JSON line (`sabot
    pull-log` writes it beside the segments it pulled; docs/journal-format.md)."""
    from binascii import unhexlify

    from firmware.receipt import receipt as signed_head

    runtime = Runtime.current
    if runtime is None:
        raise RuntimeError("the controller is not running on this shoe")
    nonce = unhexlify(nonce_hex)
    if len(nonce) < 16:
        raise ValueError("a nonce of at least 16 bytes")
    print(signed_head(runtime.shell.journal, nonce))


def resume():
    """Serve again after a technician's command (run with mpremote exec --no-follow)."""
    runtime = Runtime.current
    if runtime is None:
        raise RuntimeError("the controller is not running on this shoe")
    runtime.serve()
