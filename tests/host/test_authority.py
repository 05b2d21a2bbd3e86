"""The casino's authority on a shoe (P-AUTHORITY, issue 38): a new number or casino key refused while an alarm stands
or a séance is open, a clock more than a day ahead refused without --force; each change journalled before it takes
effect, with who asked and the values before and after, which verify, its JSON and the report show."""

import json
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from firmware.events import EV_CARD, EV_SEANCE_CLOSE, REF_ALARM, REF_SEANCE_OPEN
from firmware.format import commands as c
from firmware.mac import Key
from firmware.record_names import unpack_authority
from firmware.records import AU_CLOCK_FORCED, AU_KEY, AU_NUMBER, R_AUTHORITY, R_CLEAR
from firmware.storage import segment_name
from sabot.journalfile import CARD, CODE, CONDITION, DISPOSITION, TYPE, Reader, load_segments
from sabot.production_link import production
from tests.host.protocol_shoe import CASINO, Shoe

SABOT = str(Path(sys.executable).parent / "sabot")


@pytest.fixture
def shoe(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the shoe's filesystem: its config.json, its casino key
    (tmp_path / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 1}))
    return Shoe()


def _pulled(shoe, folder):
    """The in-memory shoe's journal as a folder of segments, as pull-log writes it."""
    folder.mkdir()
    for segment, data in shoe.journal().items():
        (folder / segment_name(segment)).write_bytes(data)
    return folder


