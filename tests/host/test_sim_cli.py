"""`sabot sim` as a technician uses it: the same journal on both runtimes, and clear refusals (H-SIM)."""

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards.sim import bounds
from boards.sim.board import SimBoard
from boards.sim.flash import MemoryStorage
from boards.sim.runner import run
from boards.sim.scenario import ScenarioError, parse
from firmware.devkey import DEVELOPMENT_KEY
from firmware.records import R_CARD
from sabot.journalfile import TYPE, Reader, load_segments
from sabot.verify import check
from sabot.vms import RUNTIMES
from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")
ALL_SCENARIOS = sorted(SCENARIOS.glob("*.txt"))
# SHA-256 over each segment's name and bytes, in order: a change of the firmware that changes what a shoe
# journals must say so here, on purpose (stop 10's refactoring of the vocabulary left every byte as it was).
JOURNAL_DIGESTS = {  # format 5's (issue 37: the build's name in 32 bytes; issue 23: one SHA-256 block a record)
    "banque_ouverte_article61": "127939c3d4099c733f1577fedae720c1ec8c5eb752b21157d4adcbc6deaa0b63",
    "deux_tableaux_ouverte": "387c7294ee3a668928c18f0c7722c3ca2160699870b6377bc63e01c69516b26c",
    "full_shoe_chemin_de_fer": "ad1ef17ae2b07a2bc5040a2ed2f5843106c39d86e486ff6499b9347233eabc57",
    "incidents": "d78b085830c23380af9fbae04acd8d11f6404dbfd02e6b595eb1c22209f75389",
    "long_uptime": "25b6c1fa71e2beec4bfc971f2cd46a26faee0c3854ade79002847c4b0c32e2af",
}


def sabot(*args, cwd=None):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.mark.req("H-SIM")
@pytest.mark.parametrize("scenario", ALL_SCENARIOS, ids=[p.stem for p in ALL_SCENARIOS])
def test_same_scenario_same_journal_trace_and_timeline_on_cpython_and_both_micropython_vms(scenario, tmp_path):
    outputs = {}
    for runtime in RUNTIMES:
        log, trace = tmp_path / (runtime + ".journal"), tmp_path / (runtime + ".jsonl")
        run = sabot("sim", scenario, "--runtime", runtime, "--log", log, "--trace", trace)
        assert run.returncode == 0, run.stderr
        timeline = run.stdout.split("journal: ")[0]
        segments = {p.name: p.read_bytes() for p in sorted(log.iterdir())}
        outputs[runtime] = (segments, trace.read_bytes(), timeline)
    assert outputs["cpython"] == outputs["micropython"] == outputs["micropython32"]
    segments, trace, timeline = outputs["cpython"]
    digest = hashlib.sha256(b"".join(name.encode() + data for name, data in segments.items())).hexdigest()
    assert digest == JOURNAL_DIGESTS[scenario.stem]
    _, reader, findings = check([tmp_path / "micropython.journal"], DEVELOPMENT_KEY)
    assert reader.records > 10 and reader.torn == 0
    assert not [f for f in findings if f.id == "J-TAMPER"]
    cards = sum(1 for r in Reader(load_segments([tmp_path / "cpython.journal"]), DEVELOPMENT_KEY)
                if r.fields[TYPE] == R_CARD)
    assert "%d journalled" % cards in timeline
    for line in trace.decode().splitlines():
        assert set(json.loads(line)) & {"event", "cmd", "record", "note"}


@pytest.mark.req("H-SIM", "S-STOP", "G-CF")
def test_make_sim_default_scenario_shows_a_whole_shoe_coup_by_coup(tmp_path):
    run = sabot("sim", SCENARIOS / "full_shoe_chemin_de_fer.txt", "--log", tmp_path / "j")
    assert run.returncode == 0
    assert "coup 1: no more bets, shoe unlocked" in run.stdout
    assert "coup 64 ends: no hand may draw, shoe locked" in run.stdout
    assert "card 306  STOP stop" in run.stdout
    assert "coup 64 result: ponte 9, banque 7; winner: ponte" in run.stdout
    assert "shoe closed: no other coup until a new shoe is loaded" in run.stdout
    assert "refused no more bets: shoe closed after the stop card" in run.stdout
    assert "FINDING" not in run.stdout
    again = sabot("sim", SCENARIOS / "full_shoe_chemin_de_fer.txt", "--log", tmp_path / "j", "--quiet")
    assert again.returncode == 0, again.stderr  # make sim twice: its own journal and receipt replaced
    (tmp_path / "j" / "notes.txt").write_text("an inspector's\n")
    kept = sabot("sim", SCENARIOS / "full_shoe_chemin_de_fer.txt", "--log", tmp_path / "j", "--quiet")
    assert kept.returncode == 2 and (tmp_path / "j" / "notes.txt").is_file()  # nothing it did not write deleted


