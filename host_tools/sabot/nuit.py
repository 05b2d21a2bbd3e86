"""`sabot nuit`: the casino's night in one command. For every shoe of the casino's registry (shoes.json, each with
its port: `sabot key enrol --port` writes it, `--port N=PATH` overrides it), the shoe's state asked first, its journal
pulled into DEST/sabot-NNNN/DATE/ (a folder a night, so that every night's receipt.json stays where it was pulled),
its receipt copied into the night's folder DEST/nuit-DATE/recus/, the journal verified against the previous night's
receipt and the registry, ingested into the casino's database, its report written; then the fleet's pages (with the
carnet de prises en charge), each cagnotte carnet whose ledger is given, and one French summary, the shoes that need
a look first. Exit 0 only when every shoe is conforme, 1 otherwise, 2 for unusable input (docs/fleet.md, "La nuit").

The steps are the commands' own functions (shoe_link.pull_log, verify.verify, fleet.ingest.ingest,
report.cli.report, fleet.report.write, cagnotte.cli.write_carnet), each one's words kept in the night's record."""

import datetime
import json
import os
import re
import sys
import time
from pathlib import Path

from sabot import keys, nuit_said, options, progress
from sabot.device import DeviceError
from sabot.nuit_said import CLEAN, FAULT, FINDINGS, MUTE  # a shoe's outcome, most urgent first
from sabot.nuit_steps import (
    captured,
    fleet_pages,
    ingest_journal,
    last_line,
    verify_journal,
    write_carnet,
    write_report,
)
from sabot.registry_cli import SIGNER_HELP

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CASINO_DAY_HOURS = 6  # a casino day runs 06:00 to 06:00 UTC (docs/fleet.md, F-OUVERTE): a pull at 04:00 is last night's


class Unusable(Exception):
    """Input the night cannot run on: said in one line, exit 2."""


def folder_name(sabot):
    return "sabot-%04d" % sabot


def casino_day(now=None):
    """The night's date: the casino day of now (UTC), which a pull after midnight still belongs to."""
    now = now or datetime.datetime.now(datetime.UTC)
    return (now - datetime.timedelta(hours=CASINO_DAY_HOURS)).strftime("%Y-%m-%d")


def port_options(given):
    """--port N=PATH options: {sabot: path}; Unusable for one that is not so written."""
    ports = {}
    for text in given:
        number, sep, path = text.partition("=")
        if not sep or not number.strip().isdigit() or not path:
            raise Unusable("--port %s: write it N=PATH, the sabot's number and its port (--port 42=/dev/ttyACM0)"
                           % text)
        ports[int(number)] = path
    return ports


def shoes_of(registry, given_ports):
    """[(sabot, port as written or None, its path, registry entry)] of the registry, in number order; Unusable when it
    cannot be read or holds no shoe. A port written in the registry relative to it is taken so."""
    try:
        with open(registry, encoding="utf-8") as f:
            listed = json.load(f)["shoes"]
        if not isinstance(listed, list) or not all(isinstance(s, dict) and isinstance(s.get("sabot"), int)
                                                   for s in listed):
            raise ValueError("its shoes are not a list of entries with a sabot number")
    except FileNotFoundError:
        raise Unusable("no registry %s: enrol the casino's shoes first (sabot key enrol --port PORT --casino-key "
                       "casino.key --registry %s)" % (registry, registry)) from None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Unusable("%s is not the casino's registry (sabot key enrol's shoes.json): %s" % (
            registry, getattr(e, "strerror", None) or e)) from None
    if not listed:
        raise Unusable("%s holds no shoe: enrol them first (sabot key enrol --port PORT)" % registry)
    unknown = sorted(set(given_ports) - {s["sabot"] for s in listed})
    if unknown:
        raise Unusable("--port %d=...: sabot %d is not in %s" % (unknown[0], unknown[0], registry))
    here = Path(registry).resolve().parent
    shoes = []
    for entry in sorted(listed, key=lambda s: s["sabot"]):
        port = given_ports.get(entry["sabot"]) or entry.get("port")
        device = port
        if port and entry["sabot"] not in given_ports and not os.path.isabs(port):
            device = str(here / port)
        shoes.append((entry["sabot"], port, device, entry))
    return shoes


def previous_receipt(shoe_folder, date):
    """The receipt of the shoe's last night before date (DEST/sabot-NNNN/EARLIER/receipt.json), or None."""
    earlier = sorted(p for p in shoe_folder.glob("*/receipt.json") if _DATE.match(p.parent.name) and
                     p.parent.name < date)
    return earlier[-1] if earlier else None


