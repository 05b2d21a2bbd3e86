"""The README's technician path from a clone with nothing beside it (issue 40): a fresh `git clone`, no shared folder
next to it, its own venv and node_modules (`make setup`), the Pico's image built from MicroPython's sources fetched
from a URL (a file:// URL standing in for the public release, checked against its SHA-256: no internet here), then the
README's commissioning blocks run literally on the virtual board and on the emulated Pico by the clone's own tests
(tests/host/test_commissioning.py, tests/host/test_pico_production.py). Not in `make test` (it builds everything
again: some ten minutes): `make test-clone`."""

import hashlib
import os
import subprocess

import pytest

from tests.conftest import ROOT
from tests.host.test_make_sources import BUNDLE, BUNDLE_NAME, needs_bundle

pytestmark = pytest.mark.clone


def run(clone, *command):
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "MAKEFLAGS", "MAKELEVEL")}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if not p.startswith(str(ROOT)))
    done = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True)
    assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
    return done


@needs_bundle
@pytest.mark.req("H-FIRMWARE", "H-VERIFY", "S-IDENT", "P-ENROL", "P-NOREPL", "P-FROZEN")
def test_the_readmes_commissioning_runs_on_both_boards_from_a_clone_with_nothing_beside_it(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    assert not any((p / "shared").exists() for p in (tmp_path, tmp_path.parent))
    run(clone, "make", "--no-print-directory", "setup")
    sha = hashlib.sha256(BUNDLE.read_bytes()).hexdigest()
    built = run(clone, "make", "--no-print-directory", "image", "BOARD=rpi_pico", "MP_URL=file://%s" % BUNDLE,
                "MP_URL_SHA256=" + sha)
    assert ("no offline copy in ../shared/third_party (THIRD_PARTY); downloading file://%s (MP_URL) into "
            "build/downloads/%s" % (BUNDLE, BUNDLE_NAME)) in built.stdout
    assert (clone / "build" / "rpi_pico-image" / "firmware.uf2").is_file()
    tests = run(clone, str(clone / ".venv" / "bin" / "python"), "-m", "pytest", "-p", "no:cacheprovider", "-n", "2",
                "tests/host/test_commissioning.py", "tests/host/test_pico_production.py")
    assert " passed" in tests.stdout and "failed" not in tests.stdout and "skipped" not in tests.stdout, tests.stdout