@pytest.mark.req("H-SIM", "S-FORCED", "S-ONE")
def test_the_trace_holds_every_event_and_command(tmp_path):
    trace = tmp_path / "t.jsonl"
    run = sabot("sim", SCENARIOS / "incidents.txt", "--log", tmp_path / "j", "--trace", trace)
    assert run.returncode == 0
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    events = [x["event"] for x in lines if "event" in x]
    out = int(run.stdout.split(" cards out of the shoe")[0].split("\n")[-1])
    assert events.count("card") == out > 20 and "tick" in events
    refused = [x for x in lines if x.get("refused")]
    assert {"event": "draw", "arg": 0, "refused": "shoe locked"}.items() <= refused[0].items()
    opens = sum(1 for x in lines if x.get("cmd") == "gate_open")
    closes = sum(1 for x in lines if x.get("cmd") == "gate_close")
    assert opens >= 20 and closes >= opens


@pytest.mark.req("H-SIM")
@pytest.mark.parametrize("text,message", [
    ("shoe seed=1\ndraw 2\ndraw x\n", "bad.txt:3: the count must be a whole number of at least 1, not 'x'"),
    ("shoe cards=AS,ZZ\n", "bad.txt:1: unknown card 'ZZ'"),
    ("game chemin_de_fer\nno_more_bets\n", "bad.txt:2: no_more_bets before any shoe is loaded"),
    ("game chemin_de_fer\n", "bad.txt:1: the scenario loads no shoe"),
    (b"shoe seed=1\n\xff\xfe\n", "bad.txt is not a UTF-8 text file"),
    ("shoe cards=%s\nforce 300\n" % ",".join(["AS"] * 300), "bad.txt:1: the scenario holds more than 255 of the "
     "card AS"),  # CPython stopped on "byte must be in range(0, 256)", MicroPython wrapped (issue 26)
    ("seance table=1\n" + "shoe seed=1\nno_more_bets\ndraw 6\n" * 60, "bad.txt:128: the scenario holds more than 255"),
    ("shoe seed=\u0663\nno_more_bets\ndraw 6\n", "bad.txt:1: U+0663 is not allowed outside a comment"),
    ("shoe\u00a0seed=1\n", "bad.txt:1: U+00A0 is not allowed outside a comment"),
    ("shoe seed=1 # %s\n" % ("x" * 5000), "bad.txt:1: the line is longer than 4096 characters"),
    ("shoe seed=1\n" + ("# %s\n" % ("x" * 1000)) * 600 + "no_more_bets\ndraw 6\n",
     "bad.txt is larger than a scenario (512 KB at most)"),  # the MicroPython runner ran out of memory at 2 MB
], ids=["count", "card", "shoe-late", "no-shoe", "binary", "a-card-256-times", "shoes", "arabic-digit", "nbsp",
        "long-line", "large-file"])
@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_bad_scenario_is_refused_before_anything_runs_and_nothing_is_lost(tmp_path, text, message, runtime):
    scenario = tmp_path / "bad.txt"
    scenario.write_bytes(text if isinstance(text, bytes) else text.encode())
    log = tmp_path / "kept.journal"
    log.write_bytes(b"an earlier journal")
    run = sabot("sim", "bad.txt", "--runtime", runtime, "--log", log, cwd=tmp_path)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr
    assert log.read_bytes() == b"an earlier journal"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "kept.journal"]


@pytest.mark.req("H-SIM")
def test_an_unwritable_log_path_is_refused_before_anything_runs(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    run = sabot("sim", SCENARIOS / "incidents.txt", "--log", blocker / "j.journal")
    assert run.returncode == 2
    assert "sabot sim: error: cannot write %s" % (blocker / "j.journal.partial") in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


@pytest.mark.req("H-SIM")
def test_a_missing_scenario_is_named():
    run = sabot("sim", "no/such/scenario.txt")
    assert run.returncode == 2
    assert "cannot read scenario no/such/scenario.txt: No such file or directory" in run.stderr


_BIG = st.sampled_from([0, 1, 255, 256, 312, 313, 10000, 10001, 65535, 65536, 1 << 30, 1 << 31, 10 ** 12, 10 ** 30])
_LINES = st.one_of(
    st.sampled_from(["seance table=1", "seance_close", "no_more_bets", "coup_end", "double", "power_cut", "power_on",
                     "clear_alarm", "game deux_tableaux_limitee", "game chemin_de_fer", "shoe seed=7", "force 300"]),
    st.builds("{} {}".format, st.sampled_from(["draw", "burn", "force", "wait", "shoe seed=", "seance table="]),
              _BIG).map(lambda line: line.replace("= ", "=")),
    st.builds(lambda card, n: "shoe cards=" + ",".join([card] * n), st.sampled_from(["AS", "KH"]),
              st.sampled_from([1, 255, 256, 312, 313])),
)
_SCENARIOS = st.lists(st.tuples(st.lists(_LINES, min_size=1, max_size=4), st.sampled_from([1, 2, 43, 256])),
                      min_size=1, max_size=4).map(lambda blocks: "\n".join("\n".join(b) for b, k in blocks
                                                                               for _ in range(k)))


@pytest.mark.req("H-SIM")
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_SCENARIOS)
def test_every_scenario_the_check_accepts_runs_to_its_end(text):
    """Big numbers, long stacks, many shoes: the check refuses what the journal cannot count, and the run of
    anything it accepts ends without an exception (it stopped on "byte must be in range(0, 256)", issue 26)."""
    try:
        steps = bounds.check(parse(text, "s.txt"))
    except ScenarioError:
        return
    run(steps, SimBoard(MemoryStorage(1 << 24)))
