"""`sabot doctor`: this workstation and its clone checked for what the README's commands need, one line a check, in
French: "OK" or "À corriger :" with the exact command that fixes it. Exit 0 when every required check passes, 1 when
one fails, 2 for a mistake in the command line; `--json` for programs (its keys in English).

Required: the venv, node_modules and Node (make sim), a port given with --port or found (/dev/ttyACM*), the casino's
registry when there is one. Optional, each for the commands that use it: sabot on the PATH, Chromium (PDF reports),
the ARM toolchain and MicroPython's sources (make image BOARD=rpi_pico)."""

import glob
import grp
import json
import os
import re
import shutil
import stat
import sys
from pathlib import Path

CLONE = Path(__file__).resolve().parents[2]  # host_tools/sabot/doctor.py in the clone `make setup` installs from
PORTS = "/dev/ttyACM*"
BUNDLE = "micropython-1.28.0-rp2-src.tar.gz"  # the offline copy the Makefile looks for beside the clone (THIRD_PARTY)
SABOT_MAX = 65535
_HEX = re.compile(r"[0-9a-f]+\Z")


def default_root():
    """The clone sabot runs from (an editable install), or the current folder when it is one."""
    return CLONE if (CLONE / "Makefile").exists() else Path.cwd()


def check(name, ok, message, fix=None, required=True):
    return {"id": name, "ok": bool(ok), "required": required, "message": message, "fix": None if ok else fix}


class Fixes:
    """The commands that fix what is missing, as typed from the current folder: `make X` in the clone, `make -C
    CLONE X` elsewhere; Debian's packages as root (sudo otherwise)."""

    def __init__(self, root):
        self.root = root

    def make(self, target):
        here = Path.cwd().resolve() == self.root.resolve()
        return "make %s" % target if here else "make -C %s %s" % (self.root, target)

    def apt(self, group):
        return ("" if os.geteuid() == 0 else "sudo ") + self.make("system-deps-" + group)


def _newer(stamp, sources):
    """The stamp exists and no source that exists is newer."""
    if not stamp.exists():
        return False
    at = stamp.stat().st_mtime
    return all(not p.exists() or p.stat().st_mtime <= at for p in sources)


def venv(root, fixes):
    stamp = root / ".venv" / ".setup-done"
    if not (root / ".venv" / "bin" / "python").exists() or not stamp.exists():
        return check("venv", False, "venv : pas de .venv prêt dans %s" % root, fixes.make("setup"))
    sources = [root / n for n in ("requirements.txt", "pyproject.toml", "setup.py", "host_tools/sabot/_frames.c")]
    if not _newer(stamp, sources):
        return check("venv", False, "venv : .venv plus ancien que requirements.txt, setup.py ou le cœur C",
                     fixes.make("setup"))
    return check("venv", True, "venv : %s prêt" % (root / ".venv"))


def on_path(root):
    found = shutil.which("sabot")
    if found:
        return check("path", True, "sabot sur le PATH : %s" % found, required=False)
    return check("path", False, "sabot n'est pas sur le PATH (les commandes du README l'écrivent « sabot »)",
                 "source %s" % (root / ".venv" / "bin" / "activate"), required=False)


def node(fixes):
    missing = [n for n in ("node", "npm") if not shutil.which(n)]
    if missing:
        return check("node", False, "Node : %s absent (la VM MicroPython 32 bits, sabot web, l'émulateur du Pico)"
                     % " et ".join(missing), fixes.apt("node"))
    return check("node", True, "Node : %s" % shutil.which("node"))


def node_modules(root, fixes):
    stamp = root / "node_modules" / ".package-lock.json"
    if not stamp.exists():
        return check("node_modules", False, "node_modules : absent (le port WebAssembly de MicroPython, pour "
                     "--runtime micropython32 et sabot web)", fixes.make("setup"))
    if not _newer(stamp, [root / "package.json", root / "package-lock.json"]):
        return check("node_modules", False, "node_modules : plus ancien que package-lock.json", fixes.make("setup"))
    return check("node_modules", True, "node_modules : %s" % (root / "node_modules"))


def chromium(fixes):
    from sabot.report.pdf import CHROMIUM

    found = next((shutil.which(n) for n in CHROMIUM if shutil.which(n)), None)
    if found:
        return check("chromium", True, "Chromium : %s" % found, required=False)
    return check("chromium", False, "Chromium absent : pas de rapport PDF (sabot report -o rapport.pdf) ni de "
                 "make test", fixes.apt("browser"), required=False)


