"""Shared fixtures: the repository, the mpy build and the MicroPython VMs (sabot/vms.py)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sabot import vms
from tests.parallel import one_worker_at_a_time

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "boards" / "sim" / "scenarios"
VMS = tuple(vms.NAMES)  # a test parametrized by `vm` runs on each; its id starts with the VM's name
_VM_ID = re.compile(r"\[(%s)[-\]]" % "|".join(sorted(VMS, key=len, reverse=True)))


def pytest_configure(config):
    """Cython compiles firmware/tableau.py, sabot/tableau_oracle.py and each module of sabot/rules/ with a .pxd in
    place (setup.py): a build older than its sources would test yesterday's code while the sources say otherwise."""
    import importlib

    import firmware.tableau
    import sabot.rules
    import sabot.tableau_oracle

    rules = Path(sabot.rules.__file__).parent
    for module in [firmware.tableau, sabot.tableau_oracle] + [importlib.import_module("sabot.rules." + pxd.stem)
                                                               for pxd in sorted(rules.glob("*.pxd"))]:
        built = Path(module.__file__)
        if built.suffix == ".so":
            sources = [built.parent / (built.name.split(".")[0] + suffix) for suffix in (".py", ".pxd")]
            if max(p.stat().st_mtime for p in sources) > built.stat().st_mtime:
                pytest.exit("%s is older than its sources: run `make setup` (or `make test`)" % built, returncode=2)


@pytest.fixture(scope="session")
def mpy_build():
    """build/sim as `make mpy` leaves it: the firmware as a device loads it."""
    with one_worker_at_a_time("mpy"):
        subprocess.run(["make", "-s", "-C", str(ROOT), "mpy"], check=True, capture_output=True)
    return ROOT / "build" / "sim"


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`make test`'s workers take the units of tests/parallel.py: a module's fixtures made once, the longest first."""
    if config.getvalue("dist") in ("load", "loadscope"):
        from tests.parallel import Scheduling

        return Scheduling(config, log)
    return None


def patched_build(mpy_build, tmp_path, module, old, new):
    """A copy of the build whose firmware/<module>.py has `old` replaced by `new`, loaded from its source: a
    broken firmware that a check must catch, or the check proves nothing."""
    source = (ROOT / "firmware" / (module + ".py")).read_text()
    changed = source.replace(old, new)
    assert changed != source, "%s.py no longer holds %r" % (module, old)
    patched = tmp_path / "mpy"
    shutil.copytree(mpy_build, patched)
    (patched / "firmware" / (module + ".mpy")).unlink()
    (patched / "firmware" / (module + ".py")).write_text(changed)
    return patched


def micropython(args, path, cwd, heapsize=None, vm="micropython"):
    """Run a MicroPython VM with only `path` to import from (cwd must not hold the sources)."""
    command = vms.command(vm) + (["-X", "heapsize=%s" % heapsize] if heapsize else []) + list(args)
    return subprocess.run(command, cwd=cwd, env={"MICROPYPATH": path, "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=600)


def pytest_terminal_summary(terminalreporter):
    """Each VM's count of the tests that ran on it, so that a run shows both VMs were exercised."""
    counts = {}
    for outcome in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(outcome, ()):
            found = _VM_ID.search(getattr(report, "nodeid", ""))
            if found and report.when in ("call", "setup") and not (outcome == "passed" and report.when == "setup"):
                counts.setdefault(found.group(1), {}).setdefault(outcome, 0)
                counts[found.group(1)][outcome] += 1
    for vm in VMS:
        if vm in counts:
            shown = ", ".join("%d %s" % (n, outcome) for outcome, n in sorted(counts[vm].items()))
            terminalreporter.write_line("%s: %s (%s)" % (vm, shown, vms.NAMES[vm]))
