"""The conformance matrix: the catalogue's IDs, the plugin's record of a pytest run, and the verdict the target
exits with (`make conformance`, docs/conformance.md)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sabot import conformance
from sabot.rules import ARTICLES
from tests.conftest import ROOT

CATALOGUE = ROOT / "docs" / "requirements.md"
SHARED = ROOT.parent / "shared" / "REQUIREMENTS.md"
FAKE_CATALOGUE = """# Fake

## Some

| ID | Requirement |
|---|---|
| A-ONE | The first. It has two sentences. |
| A-TWO | The second, with a **bold** word. |
| A-THREE | The third. |
| A-FOUR | The fourth. |
"""


def run_renderer(tmp_path, results):
    (tmp_path / "requirements.md").write_text(FAKE_CATALOGUE, encoding="utf-8")
    (tmp_path / "results.json").write_text(json.dumps(results), encoding="utf-8")
    out = tmp_path / "conformance.md"
    status = conformance.main([str(tmp_path / "results.json"), "-o", str(out), "--requirements",
                               str(tmp_path / "requirements.md")])
    return status, out.read_text(encoding="utf-8") if out.exists() else None


def row(text, rid):
    return next(line for line in text.splitlines() if line.startswith("| %s |" % rid))


def test_an_id_without_a_passing_test_fails_the_matrix_and_is_named(tmp_path, capsys):
    status, text = run_renderer(tmp_path, {
        "tests/host/test_a.py::test_one[x]": {"ids": ["A-ONE"], "outcome": "passed"},
        "tests/host/test_a.py::test_one[y]": {"ids": ["A-ONE", "A-FOUR"], "outcome": "passed"},
        "tests/host/test_a.py::test_two": {"ids": ["A-TWO"], "outcome": "failed"},
        "tests/host/test_a.py::test_three": {"ids": ["A-THREE"], "outcome": "skipped"},
        "tests/host/test_a.py::test_four": {"ids": ["A-FOUR"], "outcome": "error"},
        "tests/host/test_a.py::test_none": {"ids": [], "outcome": "passed"},
    })
    err = capsys.readouterr().err
    assert status == 1
    assert "no passing test for: A-TWO, A-THREE" in err  # a failed or skipped test is no coverage
    assert "2 test(s) failed: tests/host/test_a.py::test_four, tests/host/test_a.py::test_two" in err
    assert row(text, "A-ONE") == "| A-ONE | The first. | 2 | pass | `test_a::test_one` |"
    assert "**NO PASSING TEST** (1 skipped)" in row(text, "A-THREE")
    assert "**FAIL** (1 failed)" in row(text, "A-TWO") and "The second, with a bold word." in row(text, "A-TWO")
    assert "**FAIL** (1 error, 1 passed)" in row(text, "A-FOUR")  # a requirement with a failing test is not met
    assert "NOT CONFORMANT**: 1 of 4 requirements met" in text and "1 tests cite no requirement." in text


def test_every_id_with_a_passing_test_passes_and_an_unknown_id_is_named(tmp_path, capsys):
    results = {"t.py::test_%d" % i: [[rid], "passed"] for i, rid in enumerate(("A-ONE", "A-TWO", "A-THREE",
                                                                                "A-FOUR"))}
    status, text = run_renderer(tmp_path, results)
    assert status == 0 and "**Every requirement is met**: 4 of 4 requirements met; 4 tests (4 passed)." in text
    assert "**NOT COVERED**" not in text
    results["t.py::test_typo"] = [["A-FIVE"], "passed"]
    status, text = run_renderer(tmp_path, results)
    assert status == 1 and "req markers cite IDs not in the catalogue: A-FIVE" in capsys.readouterr().err


def test_a_requirement_no_test_names_is_not_covered(tmp_path, capsys):
    status, text = run_renderer(tmp_path, {"t.py::test": {"ids": ["A-ONE"], "outcome": "passed"}})
    assert status == 1 and row(text, "A-TWO") == "| A-TWO | The second, with a bold word. | 0 | **NOT COVERED** | — |"
    assert "no passing test for: A-TWO, A-THREE, A-FOUR" in capsys.readouterr().err


def test_unreadable_results_exit_2(tmp_path):
    assert run_renderer(tmp_path, {})[0] == 2
    (tmp_path / "results.json").write_text("{not json", encoding="utf-8")
    assert conformance.main([str(tmp_path / "results.json"), "-o", str(tmp_path / "m.md"), "--requirements",
                             str(tmp_path / "requirements.md")]) == 2


def test_the_catalogue_holds_every_id_of_the_shared_requirements_and_the_tableau_ids():
    found = [rid for rid, _ in conformance.parse_requirements(CATALOGUE.read_text(encoding="utf-8"))]
    assert len(found) == len(set(found))
    assert {"T-CF", "T-DT"} <= set(found) and set(ARTICLES) <= set(found)
    if not SHARED.exists():
        pytest.skip("%s is outside this repository and absent here" % SHARED)
    shared = conformance.parse_requirements(SHARED.read_text(encoding="utf-8"))
    assert len(shared) >= 20 and {rid for rid, _ in shared} <= set(found)


PLUGGED = """
import pytest

pytestmark = pytest.mark.req("M-MODULE")

@pytest.mark.req("A-ONE")
def test_passes():
    pass

@pytest.mark.req("A-TWO")
def test_fails():
    assert False

@pytest.mark.req("A-THREE")
def test_skips():
    pytest.skip("no")

@pytest.mark.req("A-FOUR")
@pytest.mark.xfail(reason="known")
def test_xfails():
    assert False

@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("teardown")

@pytest.mark.req("A-FIVE")
def test_passes_then_errors(broken_teardown):
    pass

@pytest.mark.parametrize("n", [1, pytest.param(2, marks=pytest.mark.req("A-SIX"))])
def test_param(n):
    pass
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_the_plugin_records_each_tests_ids_and_worst_outcome(tmp_path, workers):
    """The same record from one process and from make test's workers (only xdist's workers collect)."""
    (tmp_path / "test_plugged.py").write_text(PLUGGED, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers = req(*ids): requirement IDs\n", encoding="utf-8")
    out = tmp_path / "build" / "results.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), SABOT_CONFORMANCE_JSON=str(out))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.conformance_plugin", "-p",
                          "no:cacheprovider", "-c", str(tmp_path / "pytest.ini"), *workers, str(tmp_path)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr  # a test failed
    got = {nodeid.split("::")[1]: (entry["ids"], entry["outcome"])
           for nodeid, entry in json.loads(out.read_text(encoding="utf-8")).items()}
    assert got == {
        "test_passes": (["A-ONE", "M-MODULE"], "passed"),
        "test_fails": (["A-TWO", "M-MODULE"], "failed"),
        "test_skips": (["A-THREE", "M-MODULE"], "skipped"),
        "test_xfails": (["A-FOUR", "M-MODULE"], "xfailed"),
        "test_passes_then_errors": (["A-FIVE", "M-MODULE"], "error"),
        "test_param[1]": (["M-MODULE"], "passed"),
        "test_param[2]": (["A-SIX", "M-MODULE"], "passed"),
    }
    assert not Path(str(out) + ".partial").exists()