def arm_toolchain(fixes):
    missing = [n for n in ("arm-none-eabi-gcc", "cmake") if not shutil.which(n)]
    if not Path("/usr/lib/arm-none-eabi/include/stdio.h").exists():
        missing.append("newlib")
    if missing:
        return check("arm_toolchain", False, "chaîne ARM : %s absent, pour make image BOARD=rpi_pico"
                     % ", ".join(missing), fixes.apt("image"), required=False)
    return check("arm_toolchain", True, "chaîne ARM : %s" % shutil.which("arm-none-eabi-gcc"), required=False)


def makefile_value(root, name):
    """A variable's value as the Makefile sets it (`NAME ?= value` or `NAME := value`), or None."""
    try:
        text = (root / "Makefile").read_text()
    except OSError:
        return None
    found = re.search(r"^%s\s*[?:]?=\s*(\S+)" % re.escape(name), text, re.M)
    return found.group(1) if found else None


def sources(root, fixes, third_party=None):
    """MicroPython's sources for the Pico's image, where the Makefile takes them: the offline copy beside the clone
    (THIRD_PARTY), the tree already extracted, or the release it downloads (MP_URL)."""
    places = [Path(third_party)] if third_party else [root.parent / "shared" / "third_party",
                                                      root.parent.parent / "shared" / "third_party"]
    copy = next((p / BUNDLE for p in places if (p / BUNDLE).exists()), None)
    if copy:
        return check("sources", True, "sources de MicroPython : la copie hors ligne %s" % copy, required=False)
    stamp = root / "build" / "src" / "micropython-1.28.0" / ".extracted"
    if stamp.exists():
        return check("sources", True, "sources de MicroPython : déjà extraites (%s)" % stamp, required=False)
    url = makefile_value(root, "MP_URL")
    if url and shutil.which("curl"):
        return check("sources", True, "sources de MicroPython : pas de copie hors ligne (%s) ; make image télécharge "
                     "%s, SHA-256 vérifié" % (places[0], url), required=False)
    return check("sources", False, "sources de MicroPython : pas de copie hors ligne (%s)%s" % (
        places[0], " ni curl pour télécharger %s" % url if url else ""),
        fixes.apt("image") if url else "cp %s %s/" % (BUNDLE, places[0]), required=False)


def port(path, given):
    """A serial port the technician's commands can open: there, a character device, readable and writable."""
    if not os.path.exists(path):
        present = sorted(glob.glob(PORTS))
        fix = "sabot vboard --fs %s &" % path[:-4] if path.endswith(".tty") else None
        return check("port", False, "port %s : absent (branchez le sabot ; ports présents : %s)" % (
            path, ", ".join(present) or "aucun"), fix)
    mode = os.stat(path)
    if not stat.S_ISCHR(mode.st_mode):
        return check("port", False, "port %s : pas un port série (%s)" % (path, "donné" if given else "trouvé"))
    if not os.access(path, os.R_OK | os.W_OK):
        group = grp.getgrgid(mode.st_gid).gr_name
        return check("port", False, "port %s : pas ouvert à cet utilisateur (groupe %s ; reconnectez-vous après)"
                     % (path, group), "sudo usermod -aG %s %s" % (group, os.environ.get("USER", "$USER")))
    return check("port", True, "port %s : prêt" % path)


def ports(given):
    if given:
        return [port(p, True) for p in given]
    found = sorted(glob.glob(PORTS))
    if not found:
        return [check("port", True, "ports : aucun sabot branché (%s) ; --port PORT en vérifie un" % PORTS,
                      required=False)]
    return [port(p, False) for p in found]


