"""`sabot fleet ingest` and `export` as a casino runs them: idempotent, a journal that fails verification refused
with its finding and nothing of it written, bad input one line and exit 2 with the database unchanged (F-INGEST)."""

import io
import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from firmware import layout
from firmware.checkpoints import ElementKey
from firmware.format import checkpoint as cp
from firmware.receipt import receipt
from sabot import checkpoints, receipts
from sabot.fleet import ingest, store, synth
from sabot.journalfile import load_segments
from sabot.verify import read_key, verify
from tests.core.req import covers
from tests.host.fleet_common import journals_of

SABOT = str(Path(sys.executable).parent / "sabot")


def sabot(*args):
    return subprocess.run([SABOT, "fleet", *map(str, args)], capture_output=True, text=True, timeout=300)


def counts(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return tuple(con.execute("SELECT COUNT(*) FROM %s" % t).fetchone()[0]
                     for t in ("records", "segments", "journal_findings"))
    finally:
        con.close()


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    root = tmp_path_factory.mktemp("fleet") / "journals"
    plan = synth.generate(root, 3, 12)
    casino = next(iter(plan["casinos"]))
    return journals_of(root, casino), casino, root / casino / "shoes.json"


@covers("F-INGEST")
def test_the_same_segments_twice_add_nothing_and_a_grown_journal_adds_only_its_new_records(journals, tmp_path):
    folders, casino, registry = journals
    db = tmp_path / "casino.duckdb"
    first = sabot("ingest", *folders[:-1], "--db", db, "--casino", casino, "--registry", registry)
    assert first.returncode == 0, first.stderr
    assert "enregistrement(s) ajouté(s)" in first.stdout and "added" not in first.stdout  # French, as fleet check
    once = counts(db)
    again = sabot("ingest", *folders[:-1], "--db", db, "--casino", casino, "--registry", registry)
    assert again.returncode == 0 and counts(db) == once
    assert "already in the database" in again.stdout
    # The last journal, first without its last segment, then whole: only the new segment's records are added.
    partial = tmp_path / "partial"
    shutil.copytree(folders[-1], partial)
    segments = sorted(partial.glob("*.sbj"))
    segments[-1].unlink()
    signed_at_its_end(partial, casino)
    assert sabot("ingest", partial, "--db", db, "--casino", casino, "--registry", registry).returncode == 0
    grown = sabot("ingest", folders[-1], "--db", db, "--casino", casino, "--registry", registry)
    assert grown.returncode == 0, grown.stderr
    con = duckdb.connect(str(db), read_only=True)
    sabot_number = int(folders[-1].name.split("-")[1])
    seqs = [r[0] for r in con.execute("SELECT seq FROM records WHERE sabot = ? ORDER BY seq",
                                      [sabot_number]).fetchall()]
    con.close()
    assert seqs == list(range(1, len(seqs) + 1))  # every record once, none twice


def signed_at_its_end(folder, casino):
    """What a pull of the shoe would have fetched when its journal ended where the folder's does: the checkpoints up
    to that end, and the receipt its element signs there at the counter of the last one."""
    last = load_segments([folder])[-1]
    end = last.seq_before + (len(last.data) - layout.HEADER_SIZE) // layout.FRAME_SIZE
    points = (folder / cp.FILE).read_bytes()
    kept = [points[i:i + cp.SIZE] for i in range(0, len(points), cp.SIZE)
            if struct.unpack_from(cp.ENTRY, points, i)[5] <= end]
    (folder / cp.FILE).write_bytes(b"".join(kept))
    element = synth.Element(synth.key_of(3, casino, last.sabot))
    element._counters[0] = struct.unpack_from(cp.ENTRY, kept[-1])[3]
    head = type("Head", (), {"sabot": last.sabot, "segment": last.number, "seq": end,
                             "chain": receipts.chain_at(last, end), "key": ElementKey(element.public)})
    points = type("Points", (), {"element": element, "chip": element.attestation()})
    (folder / receipts.NAME).write_text(receipt(head, bytes(32), points) + "\n")


@covers("F-INGEST")
def test_a_journal_that_fails_verification_is_refused_with_its_finding_and_adds_nothing(journals, tmp_path):
    folders, casino, registry = journals
    db = tmp_path / "casino.duckdb"
    assert sabot("ingest", folders[0], "--db", db, "--casino", casino, "--registry", registry).returncode == 0
    before = counts(db)
    tampered = tmp_path / "tampered"
    shutil.copytree(folders[2], tampered)
    segment = sorted(tampered.glob("*.sbj"))[1]  # the first séance: the first segment holds the boot
    data = bytearray(segment.read_bytes())
    data[layout.HEADER_SIZE + layout.FRAME_SIZE * 3 + 21] ^= 1  # a card's byte in its fourth record (séance, load,
    # release, card)
    segment.write_bytes(bytes(data))
    run = sabot("ingest", tampered, "--db", db, "--casino", casino, "--registry", registry)
    assert run.returncode == 1
    assert "refused, integrity broken" in run.stderr and "altered" in run.stderr
    assert counts(db) == before


@covers("F-INGEST")
def test_bad_input_is_one_line_and_exit_2_with_nothing_written(journals, tmp_path):
    folders, casino, registry = journals
    db = tmp_path / "casino.duckdb"
    assert sabot("ingest", folders[0], "--db", db, "--casino", casino, "--registry", registry).returncode == 0
    before = counts(db)
    other = tmp_path / "other"
    other.mkdir()
    (other / "00000001.sbj").write_bytes(b"PK\x03\x04 a zip, not a journal")
    run = sabot("ingest", folders[1], other, "--db", db, "--casino", casino, "--registry", registry)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "not a sabot journal" in run.stderr
    assert counts(db) == before
    con = duckdb.connect(str(db))
    con.execute("UPDATE fleet_meta SET value = '2' WHERE name = 'schema_version'")
    con.close()
    newer = sabot("ingest", folders[1], "--db", db, "--casino", casino, "--registry", registry)
    assert newer.returncode == 2 and len(newer.stderr.strip().splitlines()) == 1
    assert "schema version 2" in newer.stderr
    assert counts(db) == before
    not_db = tmp_path / "notes.txt"
    not_db.write_text("not a database\n")
    run = sabot("check", "--db", not_db)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1


@covers("F-INGEST")
def test_export_writes_partitions_by_casino_and_month_and_a_missing_one_is_refused(journals, tmp_path):
    folders, casino, registry = journals
    db = tmp_path / "casino.duckdb"
    assert sabot("ingest", *folders, "--db", db, "--casino", casino, "--registry", registry).returncode == 0
    out = tmp_path / "parquet"
    run = sabot("export", "--db", db, "--parquet", out)
    assert run.returncode == 0, run.stderr
    months = sorted(p.name for p in (out / "records" / ("casino=%s" % casino)).iterdir())
    assert months == ["month=2026-01", "month=2026-02"]
    assert sabot("export", "--db", db, "--parquet", out).returncode == 2  # never over an export without --force
    checked = sabot("check", "--parquet", out, "--json")
    assert checked.returncode == 1, checked.stderr  # the planted anomalies of the first casino
    result = json.loads(checked.stdout)
    assert {f["id"] for f in result["findings"]} >= {"F-ASSIGN", "F-INVENTORY"}
    assert [(s["casino"], s["sabot"]) for s in result["inventory"]] == [
        (casino, int(f.name.split("-")[1])) for f in folders]  # the carnet: every sabot
    shutil.rmtree(out / "records" / ("casino=%s" % casino) / "month=2026-02")
    run = sabot("check", "--parquet", out)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "partition missing" in run.stderr and "month=2026-02" in run.stderr


@covers("F-INGEST")
def test_a_journal_that_fails_midway_through_its_transaction_leaves_nothing_of_it(journals, tmp_path, monkeypatch):
    """The sabot always at table 1 has a finding of its own verification (S-IDENT), written after its records in
    the same transaction: made to fail there, none of its records stays."""
    folders, casino, registry = journals
    db = tmp_path / "casino.duckdb"
    assert sabot("ingest", folders[1], "--db", db, "--casino", casino, "--registry", registry).returncode == 0
    before = counts(db)
    con = store.open_database(db)
    monkeypatch.setattr(ingest, "ARTICLES", {})
    segments = load_segments([folders[0]])
    with pytest.raises(KeyError):
        ingest.ingest_journal(con, casino, segments, read_key(None), receipts.found_in([folders[0]]), [folders[0]],
                              checkpoints.registry_keys(str(registry), 1))
    con.close()
    assert counts(db) == before


@covers("F-INGEST")
def test_a_journal_whose_receipt_fails_or_that_has_none_is_refused_and_the_others_still_go_in(journals, tmp_path):
    """What `sabot log verify` does not call intact (a receipt that does not verify), and a journal whose end no
    receipt vouches for, are refused, one line each, exit 1; the journal beside them is ingested."""
    folders, casino, registry = journals
    forged, unsigned = tmp_path / "forged", tmp_path / "unsigned"
    shutil.copytree(folders[1], forged)
    shutil.copytree(folders[2], unsigned)
    fields = json.loads((forged / receipts.NAME).read_text())
    fields["signature"] = "00" * 64
    (forged / receipts.NAME).write_text(json.dumps(fields))
    (unsigned / receipts.NAME).unlink()
    db = tmp_path / "casino.duckdb"
    run = sabot("ingest", folders[0], forged, unsigned, "--db", db, "--casino", casino, "--registry", registry)
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 2, run.stderr
    assert str(forged) in lines[0] and "refused, integrity broken" in lines[0]
    assert "is not signed by the shoe's element: forged or altered" in lines[0]
    assert str(unsigned) in lines[1] and "refused, no receipt.json" in lines[1]
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT DISTINCT sabot FROM records").fetchall() == [(1,)]
    assert con.execute("SELECT COUNT(receipt) FROM segments").fetchone()[0] > 0
    con.close()


@covers("F-INGEST")
def test_a_casino_name_that_could_reach_outside_a_folder_is_refused_at_ingest_and_at_export(journals, tmp_path):
    folders, casino, registry = journals
    db = tmp_path / "casino.duckdb"
    for name in ("../../x", "a/b", ".", ""):
        run = sabot("ingest", folders[0], "--db", db, "--casino", name, "--registry", registry)
        assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert "casino name" in run.stderr
        assert not db.exists()
    assert sabot("ingest", folders[0], "--db", db, "--casino", casino, "--registry", registry).returncode == 0
    con = duckdb.connect(str(db))  # a database an older sabot filled without the check
    for table in ("records", "segments", "journal_findings"):
        con.execute("UPDATE %s SET casino = 'a/b'" % table)
    con.close()
    run = sabot("export", "--db", db, "--parquet", tmp_path / "parquet")
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1 and "'a/b'" in run.stderr
    assert not (tmp_path / "parquet" / "records").exists()


@covers("F-INGEST", "H-VERIFY")
def test_a_synthetic_sabots_journal_is_one_a_shoe_writes_verify_finds_nothing_but_the_planted(journals):
    """The firmware writes the synthetic journals (the sim board): signed by each sabot's element, with its receipt,
    `sabot log verify` with the casino's registry finds nothing in a clean one, and in the sabot planted at one table
    only that (S-IDENT)."""
    folders, _, registry = journals
    for folder in folders:
        out = io.StringIO()
        status = verify([str(folder)], None, True, out=out, registry=str(registry))
        result = json.loads(out.getvalue())
        assert result["intact"] and result["key"] == "provided"
        found = [f["id"] for f in result["findings"]]
        assert (status, found) == ((1, ["S-IDENT"]) if folder.name == "sabot-0001" else (0, [])), (folder, found)


@covers("F-INGEST")
def test_the_readmes_fleet_commands_run_as_they_are_in_a_synthetic_casinos_folder(journals, tmp_path):
    folders, casino, _ = journals
    here = tmp_path / casino
    shutil.copytree(folders[0].parent.parent, here)
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("## Fleet"):].split("```")[1]
    commands = [line.split("#")[0] for line in block.splitlines() if line.startswith("sabot fleet")]
    assert [c.split()[2] for c in commands] == ["ingest", "check", "report", "export"]
    path = {"PATH": "%s:%s" % (Path(SABOT).parent, os.environ["PATH"])}
    for command in commands:  # by a shell, as a person types them: journals/sabot-* is the shell's
        run = subprocess.run(command, shell=True, cwd=here, env=dict(os.environ, **path), capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == (1 if " check " in command else 0), (command, run.stderr)
    assert (here / "pages" / "deauville.html").exists() and (here / "export" / "fleet-manifest.json").exists()


@pytest.mark.req("F-INGEST", "F-ASSIGN", "F-REPEAT")
def test_a_casino_name_mistyped_for_a_sabot_already_in_another_casino_is_refused_with_nothing_written(
        journals, tmp_path):
    """Issue 40, finding 6: `--casino deauvile` for deauville's shoes would copy them into a phantom casino, and
    its copies raise F-REPEAT and F-ASSIGN findings no casino has."""
    folders, casino, registry = journals
    db = tmp_path / "casino.duckdb"
    assert sabot("ingest", folders[0], "--db", db, "--casino", casino, "--registry", registry).returncode == 0
    once, before = counts(db), db.read_bytes()
    typo = sabot("ingest", *folders[:2], "--db", db, "--casino", casino[:-1], "--registry", registry)
    assert typo.returncode == 2 and typo.stdout == "" and typo.stderr.count("\n") == 1, typo.stderr
    assert "faute de frappe" in typo.stderr and "« %s »" % casino in typo.stderr and "--new-casino" in typo.stderr
    assert counts(db) == once and db.read_bytes() == before
    new = sabot("ingest", folders[1], "--db", db, "--casino", "nouveau", "--registry", registry)
    assert new.returncode == 0, new.stderr  # a sabot the database does not hold: a new casino's, as before
    meant = sabot("ingest", folders[0], "--db", db, "--casino", casino[:-1], "--registry", registry, "--new-casino")
    assert meant.returncode == 0, meant.stderr


@covers("F-INGEST")
def test_a_database_another_program_holds_is_said_as_such_not_as_a_file_that_is_no_database(tmp_path):
    """The casino's database while `sabot pit follow` (here a process that keeps it open) holds it: `sabot fleet
    check` says in one line that another program has it open, and which, exit 2; not "not a DuckDB database"."""
    db = tmp_path / "casino.duckdb"
    store.open_database(db).close()
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys\ncon = duckdb.connect(sys.argv[1])\n"
                               "print('open', flush=True)\nsys.stdin.read()", str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n"
        held = sabot("check", "--db", db)
    finally:
        holder.communicate("")
    assert held.returncode == 2 and held.stdout == "", held.stdout
    assert held.stderr.count("\n") == 1 and "is open in another program" in held.stderr, held.stderr
    assert "(PID %d)" % holder.pid in held.stderr and "not a DuckDB database" not in held.stderr
    assert sabot("check", "--db", db).returncode in (0, 1)  # let go: checked
