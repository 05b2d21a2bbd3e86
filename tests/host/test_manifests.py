"""The boards' freezing manifests, read as MicroPython's build tool reads them (tools/manifestfile.py semantics,
without its source tree): every file they name exists, and a production image holds every module of the firmware
and of the board's folders, boot.py and main.py at the top, and nothing of the simulator."""

import os
from pathlib import Path

import pytest

from sabot.boards import folders, hardware
from tests.conftest import ROOT

PATH_VARIABLES = ("$(PORT_DIR)", "$(BOARD_DIR)", "$(MPY_DIR)", "$(MPY_LIB_DIR)")


class Manifest:
    """What a manifest asks for: frozen files as {target path on the device: source file}, and the manifests it
    includes from MicroPython's own tree (not here to read). A function of the tool's that ours do not use is a
    NameError: the test grows with the manifests."""

    def __init__(self, path):
        self.folder = path.parent
        self.frozen = {}
        self.includes = []
        self.port_modules = []
        api = {"include": self.include, "package": self.package, "module": self.module,
               "freeze": self.freeze}  # what ours use
        exec(compile(path.read_text(), str(path), "exec"), api)

    def _add(self, source, target):
        assert source.is_file(), "%s names %s, which does not exist" % (self.folder, source)
        assert target not in self.frozen, "%s frozen twice" % target
        self.frozen[target] = source

    def _base(self, base_path):
        assert not base_path.startswith("$("), "only the port's own manifest comes from MicroPython's tree"
        return (self.folder / base_path).resolve()

    def include(self, path, **options):
        assert path.startswith(PATH_VARIABLES), "a manifest of ours is frozen through this one, not included"
        self.includes.append(path)

    def freeze(self, path, script=None, opt=None):
        assert path == "$(PORT_DIR)/modules", "only the port's own modules are frozen by freeze()"
        self.port_modules.append(script)

    def package(self, package_path, files=None, base_path=".", opt=None):
        base = self._base(base_path)
        if files is None:
            assert (base / package_path).is_dir(), "no package folder %s" % (base / package_path)
            files = [str(p.relative_to(base / package_path)) for p in sorted((base / package_path).rglob("*.py"))]
        for name in files:
            target = os.path.join(package_path, name)
            self._add(base / target, target)

    def module(self, module_path, base_path=".", opt=None):
        assert module_path.endswith(".py")
        self._add(self._base(base_path) / module_path, module_path)


def _modules(folder):
    pattern = "**/*.py" if folder == "firmware" else "*.py"  # firmware's packages (firmware/format/) frozen with it
    return {str(p.relative_to(ROOT)) for p in (ROOT / folder).glob(pattern)} - {folder + "/manifest.py"}


@pytest.fixture(params=hardware())
def manifest(request):
    return request.param, Manifest(ROOT / "boards" / request.param / "manifest.py")


@pytest.mark.req("H-FIRMWARE")
def test_the_esp32_manifest_keeps_the_ports_own_frozen_modules():
    read = Manifest(ROOT / "boards" / "esp32" / "manifest.py")
    assert read.includes == ["$(PORT_DIR)/boards/manifest.py"]  # _boot.py: the filesystem the journal is on


def _code(path):
    return "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("#"))


def _pico(image, monkeypatch):
    """The Pico's manifest as `make image` reads it for one of its two images (SABOT_IMAGE)."""
    monkeypatch.setenv("SABOT_IMAGE", image)
    return Manifest(ROOT / "boards" / "rpi_pico" / "manifest.py")


@pytest.mark.req("H-FIRMWARE", "S-FAILSAFE")
def test_the_pico_image_freezes_its_own_boot_mount_not_the_ports_which_formats_a_shoes_flash(monkeypatch):
    for image, folder in (("development", ROOT / "boards" / "rpi_pico"),
                          ("production", ROOT / "boards" / "rpi_pico" / "production")):
        read = _pico(image, monkeypatch)
        assert read.includes == [] and read.port_modules == ["rp2.py"]
        assert read.frozen["_boot.py"] == folder / "_boot.py"


@pytest.mark.req("P-NOREPL", "P-FROZEN")
def test_the_pico_images_differ_only_in_their_boot_and_main_the_production_one_never_returning(monkeypatch):
    development, production = _pico("development", monkeypatch), _pico("production", monkeypatch)
    assert {t for t in development.frozen if development.frozen[t] != production.frozen[t]} == {"_boot.py",
                                                                                                 "main.py"}
    main = _code(production.frozen["main.py"])
    assert main.index("try:") < main.index("kbd_intr(-1)") < main.index("production()") < main.index("restart()")
    boot = _code(production.frozen["_boot.py"])  # Ctrl-C off and the filesystem out of sys.path, first
    assert boot.index("kbd_intr(-1)") < boot.index('sys.path[:] = [".frozen"]') < boot.index("mount()")


@pytest.mark.req("H-FIRMWARE")
def test_every_module_of_the_firmware_and_the_boards_folders_is_frozen_from_its_own_file(manifest):
    board, read = manifest
    wanted = _modules("firmware") | {"boards/__init__.py"} | set().union(*map(_modules, folders(board)))
    wanted -= {"boards/%s/boot.py" % board, "boards/%s/_boot.py" % board}
    packaged = {target: source for target, source in read.frozen.items() if "/" in target}
    assert set(packaged) == wanted
    assert all(source == ROOT / target for target, source in packaged.items())


@pytest.mark.req("S-FAILSAFE", "H-FIRMWARE")
def test_boot_py_and_main_py_are_frozen_at_the_top(manifest, monkeypatch):
    board, read = manifest
    if board == "rpi_pico":
        read = _pico("development", monkeypatch)  # production's main.py: the test above
    top = {target: source for target, source in read.frozen.items() if "/" not in target and target != "_boot.py"}
    assert top == {"boot.py": ROOT / "boards" / board / "boot.py", "main.py": ROOT / "boards" / "main.py"}


@pytest.mark.req("H-FIRMWARE")
def test_nothing_of_the_simulator_or_the_host_goes_into_an_image(manifest):
    _, read = manifest
    assert not [source for source in read.frozen.values()
                if not source.is_relative_to(ROOT / "firmware") and not source.is_relative_to(ROOT / "boards")
                or source.is_relative_to(ROOT / "boards" / "sim") or source.name == "manifest.py"]


def test_the_reader_of_manifests_refuses_a_missing_file(tmp_path):
    (tmp_path / "manifest.py").write_text('module("absent.py")\n')
    with pytest.raises(AssertionError, match="does not exist"):
        Manifest(Path(tmp_path / "manifest.py"))
