"""Writes the page: its HTML, CSS and JavaScript (this package's data), the MicroPython WebAssembly port from
node_modules, and the firmware's and sim board's sources the page puts into the VM's filesystem (sources.js)."""

import json
from importlib import resources
from pathlib import Path

import firmware

ROOT = Path(firmware.__file__).resolve().parent.parent
PORT = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
VM_FILES = ("micropython.mjs", "micropython.wasm")
ASSETS = ("index.html", "page.css", "app.js", "words.js", "shoe.js", "journal.js", "zip.js")
SOURCE_DIRS = ("firmware", "boards/sim")


class PageError(Exception):
    pass


def sources():
    """{path in the VM: text}: the firmware and the sim board as `sabot sim` imports them, and the page's session."""
    files = {"boards/__init__.py": (ROOT / "boards" / "__init__.py").read_text(encoding="utf-8")}
    for folder in SOURCE_DIRS:
        for path in sorted((ROOT / folder).glob("*.py")):
            files["%s/%s" % (folder, path.name)] = path.read_text(encoding="utf-8")
    files["session.py"] = resources.files(__package__).joinpath("session.py").read_text(encoding="utf-8")
    return files


def write(out, force=False, replace=False):
    """The page's files into out. A folder that holds anything is refused unless force (or replace: the
    default folder, which only this command writes)."""
    out = Path(out)
    missing = [name for name in VM_FILES if not (PORT / name).is_file()]
    if missing:
        raise PageError("the MicroPython WebAssembly port is not installed (%s): run make setup" % (PORT / missing[0]))
    if out.exists() and not out.is_dir():
        raise PageError("%s exists and is not a folder" % out)
    if out.is_dir() and any(out.iterdir()) and not (force or replace):
        raise PageError("%s is not empty: give another --out, or --force to write the page over it" % out)
    out.mkdir(parents=True, exist_ok=True)
    for name in VM_FILES:
        (out / name).write_bytes((PORT / name).read_bytes())
    package = resources.files(__package__)
    for name in ASSETS:
        (out / name).write_bytes(package.joinpath(name).read_bytes())
    text = "globalThis.SABOT_SOURCES = %s;\n" % json.dumps(sources(), indent=0, sort_keys=True)
    (out / "sources.js").write_text(text, encoding="utf-8")
    return out


def page_bytes(folder):
    """What a browser loads: every file of the page."""
    return sum(p.stat().st_size for p in Path(folder).iterdir() if p.is_file())
