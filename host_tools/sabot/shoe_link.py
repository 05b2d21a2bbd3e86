"""The technician's link to a shoe: pull the journal, open and close séances (authority.py sets its number and
clock, deploy.py copies a build); through mpremote to a development shoe (mpremote_link.py), through the protocol to a
production one (production_link.py)."""

import ast
import json
import os
import sys
from pathlib import Path

from firmware.format import words
from firmware.format.checkpoint import FILE as CHECKPOINT_FILE
from firmware.records import EMPLOYEE_MAX, TABLE_MAX
from sabot import progress
from sabot.device import DeviceError
from sabot.journalfile import Unusable, load_segments
from sabot.json_out import said
from sabot.mpremote_link import FEED, STATUS_ASKED, mpremote, resume
from sabot.receipt_files import keep_receipt
from sabot.shoe_links import reach
from sabot.shoe_said import failed, fault, fault_in

PULL_ATTEMPTS = 3  # pulls over mpremote before a shoe that keeps writing meanwhile is an error
JOURNAL = "journal"  # on the device, beside the firmware (firmware/startup.py)


# What a pull over mpremote copies: the journal's files, each kept journal's (journal.N) with its files, and whether
# the shoe signs checkpoints (its checkpoint file then written by the pull's checkpoint, if it had none yet).
_LISTING = """import os
from firmware.remote import kept_journals
from firmware.runtime import Runtime
shell = Runtime.current and Runtime.current.shell
print(repr([sorted(os.listdir(%r)), [[n, sorted(os.listdir('%s.%%d' %% n))] for n in kept_journals()],
            bool(shell and shell.checkpoints)]))"""


def pull_log(port, dest, force=False, out=sys.stdout, as_json=False):
    """Copy the device's journal segments into dest (interrupting the running controller: the gate stays
    locked), with the shoe's receipt for them, its signed head under a fresh nonce (receipt.json), to verify
    on the host."""
    dest = Path(dest)
    try:
        shoe = reach(port)
        if shoe.production:
            return _pull_protocol(shoe, port, dest, force, out, as_json)
        for attempt in range(PULL_ATTEMPTS):
            pulled = _pull_mpremote(port, dest, force or attempt > 0)
            if isinstance(pulled, int):
                return pulled
            names, receipt, kept = pulled
            end = _copied_end(dest, names)
            if end >= receipt["seq"]:
                break
            # The shoe wrote records between the copy and its receipt (a development Pico's watchdog restarts a
            # controller stopped too long, its boot's records after the copy): the copy is short of what the receipt
            # vouches for, and would verify as records cut at the end. Pulled again, over this pull's own files.
            print("sabot pull-log: the shoe wrote records during the pull (its journal ends at seq %d, the receipt "
                  "names %d: a restart meanwhile); pulling again" % (end, receipt["seq"]), file=sys.stderr)
        else:
            raise DeviceError("the shoe wrote records during each of %d pulls (is it restarting?); the last pull's "
                              "files are in %s, short of its receipt" % (PULL_ATTEMPTS, dest))
    except (DeviceError, ValueError, SyntaxError, IndexError, OSError, Unusable) as e:
        print("sabot pull-log: error: %s" % e, file=sys.stderr)
        return 2
    return _pulled(dest, names, receipt, out, as_json, kept)


