"""The Makefile's Debian packages in groups (system-deps-*): each target pulls the groups it uses, so that `make sim`
on a fresh machine installs the compiler, the headers and Node, not Chromium, valgrind, the ARM toolchain or Java;
`make system-deps` (CI) and `make test` still pull every group."""

import subprocess

from tests.conftest import ROOT

GROUPS = {
    "venv": ["gcc", "libssl-dev", "libdeflate-dev", "python3-dev", "python3-venv"],
    "node": ["nodejs", "npm"],
    "browser": ["chromium", "fonts-dejavu-core", "poppler-utils"],
    "bench": ["valgrind"],
    "image": ["gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "cmake"],
    "java": ["default-jre-headless"],
}


def installs(*target):
    """The packages the target's apt-get lines name, every recipe made as if out of date (-B) and nothing run (-n:
    the sub-makes print theirs too). The image's sources pointed nowhere: a line that calls make in MicroPython's
    tree would run under -n, and stops there instead (after the apt-get lines, which come first)."""
    run = subprocess.run(["make", "-n", "-B", "--no-print-directory", *target, "MP_SRC=/nonexistent/micropython"],
                         cwd=ROOT, capture_output=True, text=True)
    text = run.stdout.replace("\\\n", " ")
    named = set()
    for line in text.splitlines():
        if "apt-get install" in line:
            named.update(line.split("apt-get install", 1)[1].replace(")", " ").split())
    return named


def pulled(named):
    return {group for group, packages in GROUPS.items() if set(packages) <= named}


def test_make_sim_installs_the_venv_s_and_node_s_packages_alone():
    assert pulled(installs("sim")) == {"venv", "node"}


def test_system_deps_and_make_test_install_every_group():
    assert pulled(installs("system-deps")) == set(GROUPS)
    assert pulled(installs("test")) == set(GROUPS)


def test_the_pico_image_and_the_bench_pull_their_own():
    assert {"image"} <= pulled(installs("image", "BOARD=rpi_pico")) <= {"image", "venv"}
    assert "bench" in pulled(installs("bench-check"))
