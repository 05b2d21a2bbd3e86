"""Writes the page: its HTML, CSS and JavaScript (this package's data), the words of the firmware's numbers
(words.js, from firmware/format/words.py and firmware/layout.py), the MicroPython WebAssembly port from node_modules,
and the firmware's and sim board's sources the page puts into the VM's filesystem (sources.js)."""

import json
from importlib import resources
from pathlib import Path

import firmware
from firmware import layout, record_names, records
from firmware.format import words

ROOT = Path(firmware.__file__).resolve().parent.parent
PORT = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
VM_FILES = ("micropython.mjs", "micropython.wasm")
ASSETS = ("index.html", "page.css", "app.js", "text.js", "shoe.js", "journal.js", "zip.js", "levy.js")
# The page's name of each table of firmware/format/words.py, each written as a list indexed by the code.
TABLES = {"events": words.EVENTS, "refusals": words.REFUSALS, "alarms": words.ALARMS, "findings": words.FINDINGS,
          "ends": words.ENDS, "dispositions": words.DISPOSITIONS, "conditions": words.CONDITIONS,
          "releases": words.RELEASES, "winners": words.WINNERS, "bank": words.BANK, "games": words.GAMES,
          "indicators": words.INDICATORS, "phases": words.PHASES}
SOURCE_DIRS = ("firmware", "firmware/format", "boards/sim")


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


MANIFEST = "sabot-web.json"  # the names of the files the last build wrote: all that --serve serves
PAGE = VM_FILES + ASSETS + ("sources.js", "words.js")  # the last two written from the sources


def written(folder):
    """The files a build wrote into folder, from its manifest; without one, a folder of the page's files alone, VM
    and sources included, is a build from before the manifest; anything else: none."""
    try:
        names = json.loads((Path(folder) / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        names = {p.name for p in Path(folder).iterdir()} if Path(folder).is_dir() else set()
        if not names <= set(PAGE) or not names >= set(VM_FILES + ("sources.js",)):
            return set()
    return {name for name in names if name in PAGE}


def words_js():
    """words.js: the words of every code by language, the record types, and the index of each body field in a
    record as the page's reader unpacks it (firmware/layout.py's FIELDS)."""
    codes = {}
    for lang, index in words.LANGUAGES.items():
        codes[lang] = {name: [words.said(table, code, index) if code in table else ""
                              for code in range(max(table) + 1)] for name, table in TABLES.items()}
        codes[lang]["hands"] = words.HANDS
    types = {name: value for name, value in sorted(vars(records).items()) if name.startswith("R_")}
    types["R_BURST"] = record_names.R_BURST  # named apart from the shoe's records (firmware/record_names.py)
    fields = ", ".join("%s = %d" % (name.upper(), i) for i, name in enumerate(layout.FIELDS))
    return ("// Written by `sabot web` from firmware/format/words.py and firmware/layout.py (host_tools/sabot/web/"
            "build.py):"
            " change those, not this.\nexport const CODES = %s;\nexport const RECORDS = %s;\nexport const %s;\n" % (
                json.dumps(codes, ensure_ascii=False, indent=1), json.dumps(types, indent=1), fields))


def write(out, force=False, replace=False):
    """The page's files into out, and their names into its manifest. A folder that holds files another program
    wrote is refused unless force, and then they are kept and never served; a file of the page's name that no
    build wrote is never replaced (replace: the default folder, which only this command writes)."""
    out = Path(out)
    missing = [name for name in VM_FILES if not (PORT / name).is_file()]
    if missing:
        raise PageError("the MicroPython WebAssembly port is not installed (%s): run make setup" % (PORT / missing[0]))
    if out.exists() and not out.is_dir():
        raise PageError("%s exists and is not a folder" % out)
    ours = set(PAGE) if replace else written(out)
    others = sorted(p.name for p in out.iterdir() if p.name not in ours and p.name != MANIFEST) if out.is_dir() else []
    if others and not (force or replace):
        raise PageError("%s holds files sabot web did not write (%s): give another --out, or --force to write the "
                        "page beside them (kept, never served)" % (out, others[0]))
    clash = [name for name in others if name in PAGE]
    if clash:
        raise PageError("%s exists and sabot web did not write it: give another --out" % (out / clash[0]))
    out.mkdir(parents=True, exist_ok=True)
    for name in VM_FILES:
        (out / name).write_bytes((PORT / name).read_bytes())
    package = resources.files(__package__)
    for name in ASSETS:
        (out / name).write_bytes(package.joinpath(name).read_bytes())
    (out / "words.js").write_text(words_js(), encoding="utf-8")
    text = "globalThis.SABOT_SOURCES = %s;\n" % json.dumps(sources(), indent=0, sort_keys=True)
    (out / "sources.js").write_text(text, encoding="utf-8")
    (out / MANIFEST).write_text(json.dumps({"files": list(PAGE)}, indent=1) + "\n", encoding="utf-8")
    return out


def page_bytes(folder):
    """What a browser loads: every file of the page."""
    return sum((Path(folder) / name).stat().st_size for name in written(folder))
