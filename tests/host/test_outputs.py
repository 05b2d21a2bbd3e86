"""One --force rule for every command that writes its own output (sabot/outputs.py): `report`, `cagnotte carnet`,
`ouverte declaration`, `fleet report` and `fleet export` refuse what is already there without --force (exit 2, one
line naming --force, nothing touched) and replace it with it; a rerun of `report` no longer replaces silently."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SCENARIOS
from tests.host.fleet_common import fleet

SABOT = str(Path(sys.executable).parent / "sabot")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("outputs")
    log = tmp / "journal"
    subprocess.run([SABOT, "sim", str(SCENARIOS / "deux_tableaux_ouverte.txt"), "--log", str(log), "--quiet"],
                   check=True, capture_output=True)
    ledger = tmp / "ledger.csv"
    ledger.write_text("seance,taille,coup,stake_1,stake_2,levy,tickets\n1,1,1,10,20,0.40,0.2x2\n")
    _, db = fleet(tmp, 3, 4, anomalies=False, days=2)
    return log, ledger, db


def commands(log, ledger, db, out):
    dev = "--allow-development-key"
    return {
        "report": (["report", log, "-o", out / "report.html", dev], out / "report.html"),
        "carnet": (["cagnotte", "carnet", log, "--ledger", ledger, "-o", out / "carnet.html", dev],
                   out / "carnet.html"),
        "declaration": (["ouverte", "declaration", log, "-o", out / "declaration.txt", dev],
                        out / "declaration.txt"),
        "fleet report": (["fleet", "report", "--db", db, "--out", out / "pages"], out / "pages" / "index.html"),
        "fleet export": (["fleet", "export", "--db", db, "--parquet", out / "export"],
                         out / "export" / "fleet-manifest.json"),
    }


def sabot(*args):
    return subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=300)


@pytest.mark.req("H-EXPORT")
@pytest.mark.parametrize("command", ["report", "carnet", "declaration", "fleet report", "fleet export"])
def test_an_existing_output_is_refused_without_force_and_replaced_with_it(inputs, tmp_path, command):
    args, written = commands(*inputs, tmp_path)[command]
    first = sabot(*args)
    assert first.returncode != 2 and written.exists(), first.stderr
    os.utime(written, (1, 1))  # a mark: replaced or not
    again = sabot(*args)
    assert again.returncode == 2 and again.stdout == "", again.stdout
    assert len(again.stderr.splitlines()) == 1 and "--force" in again.stderr, again.stderr
    assert written.stat().st_mtime == 1  # nothing touched
    forced = sabot(*args, "--force")
    assert forced.returncode == first.returncode, forced.stderr
    assert written.stat().st_mtime > 1
