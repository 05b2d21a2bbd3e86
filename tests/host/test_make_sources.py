"""The Pico image's MicroPython sources from a clone with no shared folder beside it (Makefile, `MP_URL`): the
release downloaded and checked against its SHA-256, here from a file:// URL standing in for the public one (no
internet); a wrong checksum refused in one line; the offline copy beside the clone taken first; a tree extracted once
not extracted again for want of a tarball that is gone."""

import hashlib
import shutil
import subprocess

import pytest

from tests.conftest import ROOT

BUNDLE_NAME = "micropython-1.28.0-rp2-src.tar.gz"
# Where the Makefile looks for the offline copy (THIRD_PARTY): the shared folder beside the clone or a worktree's.
BUNDLES = [p / "shared" / "third_party" / BUNDLE_NAME for p in (ROOT.parent, ROOT.parent.parent)]
BUNDLE = next((p for p in BUNDLES if p.exists()), None)
EXTRACTED = "build/src/micropython-1.28.0/.extracted"
PUBLIC_URL = "https://github.com/micropython/micropython/releases/download/v1.28.0/micropython-1.28.0.tar.xz"

needs_bundle = pytest.mark.skipif(BUNDLE is None, reason="no offline MicroPython tarball to stand in for the release")


@pytest.fixture
def clone(tmp_path):
    """A clone of the repository with nothing beside it, its Makefile and patch the working tree's."""
    target = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)
    for name in ("Makefile", "tools/pico/patch_rp2_float.py"):
        shutil.copy(ROOT / name, target / name)
    assert not (tmp_path / "shared").exists() and not (tmp_path.parent / "shared").exists()
    return target


def make(clone, *args):
    return subprocess.run(["make", "--no-print-directory", *args], cwd=clone, capture_output=True, text=True)


def test_make_test_and_make_image_find_their_sources_in_a_clone_with_nothing_beside_it(clone):
    for target in (["test"], ["image", "BOARD=rpi_pico"]):
        run = make(clone, "-n", *target)  # -n still runs the sub-makes, which stop at the tree not yet extracted
        assert "No rule to make target" not in run.stderr
        assert "no offline copy in ../shared/third_party" in run.stdout
        assert PUBLIC_URL in run.stdout and "curl --fail" in run.stdout
    run = make(clone, "-n", EXTRACTED)
    assert run.returncode == 0, run.stderr
    assert PUBLIC_URL in run.stdout and "curl --fail" in run.stdout and "tar xf" in run.stdout


@needs_bundle
def test_the_sources_are_downloaded_checked_and_extracted_once(clone):
    url, sha = "file://%s" % BUNDLE, hashlib.sha256(BUNDLE.read_bytes()).hexdigest()
    run = make(clone, EXTRACTED, "MP_URL=" + url, "MP_URL_SHA256=" + sha)
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stdout.splitlines() if line.startswith("== MicroPython")]
    assert said == ["== MicroPython 1.28.0's sources: no offline copy in ../shared/third_party (THIRD_PARTY); "
                    "downloading %s (MP_URL) into build/downloads/%s, SHA-256 %s" % (url, BUNDLE_NAME, sha)]
    assert (clone / "build/src/micropython-1.28.0/ports/rp2/CMakeLists.txt").exists()
    assert (clone / EXTRACTED).read_text().split() == [sha, "build/downloads/" + BUNDLE_NAME]
    # The download gone (and the default URL, which cannot be reached here): the tree is not extracted again.
    shutil.rmtree(clone / "build" / "downloads")
    assert make(clone, "-q", EXTRACTED).returncode == 0
    again = make(clone, "-n", "image", "BOARD=rpi_pico")
    assert "curl --fail" not in again.stdout and "tar xf" not in again.stdout


@needs_bundle
def test_a_download_whose_checksum_is_not_the_pinned_one_is_refused_in_one_line(clone):
    run = make(clone, EXTRACTED, "MP_URL=file://%s" % BUNDLE, "MP_URL_SHA256=" + "0" * 64)
    assert run.returncode != 0
    actual = hashlib.sha256(BUNDLE.read_bytes()).hexdigest()
    errors = [line for line in (run.stdout + run.stderr).splitlines() if "error" in line and "***" not in line]
    assert errors == ["make image: error: build/downloads/%s: SHA-256 %s, not the pinned %s: refused"
                      % (BUNDLE_NAME, actual, "0" * 64)]
    assert not (clone / "build/downloads" / BUNDLE_NAME).exists()  # the next run downloads it again
    assert not (clone / "build/src/micropython-1.28.0").exists()


def test_a_url_that_cannot_be_fetched_says_where_the_sources_may_come_from(clone):
    run = make(clone, EXTRACTED, "MP_URL=file://%s/nothing-here.tar.xz" % clone)
    assert run.returncode != 0
    assert ("make image: error: could not download file://%s/nothing-here.tar.xz: put %s in ../shared/third_party, "
            "or give THIRD_PARTY=FOLDER or MP_URL=URL" % (clone, BUNDLE_NAME)) in run.stdout


@needs_bundle
def test_the_offline_copy_beside_the_clone_is_taken_first(clone, tmp_path):
    third_party = tmp_path / "shared" / "third_party"
    third_party.mkdir(parents=True)
    shutil.copy(BUNDLE, third_party)
    run = make(clone, EXTRACTED, "MP_URL=file://%s/nothing-here.tar.xz" % clone)  # never asked
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stdout.splitlines() if line.startswith("== MicroPython")]
    assert said == ["== MicroPython 1.28.0's sources: the offline copy ../shared/third_party/%s (THIRD_PARTY), "
                    "SHA-256 %s" % (BUNDLE_NAME, hashlib.sha256(BUNDLE.read_bytes()).hexdigest())]
    assert not (clone / "build" / "downloads").exists()
