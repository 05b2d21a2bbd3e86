"""`sabot status`: what a shoe says of itself (its number, its séance, its journal's last record, a fault), over the
protocol or mpremote; and what a state-changing command interrupted by Ctrl-C says: that the shoe may have taken it,
and how to see whether it did."""

import sys

from sabot.device import DeviceError

# The commands that change a shoe's state, and what `sabot status` shows of their effect.
CHANGING = {
    "seance": "its séance (open or not, its table)",
    "number": "its number (it restarts: its boot record)",
    "clock": "its last record's time (it restarts: its boot record, at the time set)",
    "key": "the id of the casino key it holds",
}


def status_command(port, out=sys.stdout):
    """Exit 0 with the shoe's state in one line, 1 when it is in fault (said on stderr), 2 when it cannot be
    reached."""
    from sabot.shoe_links import reach
    from sabot.shoe_said import fault, utc

    try:
        shoe = reach(port)
        try:
            now = shoe.status()
        finally:
            shoe.close()
        if now:
            shoe.done()  # a development shoe's loop started again (a production one served the request meanwhile)
    except DeviceError as e:
        print("sabot status: error: %s" % e, file=sys.stderr)
        return 2
    if not now:
        out.write("the shoe on %s: development, its controller not running (deploy it, or restart it)\n" % port)
        return 0
    seance = ("seance %d open at table %d" % (now["seance"], now["table"]) if now.get("table")
              else "no seance open") if "table" in now else "its seance unknown (an older firmware)"
    casino = "; casino key id %s" % now["casino"] if now.get("casino") else ""
    out.write("the shoe on %s: %s, sabot %d, %s; its journal's last record %d at %s%s\n" % (
        port, "production" if shoe.production else "development", now["sabot"], seance, now["seq"], utc(now["seconds"]),
        casino))
    if now.get("broken") or now.get("alarms"):
        print("sabot status: error: %s" % fault(port, dict(now, fault=now.get("alarms", 0))), file=sys.stderr)
        return 1
    return 0


def interrupted(command, port):
    """The line a state-changing command says when Ctrl-C stopped it: the shoe may have taken it already."""
    return ("sabot %s: interrupted: the shoe on %s may have taken the command already (the command crossed the "
            "cable before Ctrl-C); see with `sabot status --port %s`, %s, before running it again" % (
                command, port, port, CHANGING.get(command.split()[0], "")))