def registry_problems(shoes):
    """What is wrong with the registry's entries, one sentence each (sabot key enrol's format: sabot, public_key,
    casino_key, shoe_key, enrolled)."""
    from sabot.element import public_key

    problems, numbers, keys = [], {}, {}
    for i, shoe in enumerate(shoes, 1):
        where = "entrée %d" % i
        if not isinstance(shoe, dict):
            problems.append("%s : pas un objet" % where)
            continue
        sabot = shoe.get("sabot")
        if type(sabot) is not int or not 0 <= sabot <= SABOT_MAX:
            problems.append("%s : sabot %r n'est pas un numéro de 0 à %d" % (where, sabot, SABOT_MAX))
        else:
            where = "%s (sabot %d)" % (where, sabot)
            numbers.setdefault(sabot, []).append(i)
        key = shoe.get("public_key")
        try:
            public_key(bytes.fromhex(key) if isinstance(key, str) and _HEX.match(key) else b"")
            keys.setdefault(key, []).append(i)
        except ValueError:
            problems.append("%s : public_key n'est pas une clé publique P-256 (X || Y, 128 chiffres hexadécimaux)"
                            % where)
        for field in ("casino_key", "shoe_key"):  # the casino's key's id, the shoe's own key's (docs/keys.md)
            held = shoe.get(field)
            if held is not None and not (isinstance(held, str) and len(held) == 16 and _HEX.match(held)):
                problems.append("%s : %s %r n'est pas l'id d'une clé (16 chiffres hexadécimaux)" % (where, field, held))
        if not isinstance(shoe.get("enrolled"), str):
            problems.append("%s : enrolled manque (la date de l'enrôlement)" % where)
    problems += ["sabot %d : %d entrées (%s)" % (n, len(at), ", ".join(map(str, at)))
                 for n, at in sorted(numbers.items()) if len(at) > 1]
    problems += ["une même clé publique aux entrées %s" % ", ".join(map(str, at))
                 for at in keys.values() if len(at) > 1]
    return problems


def registry(path):
    if not os.path.exists(path):
        return check("registry", True, "registre : pas de %s ici (sabot key enrol le crée)" % path, required=False)
    fix = "sabot key enrol --port PORT --registry %s" % path
    try:
        with open(path, encoding="utf-8") as f:
            shoes = json.load(f)["shoes"]
        if not isinstance(shoes, list):
            raise TypeError("shoes is not a list")
    except (OSError, UnicodeError, ValueError, KeyError, TypeError) as e:
        return check("registry", False, "registre %s : illisible (%s)" % (path, e), fix)
    problems = registry_problems(shoes)
    if problems:
        return check("registry", False, "registre %s : %s" % (path, " ; ".join(problems)), fix)
    return check("registry", True, "registre %s : %d sabot(s), chaque entrée bien formée" % (path, len(shoes)))


def run(root=None, given_ports=(), registry_path="shoes.json", third_party=None):
    """Every check, in the order a newcomer meets them."""
    root = Path(root) if root else default_root()
    fixes = Fixes(root)
    return ([venv(root, fixes), on_path(root), node(fixes), node_modules(root, fixes), chromium(fixes),
             arm_toolchain(fixes), sources(root, fixes, third_party)] + ports(given_ports) + [registry(registry_path)])


def line(result):
    if result["ok"]:
        return "OK : %s" % result["message"]
    head = "À corriger :" if result["required"] else "À corriger (facultatif) :"
    return "%s %s%s" % (head, result["message"], " → %s" % result["fix"] if result["fix"] else "")


def main(args, out=None):
    out = out or sys.stdout
    results = run(args.root, args.port, args.registry, args.third_party)
    ok = all(r["ok"] for r in results if r["required"])
    if args.json:
        out.write(json.dumps({"ok": ok, "checks": results}, ensure_ascii=False, indent=1) + "\n")
        return 0 if ok else 1
    for result in results:
        out.write(line(result) + "\n")
    required = sum(1 for r in results if r["required"] and not r["ok"])
    optional = sum(1 for r in results if not r["required"] and not r["ok"])
    if ok:
        out.write("sabot doctor : prêt%s\n" % (" (%d point(s) facultatif(s) à corriger)" % optional if optional
                                                else ""))
    else:
        out.write("sabot doctor : %d point(s) à corriger%s\n" % (
            required, " (et %d facultatif(s))" % optional if optional else ""))
    return 0 if ok else 1


def add_arguments(parser):
    parser.add_argument("--port", action="append", default=[], metavar="PORT",
                        help="a shoe's port to check (repeatable; default: every /dev/ttyACM* found)")
    parser.add_argument("--registry", default="shoes.json", metavar="FILE",
                        help="the casino's registry to check (default shoes.json, when it is there)")
    parser.add_argument("--root", help="the clone to check (default: the one sabot runs from)")
    parser.add_argument("--third-party", metavar="FOLDER", help="where the offline MicroPython sources are "
                        "(the Makefile's THIRD_PARTY; default: the shared folder beside the clone)")
    parser.add_argument("--json", action="store_true", help="the checks as JSON (keys in English)")
