"""`make bench-check` (bench/check.py): the budgets of bench/budgets.json fail the check, naming themselves, when a
figure breaks them, whether the figure comes from a results file or from a firmware measured now."""

import json
import shutil
import subprocess

import pytest

from bench import callgrind, check, run, vmrun
from tests.conftest import ROOT

BUDGETS = check.load()


def _kept(budget):
    """A value inside the budget."""
    if "equals" in budget:
        return budget["equals"]
    return budget["max"] / 2 if "max" in budget else budget["min"] * 2


def _results(tmp_path, changes=None):
    """A results file holding every budgeted figure inside its budget, but for `changes` ({name: value, or None to
    leave the figure out})."""
    figures = {name: {"value": _kept(budget), "unit": "", "method": "test", "deterministic": True}
               for name, budget in BUDGETS.items()}
    for name, value in (changes or {}).items():
        if value is None:
            del figures[name]
        else:
            figures[name]["value"] = value
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"figures": figures}))
    return path


def _check(capsys, *args):
    status = check.main([str(a) for a in args])
    return status, capsys.readouterr().out


@pytest.mark.req("H-SIM")
def test_figures_inside_every_budget_pass_the_check(tmp_path, capsys):
    status, out = _check(capsys, "--results", _results(tmp_path))
    assert status == 0, out
    checked = [name for name, budget in BUDGETS.items() if budget["group"] in run.CHECKED]  # the pico group: its own
    assert out.count("\nok ") + out.startswith("ok ") == len(checked)


@pytest.mark.parametrize("name,value", [
    pytest.param("heap_per_card.controller_step", 16, marks=pytest.mark.req("S-ONE", "H-SIM"), id="card-path-heap"),
    pytest.param("heap.whole_shoe_in_budget", False, marks=pytest.mark.req("H-SIM"), id="budgeted-heap"),
    pytest.param("uptime_heap.micropython32.10y.decide_per_card", 32, marks=pytest.mark.req("S-ONE", "H-SIM"),
                 id="32-bit-card-path-heap-at-ten-years"),
    pytest.param("uptime_heap.micropython32.13d.loop_pass", 16, marks=pytest.mark.req("H-SIM"), id="32-bit-idle-pass"),
    pytest.param("recovery.ratio_long_to_short", 2.5, marks=pytest.mark.req("J-DURABLE"), id="recovery-ratio"),
    pytest.param("instructions_per_card.controller", 10**6, marks=pytest.mark.req("H-SIM"), id="instructions"),
])
def test_a_figure_over_its_budget_fails_the_check_naming_the_budget(tmp_path, capsys, name, value):
    status, out = _check(capsys, "--results", _results(tmp_path, {name: value}))
    assert status == 1
    broken = [line for line in out.splitlines() if line.startswith("BROKEN")]
    assert len(broken) == 1 and broken[0].startswith("BROKEN  %s " % name), out
    assert "1 budget(s) broken: %s" % name in out


@pytest.mark.req("H-SIM")
def test_a_tighter_budget_file_fails_the_same_figures(tmp_path, capsys):
    budgets = json.loads((ROOT / "bench" / "budgets.json").read_text())
    budgets["budgets"]["size.mpy_bytes.{board}"]["max"] = 1000  # every hardware board's
    (tmp_path / "budgets.json").write_text(json.dumps(budgets))
    status, out = _check(capsys, "--results", _results(tmp_path, {"size.mpy_bytes.esp32": 25000}),
                         "--budgets", tmp_path / "budgets.json")
    assert status == 1 and "BROKEN  size.mpy_bytes.esp32 is 25,000, over the budget's 1,000" in out


@pytest.mark.req("H-SIM")
def test_a_budgeted_figure_missing_fails_and_one_skipped_for_want_of_valgrind_is_said(tmp_path, capsys):
    path = _results(tmp_path, {"wear.erases_per_card": None})
    data = json.loads(path.read_text())
    data["figures"]["gate.instructions.handler_bare"] = {"value": None, "unit": "", "method": "skipped",
                                                         "deterministic": True, "skipped": "no valgrind"}
    path.write_text(json.dumps(data))
    status, out = _check(capsys, "--results", path)
    assert status == 1
    assert "BROKEN  wear.erases_per_card no such figure in the results" in out
    assert "SKIPPED gate.instructions.handler_bare: no valgrind" in out
    assert "1 budget(s) broken: wear.erases_per_card" in out


@pytest.mark.req("S-ONE", "H-SIM")
def test_a_firmware_that_allocates_on_the_card_path_fails_the_check(mpy_build, tmp_path, capsys):
    """The heap figures measured now on a copy of the build whose Controller.step makes a list each event."""
    patched = tmp_path / "mpy"
    shutil.copytree(mpy_build, patched)
    source = (ROOT / "firmware" / "controller.py").read_text()
    step = "    def step(self, event, arg, now):\n"
    leaky = source.replace(step, step + "        [event]  # a list: one allocation per event\n", 1)
    assert leaky != source
    (tmp_path / "controller.py").write_text(leaky)
    subprocess.run([str(vmrun.BIN / "mpy-cross"), "-s", "firmware/controller.py", "-o",
                    str(patched / "firmware" / "controller.mpy"), str(tmp_path / "controller.py")], check=True)
    status, out = _check(capsys, "--only", "heap", "--build", patched)
    assert status == 1, out
    named = out.splitlines()[-1]
    assert "heap_per_card.controller_step" in named and "heap_per_card.shell_decide" in named
    assert "heap_lock.whole_shoe" in named


@pytest.mark.req("S-ONE", "H-SIM")
def test_the_firmware_keeps_its_heap_size_and_wear_budgets(mpy_build, capsys):
    """The quick groups measured now on the real build (`make bench-check` measures the rest, under callgrind)."""
    status, out = _check(capsys, "--only", "heap,size,wear")
    assert status == 0, out


@pytest.mark.req("H-SIM")
def test_valgrind_is_installed_with_apt_get_when_missing(monkeypatch):
    ran = []
    installed = []

    def which(name):
        return "/usr/bin/" + name if name != "valgrind" or installed else None

    def run(command, **kwargs):
        ran.append(command)
        installed.extend(command[-1:] if "install" in command else [])
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(callgrind.shutil, "which", which)
    monkeypatch.setattr(callgrind.subprocess, "run", run)
    monkeypatch.setattr(callgrind.os, "geteuid", lambda: 0)
    assert callgrind._find_or_install() == (True, "")
    assert ran == [["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "valgrind"]]

    def failing(command, **kwargs):
        return subprocess.CompletedProcess(command, 100, "", "E: Unable to locate package valgrind")

    installed.clear()
    monkeypatch.setattr(callgrind.subprocess, "run", failing)
    ok, why = callgrind._find_or_install()
    assert not ok and "could not install valgrind" in why and "Unable to locate" in why
