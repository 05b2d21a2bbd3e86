"""--json on every command that reports (issue 40, the habits), on a production virtual board, its port, casino key,
registry and database from the environment (sabot/settings.py): one JSON object on stdout with what was done, the
shoe's number and state and the paths written; a refusal still one line on stderr, the same exit status."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.mac import Key
from sabot.verify import read_key
from tests.host.test_production import casino_board

SABOT = str(Path(sys.executable).parent / "sabot")


def run(env, cwd, *args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300, env=env, cwd=cwd)


def json_of(env, cwd, *args):
    done = run(env, cwd, *args, "--json")
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert len(done.stdout.splitlines()) == 1, done.stdout  # one object, nothing else on stdout
    said = json.loads(done.stdout)
    assert said["command"] == " ".join(str(a) for a in args[:2]) or said["command"] == args[0], said
    return said


@pytest.mark.req("P-ENROL", "S-IDENT", "H-FIRMWARE", "P-PULL", "F-INGEST", "H-EXPORT")
def test_each_command_acting_on_a_shoe_says_one_json_object_its_port_and_key_from_the_environment(mpy_build,
                                                                                                  tmp_path):
    bundle = tmp_path / "dist"
    assert run(None, tmp_path, "firmware", "dist", mpy_build, "--board", "sim", "--out", bundle).returncode == 0
    board, casino = casino_board(tmp_path, build=bundle)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SABOT_")}
    env.update(HOME=str(tmp_path), SABOT_PORT=board.port, SABOT_CASINO_KEY=str(casino),
               SABOT_REGISTRY=str(tmp_path / "shoes.json"), SABOT_DB=str(tmp_path / "fleet.duckdb"))
    try:
        enrolled = json_of(env, tmp_path, "key", "enrol")
        assert enrolled["command"] == "key enrol" and enrolled["sabot"] == 1
        assert enrolled["casino_key_id"] == Key(read_key(casino)).id.hex()
        assert enrolled["registry"] == str(tmp_path / "shoes.json") and enrolled["configuration"] == "production"
        numbered = json_of(env, tmp_path, "number", "set", "42")
        assert (numbered["sabot"], numbered["was"], numbered["changed"]) == (42, 1, True)
        assert numbered["registry"] == str(tmp_path / "shoes.json")
        assert numbered["restarted"]["sabot"] == 42 and numbered["restarted"]["alarms"] == 0
        clock = json_of(env, tmp_path, "clock", "set", "--at", "2027-01-01T00:00:00", "--force")
        assert clock["set"] == "2027-01-01 00:00:00 UTC" and clock["restarted"]["record"] > 0 and clock["forced"]
        opened = json_of(env, tmp_path, "seance", "open", "--table", "12", "--by", "4711")
        assert (opened["command"], opened["sabot"], opened["seance"], opened["table"]) == ("seance open", 42, 1, 12)
        closed = json_of(env, tmp_path, "seance", "close")
        assert closed["command"] == "seance close" and closed["record"] > opened["record"]
        again = run(env, tmp_path, "seance", "close", "--json")  # refused: as without --json
        assert again.returncode == 1 and again.stdout == "" and len(again.stderr.splitlines()) == 1
        pulled = json_of(env, tmp_path, "pull-log", "journal")
        assert pulled["sabot"] == 42 and pulled["segments"] >= 1 and pulled["folder"] == "journal"
        assert "journal/receipt.json" in pulled["written"] and all((tmp_path / p).is_file() for p in pulled["written"])
        verified = json_of(env, tmp_path, "firmware", "verify", "--bundle", bundle)
        assert verified["match"] is True and verified["configuration"] == "production" and verified["differ"] == []
    finally:
        board.close()
    ingested = json_of(env, tmp_path, "fleet", "ingest", "journal", "--casino", "deauville")
    assert ingested["db"] == str(tmp_path / "fleet.duckdb") and ingested["casino"] == "deauville"
    assert [(j["sabot"], j["refused"]) for j in ingested["journals"]] == [(42, None)]
    assert ingested["journals"][0]["added"] > 0
    reported = json_of(env, tmp_path, "report", "journal", "-o", "report.html")
    assert reported["sabot"] == 42 and reported["output"] == "report.html" and (tmp_path / "report.html").is_file()
    assert reported["conforme"] is True and reported["findings"] == [], reported
