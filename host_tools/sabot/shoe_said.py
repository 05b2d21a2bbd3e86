"""What the technician's commands say of a shoe, whichever transport reached it: a shoe in fault, one that refused
an authority change, a command that failed, the journal's times."""

import datetime
import sys

from firmware.events import REF_ALARM, REF_SEANCE_OPEN
from firmware.format import words


def fault(port, answer):
    """What a shoe in fault says: why it journalled nothing, and the act that mends it."""
    other = answer.get("other")
    if other:
        return ("the shoe on %s is in fault and journalled nothing: its journal is sabot %d's under key id %s, not "
                "the shoe's as configured; `sabot number set --port %s N` begins its own journal (that one kept)"
                % (port, other["sabot"], other["key"], port))
    names = [words.said(words.ALARMS, code, words.ID) for code in sorted(words.ALARMS)
             if answer.get("fault", 0) >> code - 1 & 1]
    return "the shoe on %s is in fault (%s) and journalled nothing%s" % (
        port, ", ".join(names) or "journal", ": its journal is unusable" if answer.get("broken") else "")


def fault_in(port, now):
    """The line that says a shoe is in fault from its status (now: its JSON, None when no controller runs), or None:
    in fault, it journals nothing (its journal another number's or element's, or unusable)."""
    if not now or not now.get("broken"):
        return None  # journalling: an alarm raised is the journal's to say, not a fault of the shoe's
    return fault(port, dict(now, fault=now.get("alarms", 0)))


def failed(command, message):
    print("sabot %s: error: %s" % (command, message), file=sys.stderr)
    return 1


EPOCH = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)  # the journal's times count from it


def utc(seconds):
    return (EPOCH + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S UTC")


_REFUSED = {
    REF_ALARM: ("une alarme ou un défaut est levé : un superviseur le lève d'abord (la clé du superviseur)",
                "an alarm or fault stands: a supervisor clears it first"),
    REF_SEANCE_OPEN: ("une séance est ouverte : la fermer d'abord (sabot seance close)",
                      "a séance is open: close it first (sabot seance close)"),
}


def refusal(port, answer):
    """What a shoe that refused an authority change says, French first; nothing changed on it."""
    if "ahead" in answer:
        last = utc(answer["ahead"])
        return ("le sabot sur %s refuse une heure à plus d'un jour après le dernier enregistrement de son journal "
                "(%s) : vérifiez l'horloge du poste ; --force pour la forcer (journalisé comme forcé) ; rien n'a "
                "changé / refused: more than a day ahead of the journal's last record (%s): check the "
                "workstation's clock, or --force" % (port, last, last))
    code = answer["refused"]
    fr, en = _REFUSED.get(code, (words.said(words.REFUSALS, code, words.FR), words.said(words.REFUSALS, code)))
    return "le sabot sur %s refuse : %s ; rien n'a changé / refused: %s; nothing changed" % (port, fr, en)
