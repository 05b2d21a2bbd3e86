"""Docs that cannot drift: every repository path the README, docs/ and tests/README.md name exists, and the
README's benchmark table is the one bench/results.json gives (bench/readme.py)."""

import json
import re

import pytest

from bench import readme
from tests.conftest import ROOT

DOCS = sorted([ROOT / "README.md", ROOT / "tests" / "README.md"] + list((ROOT / "docs").glob("*.md"))
              + list((ROOT / "boards").glob("*/README.md")))
_TOP = ("firmware", "boards", "host_tools", "tests", "docs", "bench", "tools", "typecheck", ".ci")
# A path the docs name: in backquotes or a Markdown link, starting at one of the repository's top folders (or
# relative to tests/ in tests/README.md), without placeholders (<board>, *, {...}, N, VERSION).
_CODE = re.compile(r"`([^`\s]+)`|\]\(([^)\s#]+)")
_PLACEHOLDER = re.compile(r"[<>*{}]|\bN\b|VERSION|BOARD|NAME|\.\.\.")


def named_paths(doc):
    text = doc.read_text()
    for match in _CODE.finditer(text):
        token = (match.group(1) or match.group(2)).rstrip(".,:;)")
        token = token.split("::")[0]  # a test's node id names its file
        if _PLACEHOLDER.search(token) or "://" in token:
            continue
        yield token


def resolves(doc, token):
    """The path, or the source a built file (.mpy) or a dotted name (`firmware/startup.make_shell`) comes from."""
    candidates = [ROOT / token, doc.parent / token, ROOT / (token.rsplit(".", 1)[0] + ".py")]
    if doc == ROOT / "tests" / "README.md":
        candidates.append(ROOT / "tests" / token)
    return any(p.exists() for p in candidates)


def is_repository_path(doc, token):
    """A path in the clone: the shoe's own files (`/config.json`) and build outputs are not."""
    if token.startswith("/"):
        return False
    first = token.split("/")[0]
    if first in _TOP and "/" in token:
        return True
    return doc.parent != ROOT and "/" in token and (doc.parent / first).exists()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_repository_path_a_doc_names_exists(doc):
    missing = sorted({t for t in named_paths(doc) if is_repository_path(doc, t) and not resolves(doc, t)})
    assert not missing, "%s names paths that do not exist: %s" % (doc.relative_to(ROOT), ", ".join(missing))


def test_a_doc_naming_a_file_that_is_gone_is_caught(tmp_path):
    doc = tmp_path / "README.md"
    doc.write_text("See `firmware/no_such_module.py` and `firmware/controller.py`.\n")
    missing = [t for t in named_paths(doc) if is_repository_path(doc, t) and not resolves(doc, t)]
    assert missing == ["firmware/no_such_module.py"]


def test_the_readme_benchmark_table_is_bench_results_json():
    results = json.loads(readme.RESULTS.read_text())
    text = readme.README.read_text()
    assert readme.START in text, "README.md lost its bench-table markers"
    assert readme.rewritten(text, results) == text, "README's benchmark table differs: run python -m bench.readme"


def test_a_figure_changed_in_the_results_changes_the_readme_table():
    results = json.loads(readme.RESULTS.read_text())
    text = readme.README.read_text()
    results["figures"]["heap.smallest_kb"]["value"] = 999
    assert "| 999 |" in readme.rewritten(text, results)


def test_the_readme_puts_sabot_on_path_once_then_writes_every_command_as_sabot():
    """README.md's first two commands are make sim and make test; the venv's activation comes right after them,
    once; then every command is `sabot ...` (no `.venv/bin/sabot` in the README or docs/: a technician types what
    is written)."""
    text = (ROOT / "README.md").read_text()
    commands = [line.split("#")[0].strip() for block in re.findall(r"```\n(.*?)```", text, re.S)
                for line in block.splitlines() if line.strip() and not line.startswith(" ")]
    assert commands[:3] == ["make sim", "make test", "source .venv/bin/activate"]
    assert commands.count("source .venv/bin/activate") == 1
    for doc in DOCS:
        assert ".venv/bin/sabot" not in doc.read_text(), "%s: write `sabot` (the README activates the venv once)" % (
            doc.relative_to(ROOT))