def keep_receipt(journal, receipts_folder, sabot):
    """The night's copy of the shoe's receipt, named by its sabot and its pull's UTC time (pull.json), never
    overwritten: DEST/nuit-DATE/recus/sabot-NNNN-20261202T040000Z.json. Its path."""
    try:
        stamp = json.loads((journal / "pull.json").read_text())["time"].replace("-", "").replace(":", "")
    except (OSError, ValueError, KeyError, AttributeError):
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    receipts_folder.mkdir(parents=True, exist_ok=True)
    text = (journal / "receipt.json").read_bytes()
    for n in range(1, 100):
        kept = receipts_folder / ("%s-%s%s.json" % (folder_name(sabot), stamp, "" if n == 1 else "-%d" % n))
        try:
            with open(kept, "xb") as f:
                f.write(text)
            return kept
        except FileExistsError:
            if kept.read_bytes() == text:
                return kept
    raise OSError("%s: too many receipts of %s" % (receipts_folder, stamp))


def ask_state(port):
    """A production shoe's status over its protocol (its number, faults, alarms, casino key id), or None for a
    development shoe (pull-log reaches it over mpremote and says a fault itself)."""
    from sabot.shoe_links import reach

    shoe = reach(port, timeout=5.0)  # an emulated Pico on a loaded machine can take a few seconds
    if not shoe.production:
        return None
    try:
        return shoe.status()
    finally:
        shoe.close()


def check_state(shoe, state, entry):
    """What the shoe's status says before anything is pulled: a fault (journalling nothing), another sabot on the
    port, a casino key that is not the registry's, an alarm raised. True when the pull may go on."""
    port = shoe["port"]
    if state.get("broken"):
        shoe["state"] = FAULT
        shoe["said"].append(nuit_said.fault(state, entry["sabot"]))
        return False
    if state.get("sabot") != entry["sabot"]:
        shoe["state"] = FAULT
        shoe["said"].append("le sabot sur %s répond n° %s, le registre attend le n° %d à ce port : rien relevé "
                            "(un sabot changé de port ? --port N=CHEMIN)" % (port, state.get("sabot"),
                                                                          entry["sabot"]))
        return False
    held = entry.get("shoe_key") or entry.get("casino_key")  # its own key's id; the casino's before shoe keys
    if held and state.get("casino") != held:
        shoe["state"] = FINDINGS
        shoe["said"].append("il détient la clé %s, le registre la clé %s" % (state.get("casino"), held))
    if state.get("alarms"):
        shoe["state"] = FINDINGS if shoe["state"] == CLEAN else shoe["state"]
        shoe["said"].append("alarme levée, à lever par le superviseur : %s" % nuit_said.alarms(state["alarms"]))
    return True


def pull(shoe, journal):
    """pull-log into the night's folder; a journal already pulled this night (a second run) is taken as it is."""
    from sabot.shoe_link import pull_log

    if (journal / "receipt.json").is_file():
        shoe["said"].append("déjà relevé cette nuit (%s) : repris tel quel" % journal)
        return True
    with captured() as (out, err):
        status = pull_log(shoe["device"], journal, out=out)
    if status == 0:
        return True
    shoe["state"] = MUTE if status == 2 else FAULT
    shoe["said"].append(("ne répond pas : %s" if status == 2 else "refuse le relevé : %s") % last_line(
        err.getvalue() + out.getvalue()).removeprefix("sabot pull-log: error: "))
    return False


def one_shoe(sabot, port, device, entry, options, night):
    """One shoe's night: a dict the summary and --json say."""
    shoe = {"sabot": sabot, "port": port, "device": device, "state": CLEAN, "said": [], "findings": [], "journal": None,
            "receipt": None, "previous_receipt": None, "ingested": False, "report": None}
    if not port:
        shoe["state"] = MUTE
        shoe["said"].append("aucun port : le registre n'en donne pas (sabot key enrol --port CHEMIN), ni --port "
                            "%d=CHEMIN" % sabot)
        return shoe
    shoe_folder = Path(options.dest) / folder_name(sabot)
    journal = shoe_folder / night["date"]
    try:
        state = None if (journal / "receipt.json").is_file() else ask_state(device)
    except (DeviceError, OSError) as e:
        shoe["state"] = MUTE
        shoe["said"].append("ne répond pas : %s" % e)
        return shoe
    if state is not None and not check_state(shoe, state, entry):
        return shoe
    if not pull(shoe, journal):
        return shoe
    shoe["journal"] = str(journal)
    shoe["receipt"] = str(keep_receipt(journal, night["receipts"], sabot))
    previous = previous_receipt(shoe_folder, night["date"])
    shoe["previous_receipt"] = str(previous) if previous else None
    if previous is None:
        shoe["said"].append("première nuit : aucun reçu d'une nuit précédente dans %s" % shoe_folder)
    signers = options.registry_signer  # the registry's signers trusted
    verify_journal(shoe, journal, options.registry, previous, signers)
    ingest_journal(shoe, journal, options.db, options.casino, options.registry, signers)
    write_report(shoe, journal, options.registry, options.establishment, signers)
    ledger = Path(options.ledgers) / ("%s.csv" % folder_name(sabot)) if options.ledgers else None
    if ledger and ledger.is_file():
        write_carnet(shoe, journal, ledger, night["folder"] / "carnets", options.establishment)
    return shoe


