"""The workstation's settings, so that a technician does not type them on every command: the shoe's port, the
casino's key, the registry, its trusted signers and the fleet database, from the environment (SABOT_PORT,
SABOT_CASINO_KEY, SABOT_REGISTRY, SABOT_REGISTRY_SIGNER, SABOT_DB) or a file, ./sabot.toml, else
~/.config/sabot/config.toml (port, casino_key, registry, registry_signer, db). The command line wins over the
environment, which wins over the file. apply() makes them the defaults of the parser tree's options, once for every
command; missing() says, after parsing, an option a command needs that none of the three gave."""

import argparse
import os
import tomllib
from pathlib import Path

# setting: (its option, its environment variable)
SETTINGS = {"port": ("--port", "SABOT_PORT"), "casino_key": ("--casino-key", "SABOT_CASINO_KEY"),
            "registry": ("--registry", "SABOT_REGISTRY"), "db": ("--db", "SABOT_DB"),
            "registry_signer": ("--registry-signer", "SABOT_REGISTRY_SIGNER")}
LISTS = ("registry_signer",)  # a list of paths in a file (or one), several in the environment split by os.pathsep
HERE = "sabot.toml"
HOME = "~/.config/sabot/config.toml"


class BadSettings(Exception):
    """A settings file that cannot be used, said in one line."""


class _Missing:
    """The default of an option a command needs when no setting gives it: missing() names it."""

    def __init__(self, setting):
        self.setting = setting

    def __repr__(self):
        return "<no %s>" % self.setting


def files(cwd=None, home=None):
    """The settings files looked for, the first found used: ./sabot.toml, then ~/.config/sabot/config.toml."""
    home = Path(home) if home else Path(os.path.expanduser("~"))
    return [Path(cwd or os.getcwd()) / HERE, home / ".config" / "sabot" / "config.toml"]


def read_file(path, cwd=None):
    """{setting: text} from a TOML file; paths relative to the file's folder when it is not the current one."""
    try:
        with open(path, "rb") as f:
            table = tomllib.load(f)
    except OSError as e:
        raise BadSettings("%s: cannot read it: %s" % (path, e.strerror or e)) from None
    except tomllib.TOMLDecodeError as e:
        raise BadSettings("%s: not TOML: %s" % (path, e)) from None
    unknown = sorted(set(table) - set(SETTINGS))
    if unknown:
        raise BadSettings("%s: unknown setting %s (it knows %s)" % (path, ", ".join(unknown), ", ".join(SETTINGS)))
    found = {}
    for name, value in table.items():
        values = value if name in LISTS and isinstance(value, list) and value else [value]
        if any(not isinstance(v, str) or not v for v in values):
            raise BadSettings("%s: %s must be a non-empty string, as %s = \"...\"%s" % (
                path, name, name, " (or a list of them)" if name in LISTS else ""))
        folder = Path(path).parent
        here = folder.resolve() == Path(cwd or os.getcwd()).resolve()
        values = [v if os.path.isabs(v) or here else str(folder / v) for v in values]
        found[name] = values if name in LISTS else values[0]
    return found


def load(environ=None, cwd=None, home=None):
    """{setting: (value, where it came from)}: the environment's over the first settings file's."""
    environ = os.environ if environ is None else environ
    found = {}
    for path in files(cwd, home):
        if path.is_file():
            found = {name: (value, str(path)) for name, value in read_file(path, cwd).items()}
            break
    for name, (_, variable) in SETTINGS.items():
        if environ.get(variable):
            value = environ[variable]
            found[name] = (value.split(os.pathsep) if name in LISTS else value, variable)
    return found


def _parsers(parser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def apply(top, found=None):
    """Each setting the default of its option in every parser of the tree (a device's --port: not the web page's
    TCP port); an option that was required no longer is, its absence said by missing() after parsing. A required
    group (fleet's --db | --parquet) is satisfied by a --db setting."""
    found = load() if found is None else found
    options = {option: name for name, (option, _) in SETTINGS.items()}
    for parser in _parsers(top):
        for action in parser._actions:
            name = next((options[o] for o in action.option_strings if o in options), None)
            listed = isinstance(action, argparse._AppendAction)  # doctor's --port PORT: the port set is checked;
            if name is None or action.type is not None or listed and action.metavar != "PORT" and name not in LISTS:
                continue  # not nuit's --port N=PATH
            value, where = found.get(name, (None, None))
            action.help = "%s (or %s, or %s in %s; %s)" % (action.help, SETTINGS[name][1], name, HERE, (
                "now %s, from %s" % (value, where) if value else "none set").replace("%", "%%"))
            if listed:
                if value:
                    action.default = list(value) if name in LISTS else [value]
                continue
            if value is not None:
                action.default = value
                action.required = False
            elif action.required:
                action.default = _Missing(name)
                action.required = False
        for group in parser._mutually_exclusive_groups:
            if group.required and any("--db" in a.option_strings for a in group._group_actions) and "db" in found:
                group.required = False
    return top


def missing(args):
    """The one-line error for an option the command needs that neither its line, the environment nor a settings
    file gave; None when nothing is missing."""
    for value in vars(args).values():
        if isinstance(value, _Missing):
            option, variable = SETTINGS[value.setting]
            return "no %s given: give %s, or set %s, or write %s = \"...\" in ./%s or %s" % (
                value.setting.replace("_", " "), option, variable, value.setting, HERE, HOME)
    return None
