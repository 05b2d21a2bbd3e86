"""Writes the page: its HTML, CSS and JavaScript (this package's data), the words of the firmware's numbers
(words.js, from boards/sim/words.py and firmware/layout.py), the MicroPython WebAssembly port from node_modules,
and the firmware's and sim board's sources the page puts into the VM's filesystem (sources.js)."""

import json
from importlib import resources
from pathlib import Path

import firmware
from boards.sim import words
from firmware import layout, records

ROOT = Path(firmware.__file__).resolve().parent.parent
PORT = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
VM_FILES = ("micropython.mjs", "micropython.wasm")
ASSETS = ("index.html", "page.css", "app.js", "text.js", "shoe.js", "journal.js", "zip.js")
# The page's name of each table of boards/sim/words.py, each written as a list indexed by the code.
TABLES = {"events": words.EVENTS, "refusals": words.REFUSALS, "alarms": words.ALARMS, "findings": words.FINDINGS,
          "ends": words.ENDS, "dispositions": words.DISPOSITIONS, "conditions": words.CONDITIONS,
          "releases": words.RELEASES, "winners": words.WINNERS, "games": words.GAMES, "indicators": words.INDICATORS,
          "phases": words.PHASES}
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


def words_js():
    """words.js: the words of every code by language, the record types, and the index of each body field in a
    record as the page's reader unpacks it (firmware/layout.py's FIELDS)."""
    codes = {}
    for lang, index in words.LANGUAGES.items():
        codes[lang] = {name: [words.said(table, code, index) if code in table else ""
                              for code in range(max(table) + 1)] for name, table in TABLES.items()}
        codes[lang]["hands"] = words.HANDS
    types = {name: value for name, value in sorted(vars(records).items()) if name.startswith("R_")}
    fields = ", ".join("%s = %d" % (name.upper(), i) for i, name in enumerate(layout.FIELDS))
    return ("// Written by `sabot web` from boards/sim/words.py and firmware/layout.py (host_tools/sabot/web/build.py):"
            " change those, not this.\nexport const CODES = %s;\nexport const RECORDS = %s;\nexport const %s;\n" % (
                json.dumps(codes, ensure_ascii=False, indent=1), json.dumps(types, indent=1), fields))


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
    (out / "words.js").write_text(words_js(), encoding="utf-8")
    text = "globalThis.SABOT_SOURCES = %s;\n" % json.dumps(sources(), indent=0, sort_keys=True)
    (out / "sources.js").write_text(text, encoding="utf-8")
    return out


def page_bytes(folder):
    """What a browser loads: every file of the page."""
    return sum(p.stat().st_size for p in Path(folder).iterdir() if p.is_file())
