"""--json on every command that reports (issue 40, the habits): one JSON object on stdout, its keys in English, the
same facts as the command's text (what was done, the shoe's number, its state, the paths written); a mistake or a
refusal is still one line on stderr with the same exit status. add_flags() gives each of them the option, once."""

import json

# The commands that report and take --json here; `log verify`, `fleet check`, `cagnotte due|check` and `doctor`
# had theirs before.
COMMANDS = (("firmware", "verify"), ("pull-log",), ("seance",), ("number", "set"), ("clock", "set"),
            ("key", "enrol"), ("fleet", "ingest"), ("report",))
HELP = "one JSON object on stdout (keys in English) instead of the text; errors stay one line on stderr"


def said(out, command, **facts):
    """The command's one object; 0, the status of a command that did what it says."""
    out.write(json.dumps(dict({"command": command}, **facts), ensure_ascii=False, sort_keys=False) + "\n")
    return 0


def state(answer):
    """A shoe's state as its status or boot answers say it: its number, last record, alarms (a bit a fault) and
    whether its journal is broken."""
    return {"sabot": answer.get("sabot"), "record": answer.get("seq"), "alarms": answer.get("alarms", 0),
            "broken": bool(answer.get("broken"))}


def add_flags(top):
    """--json on each command of COMMANDS in the parser tree."""
    for path in COMMANDS:
        parser = top
        for word in path:
            parser = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices[word]
        parser.add_argument("--json", action="store_true", help=HELP)
    return top