def _pull_mpremote(port, dest, force):
    """One pull over mpremote: (segment names, receipt, kept journals' folders), or the exit code of a shoe in fault.
    Two sessions: the shoe's state and what there is, then the checkpoint, the copies and the receipt in one. The
    controller stopped, a development Pico's watchdog resets it within 5 s: each session more spent on starting
    mpremote could let the shoe restart mid-pull."""
    lines = mpremote(port, "exec", STATUS_ASKED, "+", "exec", _LISTING % (JOURNAL, JOURNAL)).strip().splitlines()
    in_fault_said = fault_in(port, json.loads(lines[-2]))
    if in_fault_said:
        resume(port)
        return failed("pull-log", in_fault_said + "; nothing pulled")
    listed, kept_listed, signs = ast.literal_eval(lines[-1])
    names = [n for n in listed if n.endswith(".sbj")]
    _destination(names, dest, force)
    # A signed checkpoint before the copy (firmware/remote.py), so that the pull holds one covering its end. Before each
    # step the watchdog fed (FEED): each has the 5 s a development Pico's gives a stopped loop, not the whole session.
    args = ["exec", FEED + "from firmware.remote import checkpoint\ncheckpoint()"]
    copies = [(JOURNAL, dest, names + ([CHECKPOINT_FILE] if signs or CHECKPOINT_FILE in listed else []))]
    kept = []
    for n, files in kept_listed:  # every journal the shoe kept aside (/journal.N/), as over the protocol
        folder = dest / ("%s.%d" % (JOURNAL, n))
        folder.mkdir(exist_ok=True)
        kept.append(folder)
        copies.append(("%s.%d" % (JOURNAL, n), folder, [f for f in files if f.endswith(".sbj")
                                                         or f == CHECKPOINT_FILE]))
    for folder, into, files in copies:
        for name in files:
            args += ["+", "exec", FEED, "+", "fs", "cp", ":%s/%s" % (folder, name), str(into / name)]
    nonce = os.urandom(32)
    args += ["+", "exec", FEED + "from firmware.remote import receipt\nreceipt(%r)" % nonce.hex()]
    with progress.bar(len(names), "pull-log", unit="segment") as shown:
        said = mpremote(port, *args, each_line=lambda line: shown.update(line.startswith("cp :%s/" % JOURNAL)))
    return names, keep_receipt(dest, port, nonce, json.loads(said.strip().splitlines()[-1])), kept


def _copied_end(dest, names):
    """The seq of the last whole record the copied segments hold (the last segment's seq before it and its frames),
    read as the verifier does (sabot.journalfile)."""
    last = load_segments([dest / n for n in names])[-1]
    return last.seq_before + (len(last.data) - last.format.header_size) // last.format.frame_size


def _destination(segments, dest, force):
    """The folder a pull writes to, made; a DeviceError when the shoe has no segments, or the folder holds some
    already (without force)."""
    if not segments:
        raise DeviceError("no journal segments on the device")
    if not force and dest.is_dir() and any(dest.glob("*.sbj")):
        raise DeviceError("%s already holds journal segments: pull into a new folder, or give --force to "
                          "write over them" % dest)
    dest.mkdir(parents=True, exist_ok=True)


def _pulled(dest, names, receipt, out, as_json=False, kept=()):
    size = sum((dest / n).stat().st_size for n in names)
    also = " ".join(map(str, kept))
    if receipt.get("receipt") in (2, 3):  # signed by the element
        how = ("--registry shoes.json (sabot %d's element, key id %s: its checkpoints and receipt, counter %d)"
               % (receipt["sabot"], receipt["key_id"], receipt["counter"]))
    else:
        how = "--allow-development-key (no secure element: a development board's journal)"
    if as_json:
        return said(out, "pull-log", folder=str(dest), sabot=receipt.get("sabot"), segments=len(names), bytes=size,
                    receipt={k: receipt.get(k) for k in ("seq", "key_id", "counter", "kept")},
                    written=[str(dest / n) for n in names + [CHECKPOINT_FILE, "receipt.json", "pull.json",
                                                             receipt.get("kept") or "receipt.json"]
                             if (dest / n).is_file()],
                    kept_journals=[str(folder) for folder in kept],
                    verify="sabot log verify %s%s %s" % (also + " " if also else "", dest, how.split(" (")[0]))
    if kept:
        out.write("the journals the shoe kept aside (a new number), pulled too: %s; each follows the next, checked "
                  "by log verify given them in order\n" % ", ".join(map(str, kept)))
    out.write("%d segments, %d bytes, and the shoe's receipt (seq %d), in %s (receipt.json, kept as %s); check them "
              "with: sabot log verify %s%s %s\n" % (len(names), size, receipt["seq"], dest, receipt["kept"],
                                                     also + " " if also else "", dest, how))
    return 0


