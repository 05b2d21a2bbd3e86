"""pytest plugin for `make conformance`: records each test's requirement IDs (marker `req`) and its outcome, so
that sabot.conformance can say which requirement the suite shows to be met (docs/conformance.md).

Load it with `-p tests.conformance_plugin` and name the file with --conformance-json PATH (or the environment
variable SABOT_CONFORMANCE_JSON). It writes one JSON object, nodeid -> {"ids": [...], "outcome": ...}, where
the outcome is the test's worst phase: passed, xpassed, skipped, xfailed, failed, error, or "not run" when the
session stopped before it. Without a path it does nothing.

Under pytest-xdist (`make test` runs on every core) the controller writes the file: it sees every outcome, but
only the workers collect, so each worker sends the IDs of the tests it collected in its workeroutput.
"""

import json
import os
from pathlib import Path

import pytest

ENV = "SABOT_CONFORMANCE_JSON"
KEY = "sabot_conformance_ids"  # in an xdist worker's workeroutput
# Worse outcomes win: a test that passed its call and failed its teardown did not pass.
RANK = {"not run": 0, "passed": 1, "xpassed": 2, "skipped": 3, "xfailed": 3, "failed": 4, "error": 5}


def pytest_addoption(parser):
    parser.addoption("--conformance-json", metavar="PATH", default=os.environ.get(ENV),
                     help="write each test's requirement IDs and outcome to PATH (tests/conformance_plugin.py)")


def pytest_configure(config):
    path = config.getoption("conformance_json")
    if path:
        worker = hasattr(config, "workerinput")
        config.pluginmanager.register(Sender() if worker else Recorder(Path(path)), "sabot-conformance-recorder")


def requirement_ids(items):
    """Each test's requirement IDs, after -k, -m and deselection: the tests that will run."""
    return {item.nodeid: sorted({str(rid) for mark in item.iter_markers("req") for rid in mark.args})
            for item in items}


def outcome(report):
    """A phase's outcome, or None for a setup or teardown that went well (the call decides)."""
    if hasattr(report, "wasxfail"):
        return "xfailed" if report.skipped else "xpassed"
    if report.when == "call":
        return report.outcome
    if report.failed:
        return "error"
    return "skipped" if report.skipped else None


class Recorder:
    def __init__(self, path):
        self.path = path
        self.tests = {}

    def pytest_collection_finish(self, session):
        self.collected(requirement_ids(session.items))

    def collected(self, found):
        for nodeid, ids in found.items():
            self.tests.setdefault(nodeid, {"outcome": "not run"})["ids"] = ids

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        """A worker's collection (xdist): every worker collects every test; a worker lost in a crash sends none."""
        self.collected(getattr(node, "workeroutput", {}).get(KEY, {}))

    def pytest_collectreport(self, report):
        if report.failed:  # a module that cannot be imported: its tests cover nothing, and say so
            self.tests[report.nodeid or "<collection>"] = {"ids": [], "outcome": "error"}

    def pytest_runtest_logreport(self, report):
        entry = self.tests.setdefault(report.nodeid, {"ids": [], "outcome": "not run"})
        new = outcome(report)
        if new and RANK[new] >= RANK[entry["outcome"]]:
            entry["outcome"] = new

    def pytest_sessionfinish(self, session):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(self.tests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        partial.replace(self.path)


class Sender:
    """On an xdist worker: the IDs of what it collected, for the controller's Recorder."""

    def pytest_collection_finish(self, session):
        session.config.workeroutput[KEY] = requirement_ids(session.items)