def prepare(options):
    """The night's date and folders; Unusable for a date or a destination that cannot be."""
    date = options.date or casino_day()
    if not _DATE.match(date):
        raise Unusable("--date %s: give the night's date as 2026-12-01" % date)
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise Unusable("--date %s is not a date" % date) from None
    dest = Path(options.dest)
    if dest.exists() and not dest.is_dir():
        raise Unusable("%s is a file: give the casino's journals folder" % dest)
    from sabot.fleet.store import Unusable as StoreUnusable
    from sabot.fleet.store import casino_name

    try:
        casino_name(options.casino)
    except StoreUnusable as e:
        raise Unusable(str(e)) from None
    folder = dest / ("nuit-%s" % date)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise Unusable("cannot make %s: %s" % (folder, e.strerror)) from None
    return {"date": date, "folder": folder, "receipts": folder / "recus"}


def nuit(options, out=sys.stdout):
    """The whole night; its exit status."""
    try:
        shoes = shoes_of(options.registry, port_options(options.port))
        night = prepare(options)
    except Unusable as e:
        print("sabot nuit: error: %s" % e, file=sys.stderr)
        return 2
    started = time.monotonic()
    done = []
    for at, (sabot, port, device, entry) in enumerate(shoes, 1):
        progress.line("[%d/%d] sabot %d sur %s…" % (at, len(shoes), sabot, port or "(aucun port)"))
        begun = time.monotonic()
        shoe = one_shoe(sabot, port, device, entry, options, night)
        shoe["seconds"] = round(time.monotonic() - begun, 1)
        done.append(shoe)
        progress.line("[%d/%d] sabot %d : %s (%.1f s)" % (at, len(shoes), sabot, nuit_said.outcome(shoe),
                                                           shoe["seconds"]))
    if any(shoe["journal"] for shoe in done):
        pages, fleet, trouble = fleet_pages(night, options.db)
    else:
        pages, fleet, trouble = None, [], "aucun journal relevé : ni base ni pages du parc"
    summary = nuit_said.summary(night, options, done, pages, fleet, trouble, time.monotonic() - started)
    (night["folder"] / "nuit.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n",
                                               encoding="utf-8")
    text = nuit_said.text(summary)
    (night["folder"] / "nuit.txt").write_text(text, encoding="utf-8")
    if options.json:
        out.write(json.dumps(summary, ensure_ascii=False) + "\n")
    else:
        out.write(text)
    return 0 if summary["ok"] else 1


def add_arguments(parser):
    """`sabot nuit`'s arguments, for cli.py."""
    parser.add_argument("dest", nargs="?", default="journaux", help="the casino's journals folder: each shoe's "
                        "night in DEST/sabot-NNNN/DATE/, the night's summary and receipts in DEST/nuit-DATE/ "
                        "(default ./journaux)")
    parser.add_argument("--registry", default=keys.REGISTRY, help="the casino's registry of its shoes, each with "
                        "its port (sabot key enrol --port; default %s)" % keys.REGISTRY)
    parser.add_argument("--registry-signer", action="append", default=[], metavar="FILE", help="as for sabot log "
                        "verify: " + SIGNER_HELP)
    parser.add_argument("--port", action="append", default=[], metavar="N=PATH", help="sabot N's port, over the "
                        "registry's (repeatable): --port 42=/dev/serial/by-id/usb-...")
    parser.add_argument("--db", default="casino.duckdb", help="the casino's fleet database (default casino.duckdb)")
    parser.add_argument("--casino", required=True, help="the casino's name in the database (as fleet ingest)")
    parser.add_argument("--casino-key", metavar="FILE", help="the casino's key file: checked to be the one the "
                        "registry names (each production shoe's key id is compared with the registry's)")
    parser.add_argument("--date", help="the night's date, 2026-12-01 (default: the casino day now, 06:00 to "
                        "06:00 UTC)")
    parser.add_argument("--establishment", metavar="NAME", type=options.ESTABLISHMENT,
                        help="the casino as the reports name it")
    parser.add_argument("--ledgers", metavar="DIR", help="the cagnotte's ledgers of the night, DIR/sabot-NNNN.csv: "
                        "each one's carnet written in DEST/nuit-DATE/carnets/")
    parser.add_argument("--json", action="store_true", help="the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress line per shoe on stderr")


def main(args):
    if args.casino_key:
        from firmware.mac import Key
        from sabot.journalfile import Unusable as KeyUnusable
        from sabot.verify import read_key

        try:
            key_id = Key(read_key(args.casino_key)).id.hex()
        except KeyUnusable as e:
            print("sabot nuit: error: the casino's key: %s" % e, file=sys.stderr)
            return 2
        try:
            listed = keys.shoes(args.registry)
        except (OSError, ValueError, KeyError):
            listed = []
        others = sorted({s.get("casino_key") for s in listed if s.get("casino_key") not in (None, key_id)})
        if others:
            print("sabot nuit: error: %s is key id %s; the registry names %s: another casino's key?" % (
                args.casino_key, key_id, ", ".join(others)), file=sys.stderr)
            return 2
    return nuit(args)