def _pull_protocol(shoe, port, dest, force, out, as_json=False):
    """pull-log over the protocol (shoe: shoe_links' ProtocolShoe): every segment, chunk by chunk, and the receipt
    under a fresh nonce."""
    from firmware.storage import segment_name
    from sabot.protocol import ProtocolError, Refused

    client = shoe.client
    try:
        said = fault_in(port, shoe.status())
        if said:
            return failed("pull-log", said + "; nothing pulled")
        listed = client.segments()
        _destination(listed, dest, force)
        pulled = {}
        for _ in range(PULL_ATTEMPTS):
            _pull_journal(client, dest, listed, pulled=pulled)
            nonce = os.urandom(32)
            receipt = keep_receipt(dest, port, nonce, client.receipt(nonce))
            end = _copied_end(dest, [segment_name(segment) for segment, _ in listed])
            if end >= receipt["seq"]:
                break
            # A shoe in service journals while it is pulled (a card, a séance): the receipt, asked after the copy,
            # names records the copy lacks, and would verify as a journal cut at the end. What grew is pulled again.
            print("sabot pull-log: the shoe journalled records during the pull (the copy ends at seq %d, the "
                  "receipt names %d); pulling what grew" % (end, receipt["seq"]), file=sys.stderr)
            listed = client.segments()
        else:
            raise DeviceError("the shoe journalled records during each of %d pulls; the last pull's files are in "
                              "%s, short of its receipt: pull again between coups" % (PULL_ATTEMPTS, dest))
        kept = []
        for n in client.status().get("kept", ()):  # the journals a new number set aside: every one pulled
            folder = dest / ("journal.%d" % n)
            folder.mkdir(exist_ok=True)
            _pull_journal(client, folder, client.segments(n), n)
            kept.append(folder)
    except (DeviceError, ProtocolError, Refused, OSError, ValueError, Unusable) as e:
        print("sabot pull-log: error: %s" % e, file=sys.stderr)
        return 2
    finally:
        client.link.close()
    return _pulled(dest, [segment_name(segment) for segment, _ in listed], receipt, out, as_json, kept)


def _pull_journal(client, folder, listed, kept=0, pulled=None):
    """A journal's segments (listed: (segment, size)) and its checkpoint file into folder, over the protocol: the
    shoe's journal, or the one it kept aside as journal.N (kept N). pulled: {segment: size} this pull copied already,
    kept up to date; a segment still of that size is not read again (a segment only grows)."""
    from firmware.storage import segment_name
    from sabot.protocol import Refused

    pulled = {} if pulled is None else pulled
    with progress.bar(len(listed), "pull-log", unit="segment") as shown:
        for segment, size in listed:
            if pulled.get(segment) != size:
                (folder / segment_name(segment)).write_bytes(client.segment(segment, size, kept))
                pulled[segment] = size
            shown.update(1)
    try:
        points = client.segment(0, 1 << 30, kept)  # segment 0: the checkpoint file, read to its end
    except Refused:
        points = None  # a shoe with no element, or no checkpoint yet
    if points:
        (folder / CHECKPOINT_FILE).write_bytes(points)


def seance_command(port, action, table, game, by, out=sys.stdout, casino_key=None, as_json=False):
    """Open or close a séance on a running shoe: a production shoe over its protocol, under the casino's key; a
    development shoe's loop interrupted, handed the séance, started again. Says the record the shoe wrote, or fails
    (exit 1) when it refused or is in fault."""
    if action == "open" and not (1 <= table <= TABLE_MAX and 0 <= by <= EMPLOYEE_MAX):
        print("sabot seance: error: --table 1 to %d and --by 0 to %d are needed to open a séance" % (
            TABLE_MAX, EMPLOYEE_MAX), file=sys.stderr)
        return 2
    try:
        link = reach(port, casino_key)
        shoe = (link.status() or {}) if as_json else {}
        answer = link.seance(table, game, by, action == "close")
        link.done()
    except DeviceError as e:
        print("sabot seance: error: %s" % e, file=sys.stderr)
        return 2
    ended = answer.get("closed")
    if ended:  # a séance was open: the shoe closed it first (Article 58: each séance assigned at its start)
        out.write("seance %d closed at table %d, record %d: it was open\n" % (
            ended["seance"], ended["table"], ended["seq"]))
    if "seq" not in answer:
        return failed("seance", "the shoe on %s refused: %s" % (port, words.said(words.REFUSALS, answer["refused"]))
                       if "refused" in answer else fault(port, answer))
    if as_json:
        return said(out, "seance " + action, port=port, sabot=shoe.get("sabot"), seance=answer["seance"],
                    table=answer["table"], game=game if action == "open" else None,
                    by=by if action == "open" else None, record=answer["seq"])
    out.write("seance %d %s at table %d, record %d%s\n" % (
        answer["seance"], "closed" if action == "close" else "opened", answer["table"], answer["seq"],
        "; the employee who assigned it not given (--by): journalled as 0, not given" if action == "open" and not by
        else ""))
    return 0
