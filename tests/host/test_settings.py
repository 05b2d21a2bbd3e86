"""The workstation's settings (sabot/settings.py): the port, the casino's key, the registry and the fleet database
from the environment or a sabot.toml, the command line first, then the environment, then the file; a command that
needs a port none of them gave says the three ways in one line."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sabot import settings
from sabot.cli import parser

SABOT = str(Path(sys.executable).parent / "sabot")


def parsed(argv, found):
    top = settings.apply(parser(), found)
    args = top.parse_args(argv)
    return args, settings.missing(args)


def test_the_line_wins_over_the_environment_which_wins_over_the_file(tmp_path):
    home = tmp_path / "home"
    (home / ".config" / "sabot").mkdir(parents=True)
    (home / ".config" / "sabot" / "config.toml").write_text('port = "shoe.tty"\nregistry = "/casino/shoes.json"\n'
                                                           'casino_key = "casino.key"\ndb = "fleet.db"\n')
    here = tmp_path / "here"
    here.mkdir()
    found = settings.load({"SABOT_PORT": "/dev/ttyACM1"}, cwd=here, home=home)
    assert found["port"] == ("/dev/ttyACM1", "SABOT_PORT")
    assert found["casino_key"][0] == str(home / ".config" / "sabot" / "casino.key")  # beside the file it is in
    assert found["registry"][0] == "/casino/shoes.json"
    args, missing = parsed(["seance", "open", "--table", "3"], found)
    assert missing is None and args.port == "/dev/ttyACM1" and args.casino_key.endswith("casino.key")
    args, _ = parsed(["seance", "open", "--table", "3", "--port", "/dev/ttyACM0", "--casino-key", "k"], found)
    assert (args.port, args.casino_key) == ("/dev/ttyACM0", "k")
    args, _ = parsed(["number", "set", "42"], found)
    assert args.registry == "/casino/shoes.json"
    args, _ = parsed(["fleet", "report", "--out", "pages"], found)  # --db or --parquet: the setting's --db
    assert args.db.endswith("fleet.db") and args.parquet is None
    args, _ = parsed(["web", "--port", "8020"], found)  # the web page's TCP port is not the shoe's
    assert args.port == 8020
    args, _ = parsed(["nuit", "--casino", "c"], found)  # nor nuit's --port N=PATH, each shoe's over the registry's
    assert args.port == [] and args.registry == "/casino/shoes.json"
    args, _ = parsed(["doctor"], found)  # doctor checks the port set
    assert args.port == ["/dev/ttyACM1"]
    (here / "sabot.toml").write_text('port = "other.tty"\n')  # ./sabot.toml first, the user's file then unread
    assert settings.load({}, cwd=here, home=home) == {"port": ("other.tty", str(here / "sabot.toml"))}


def test_no_port_anywhere_is_one_line_naming_the_three_ways_and_a_bad_file_is_refused(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SABOT_")}
    env["HOME"] = str(tmp_path)
    done = subprocess.run([SABOT, "pull-log", "journal"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert "--port" in done.stderr and "SABOT_PORT" in done.stderr and "sabot.toml" in done.stderr
    (tmp_path / "sabot.toml").write_text('port = "shoe.tty"\n')  # the file's port is the one asked
    done = subprocess.run([SABOT, "pull-log", "journal"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 2 and "no device at shoe.tty" in done.stderr, done.stderr
    done = subprocess.run([SABOT, "pull-log", "journal"], capture_output=True, text=True, cwd=tmp_path,
                          env=dict(env, SABOT_PORT=str(tmp_path / "env.tty")))
    assert "no device at %s" % (tmp_path / "env.tty") in done.stderr, done.stderr
    (tmp_path / "sabot.toml").write_text('prot = "shoe.tty"\n')
    done = subprocess.run([SABOT, "key", "export"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 2 and "unknown setting prot" in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("text", ['port = 3\n', 'port = "a\n'])
def test_a_settings_file_that_is_not_strings_or_not_toml_is_said(tmp_path, text):
    (tmp_path / "sabot.toml").write_text(text)
    with pytest.raises(settings.BadSettings, match="sabot.toml"):
        settings.load({}, cwd=tmp_path, home=tmp_path)