def _changes(folder):
    """(what, who, before, after) of each authority change the journal holds, its three records joined."""
    parts = [unpack_authority(r.fields[CARD], r.fields[DISPOSITION], r.fields[CONDITION], r.fields[CODE])
             for r in Reader(load_segments([folder]), None) if r.fields[TYPE] == R_AUTHORITY]
    assert [part for _, part, _ in parts] == [0, 1, 2] * (len(parts) // 3)
    return [(parts[i][0], parts[i][2], parts[i + 1][2], parts[i + 2][2]) for i in range(0, len(parts), 3)]


def _id32(key):
    return int.from_bytes(key.id[:4], "little")


def _close(shoe):
    shoe.board.shell.handle(EV_SEANCE_CLOSE, 0, shoe.board.clock.ticks())


@pytest.mark.req("P-AUTHORITY", "S-IDENT", "S-FORCED")
def test_a_new_number_waits_for_the_seance_to_close_and_the_alarm_to_be_cleared_and_is_journalled(shoe, tmp_path):
    """The renumbering attack of issue 38 (a forced card, then `number set 43`) is refused while the alarm stands:
    the forced card's journal is not set aside, the alarm not lost; once done, who asked and the numbers before and
    after are in the journal."""
    seq = shoe.board.shell.journal.seq
    assert shoe.client.set_number(CASINO, 42) == (c.E_REFUSED, {"refused": REF_SEANCE_OPEN})  # table 3 is open
    _close(shoe)
    shoe.board.shell.handle(EV_CARD, 7, shoe.board.clock.ticks())  # a card pulled past the locked gate
    assert shoe.board.shell.ctl.alarms
    seq = shoe.board.shell.journal.seq
    assert shoe.client.set_number(CASINO, 43) == (c.E_REFUSED, {"refused": REF_ALARM})
    assert json.loads((tmp_path / "config.json").read_text())["sabot"] == 1 and not shoe.protocol.restart
    assert shoe.board.shell.journal.seq == seq and shoe.board.shell.ctl.alarms  # nothing journalled, alarm stands
    shoe.board.press(10)  # EV_CLEAR: the supervisor's key
    assert shoe.board.shell.journal.body[0] == R_CLEAR and not shoe.board.shell.ctl.alarms
    status, answer = shoe.client.set_number(CASINO, 42)
    assert status == c.OK and answer["was"] == 1 and shoe.protocol.restart
    assert _changes(_pulled(shoe, tmp_path / "journal")) == [(AU_NUMBER, _id32(CASINO), 1, 42)]


@pytest.mark.req("P-AUTHORITY", "P-ENROL")
def test_the_casino_key_changes_only_with_no_seance_open_and_the_change_is_journalled_by_key_ids(shoe, tmp_path):
    new = bytes(range(200, 232))
    assert shoe.client.casino_key(CASINO, new) == (c.E_REFUSED, {"refused": REF_SEANCE_OPEN})
    assert not (tmp_path / "keys").exists() and shoe.protocol.casino is CASINO  # the old key still rules
    _close(shoe)
    assert shoe.client.casino_key(CASINO, new)[0] == c.OK
    assert (tmp_path / "keys" / "casino.key").read_text().strip() == new.hex()
    assert _changes(_pulled(shoe, tmp_path / "journal")) == [(AU_KEY, _id32(CASINO), _id32(CASINO), _id32(Key(new)))]


@pytest.mark.req("P-AUTHORITY", "J-TIME")
def test_a_clock_more_than_a_day_ahead_is_refused_without_force_and_journalled_as_forced_with_it(shoe, tmp_path):
    """Issue 38: `clock set` to 2099 locked the casino out of setting the clock for good (never behind the journal)."""
    last = shoe.client.status()["seconds"]
    far = last + 2 * 86400
    assert shoe.client.set_clock(CASINO, far, (2026, 12, 2, 8, 1, 0)) == (c.E_REFUSED, {"ahead": last})
    assert shoe.clocks == [] and not shoe.protocol.restart
    status, answer = shoe.client.set_clock(CASINO, far, (2026, 12, 2, 8, 1, 0), force=True)
    assert status == c.OK and answer == {"set": far, "forced": True} and shoe.clocks == [(2026, 12, 2, 8, 1, 0)]
    (what, who, before, after), = _changes(_pulled(shoe, tmp_path / "journal"))
    assert (what, who, after) == (AU_CLOCK_FORCED, _id32(CASINO), far) and last <= before < far


@pytest.mark.req("P-AUTHORITY", "H-VERIFY", "H-EXPORT")
def test_verify_names_each_authority_change_and_finds_one_the_shoe_would_have_refused(shoe, tmp_path):
    _close(shoe)
    assert shoe.client.set_number(CASINO, 42)[0] == c.OK
    shell = shoe.board.shell
    shell.handle(EV_CARD, 7, shoe.board.clock.ticks())  # forced: an alarm stands
    ctl = shell.ctl  # a journal the shoe could not have written: a new number under the alarm
    ctl.n_recs = ctl.n_cmds = 0
    for part, value in enumerate((0, 42, 43)):
        ctl._emit(R_AUTHORITY, 0, 0, AU_NUMBER | part << 4, value)
    shell.carry_out(0, 0, shoe.board.clock.ticks())
    folder = str(_pulled(shoe, tmp_path / "journal"))
    french = subprocess.run([SABOT, "log", "verify", folder, "--allow-development-key"], capture_output=True,
                            text=True).stdout
    assert "changement d'autorité, n° " in french, french
    assert "numéro du sabot 1 → 42 ; demandé sous la clé du casino %s…" % CASINO.id[:4].hex() in french
    assert "numéro du sabot 42 → 43 ; par mpremote, sans clé du casino" in french
    assert "P-AUTHORITY" in french and "un nouveau numéro du sabot alors qu'une alarme" in french, french
    said = json.loads(subprocess.run([SABOT, "log", "verify", folder, "--allow-development-key", "--json"],
                                     capture_output=True, text=True).stdout)
    assert [(a["what"], a["who"], a["before"], a["after"]) for a in said["authority"]] == [
        ("number", CASINO.id[:4].hex(), 1, 42), ("number", None, 42, 43)]
    assert [f["id"] for f in said["findings"]].count("P-AUTHORITY") == 1 and not said["ok"]
    shown = subprocess.run([SABOT, "log", "show", folder], capture_output=True, text=True).stdout
    assert "numéro du sabot ; demandé sous la clé du casino %s…" % CASINO.id[:4].hex() in shown, shown
    assert "numéro du sabot ; avant : 1" in shown and "numéro du sabot ; après : 42" in shown, shown
    html = tmp_path / "rapport.html"
    reported = subprocess.run([SABOT, "report", folder, "--allow-development-key", "-o", str(html)],
                              capture_output=True, text=True)
    assert reported.returncode == 0, reported.stderr
    page = unescape(html.read_text())
    assert "changements d'autorité du casino" in page and "numéro du sabot 1 → 42" in page, page
    assert "P-AUTHORITY" in page


def _board(tmp_path, casino, scenario):
    """The production virtual board of tmp_path/fs (its casino key enrolled in its folder), playing scenario at its
    power-up."""
    from tests.host.test_vboard import VirtualBoard

    (tmp_path / "fs" / "keys").mkdir(parents=True, exist_ok=True)
    (tmp_path / "fs" / "keys" / "casino.key").write_text(casino.read_text())
    (tmp_path / "scenario.txt").write_text(scenario)
    return VirtualBoard(tmp_path, "--scenario", str(tmp_path / "scenario.txt"), production=True)


def sabot(*args):
    done = subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.mark.req("P-AUTHORITY", "S-FORCED", "J-TAMPER", "P-PULL")
def test_the_renumbering_attack_is_refused_while_the_alarm_stands_and_the_kept_journal_is_pulled_and_verified(
        tmp_path, mpy_build):
    """Issue 38, on the production virtual board: after a forced card, `number set 43` (to set the journal aside)
    and a clock set to 2099 are refused, one line each, French first; once the supervisor has cleared the alarm and
    the séance is closed, the new number is taken, the journal kept aside is pulled with the new one, and verify
    checks that the new one begins where the kept one ends."""
    casino = tmp_path / "casino.key"
    casino.write_text(bytes(range(32, 64)).hex())
    board = _board(tmp_path, casino, "seance table=1\nshoe seed=1\nforce\n")
    try:
        assert sabot("key", "enrol", "--port", board.port, "--casino-key", casino, "--registry",
                     tmp_path / "shoes.json").returncode == 0
        renumbered = sabot("number", "set", "--port", board.port, 43, "--casino-key", casino)
        far = sabot("clock", "set", "--port", board.port, "--at", "2099-01-01T00:00:00", "--casino-key", casino)
        client = production(board.port)
        status = client.status()
        client.link.close()
    finally:
        board.close()
    assert renumbered.returncode == 1 and len(renumbered.stderr.splitlines()) == 1, renumbered.stderr
    assert "refuse : une alarme ou un défaut est levé" in renumbered.stderr, renumbered.stderr
    assert far.returncode == 1 and "plus d'un jour après le dernier enregistrement" in far.stderr, far.stderr
    assert status["alarms"] and status["sabot"] == 1, status  # the alarm still stands, the number unchanged
    # The supervisor's key, the séance closed (a scenario loads a shoe: refused outside a séance, not journalled).
    board = _board(tmp_path, casino, "clear_alarm\nseance_close\nshoe seed=2\n")
    try:
        renumbered = sabot("number", "set", "--port", board.port, 43, "--casino-key", casino)
        pulled = sabot("pull-log", "--port", board.port, tmp_path / "pulled", "--quiet")
    finally:
        board.close()
    assert renumbered.returncode == 0 and "kept on the shoe in /journal.1/" in renumbered.stdout, renumbered.stderr
    assert pulled.returncode == 0 and "journal.1" in pulled.stdout, pulled.stderr
    kept, journal = tmp_path / "pulled" / "journal.1", tmp_path / "pulled"
    assert (kept / "checkpoints.sbc").is_file() and list(kept.glob("*.sbj"))
    public = tmp_path / "element.pub"
    public.write_text(json.loads((tmp_path / "shoes.json").read_text())["shoes"][0]["public_key"])
    verified = sabot("log", "verify", kept, journal, "--public-key", public)
    said = verified.stdout
    assert verified.returncode == 1 and "S-FORCED" in said and "aucun reçu" not in said, said  # its end vouched
    assert "numéro du sabot 1 → 43 ; demandé sous la clé du casino %s…" % Key(bytes(range(32, 64))).id[:4].hex() \
        in said, said
    assert "commence au compteur" not in said and "begins at the element's counter" not in said, said
    points = (kept / "checkpoints.sbc").read_bytes()
    (kept / "checkpoints.sbc").write_bytes(points[:-116])  # the kept journal's last checkpoint gone: a gap
    gap = sabot("log", "verify", kept, journal, "--public-key", public, "--json")
    messages = [f["message"] for f in json.loads(gap.stdout)["findings"]]
    assert any("ends at counter" in m and "1 checkpoint(s) between them" in m for m in messages), messages
