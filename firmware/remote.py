"""What a technician's mpremote runs on a running shoe: the shoe was interrupted to run it, and resume() starts
it again (run with mpremote exec --no-follow). Each command answers one JSON line, which the host's side
(host_tools/sabot/shoe_link.py) turns into what it says and its exit status: what the shoe did and the record's
sequence number, or that it refused, or that it is in fault and did nothing. The answers are built by functions that
take the shell (status, open_seance, clock), which the production shoe's protocol (firmware/protocol.py) calls too."""

import json
import os
from binascii import hexlify

from firmware.events import EV_AUTHORITY, EV_SEANCE, EV_SEANCE_CLOSE
from firmware.games import by_name
from firmware.journal import JournalError, parse_header
from firmware.layout import HEADER_SIZE, MAGIC, VERSION
from firmware.records import (
    AU_CLOCK,
    AU_CLOCK_FORCED,
    AU_KEY,
    AU_NUMBER,
    CLOCK_AHEAD_MOST,
    EMPLOYEE_MAX,
    SABOT_MAX,
    TABLE_MAX,
    TABLE_MIN,
    pack_seance,
)
from firmware.runtime import Runtime
from firmware.startup import CASINO_KEY, CONFIG, ENROLMENT_KEY, JOURNAL, check_config, load_config, whole
from firmware.storage import FileStorage


def _runtime():
    runtime = Runtime.current
    if runtime is None:
        raise RuntimeError("the controller is not running on this shoe")
    return runtime


def _say(**answer):
    print(json.dumps(answer))


def _last_seconds(journal):
    """The journal's last record's time, seconds since 2020-01-01 UTC (0 before any record)."""
    body = journal.body
    return body[1] | body[2] << 8 | body[3] << 16 | body[4] << 24


def status(shell, other=True):
    """The shoe as a command leaves it: its journal's last record and its faults (after a restart, its boot). other:
    other_journal() as the caller read it (the protocol: once a boot), True to read it now."""
    journal = shell.journal
    return {"sabot": journal.sabot, "seq": journal.seq, "seconds": _last_seconds(journal), "alarms": shell.ctl.alarms,
            "broken": journal.broken, "key": hexlify(journal.key.id or bytes(8)).decode(),
            "other": other_journal() if other is True else other, "seance": shell.ctl.seance, "table": shell.ctl.table}


def state():
    _say(**status(_runtime().shell))


def _fault(shell):
    """The answer of a shoe that can journal nothing, or has an alarm or fault raised: it is not handed the act."""
    if shell.journal.broken or shell.ctl.alarms:
        return {"fault": shell.ctl.alarms, "broken": shell.journal.broken, "other": other_journal()}
    return None


def seance(table, game, by, close=False):
    """A séance opened (or closed) by the responsible employee (S-IDENT, Article 58), over mpremote: its values
    refused before the shoe is asked."""
    if not close:
        _seance_game(table, game, by)
    runtime = _runtime()
    _say(**open_seance(runtime.shell, runtime.now(), table, game, by, close))


def open_seance(shell, now, table, game, by, close=False):
    """The séance opened at table by employee by, in the game named: the record's sequence number, or the refusal,
    or the fault. A table, game or employee out of range is refused before the shoe hears of it (ValueError;
    closing takes none of them)."""
    if not close:
        game = _seance_game(table, game, by)
    fault = _fault(shell)
    if fault:
        return fault
    shell.journal.reopen()
    was = shell.ctl.table  # a séance's close leaves no table
    ended = None
    if not close and was:  # a séance opened over the open one: that one closed first, journalled (Article 58)
        seq = shell.journal.seq
        shell.handle(EV_SEANCE_CLOSE, 0, now)
        if shell.ctl.refused:
            return {"refused": shell.ctl.refused}
        if shell.journal.seq == seq:
            return _fault(shell) or {"fault": 0, "broken": True, "other": None}
        ended = {"seance": shell.ctl.seance, "table": was, "seq": shell.journal.seq}
    seq = shell.journal.seq
    if close:
        shell.handle(EV_SEANCE_CLOSE, 0, now)
    else:
        shell.handle(EV_SEANCE, pack_seance(table, game, by), now)
    points = shell.checkpoints
    if points is not None:
        points.finish()  # its checkpoint signed before the answer: the casino's next act finds the shoe free
    if shell.ctl.refused:
        return {"refused": shell.ctl.refused, "closed": ended} if ended else {"refused": shell.ctl.refused}
    if shell.journal.seq > seq:
        answer = {"seance": shell.ctl.seance, "table": was if close else shell.ctl.table, "seq": shell.journal.seq}
        if ended:
            answer["closed"] = ended
        return answer
    return _fault(shell) or {"fault": 0, "broken": True, "other": None}  # nothing journalled: never say it was done


def _seance_game(table, game, by):
    """The game's index, when the table, the game and the employee are in range; ValueError otherwise."""
    whole("table", table, TABLE_MIN, TABLE_MAX)
    whole("employee", by, 0, EMPLOYEE_MAX)
    return by_name(game)


def other_journal():
    """The journal on flash when it is not this shoe's as configured: its sabot number and key id, which differ
    from config.json's and from the running shoe's element (None when they match, or there is none)."""
    if JOURNAL not in os.listdir():
        return None  # none on flash (a shoe whose journal is elsewhere, the sim's in RAM): not another's
    storage = FileStorage(JOURNAL)
    try:
        segments = storage.segments()
        if not segments:
            return None
        with storage.reader(segments[-1]) as stream:
            header = stream.read(HEADER_SIZE)
        fields = parse_header(header)
    except JournalError:
        if len(header) >= 20 and header[:3] == MAGIC and header[3] != VERSION:  # another format's: kept aside
            return {"sabot": header[6] | header[7] << 8, "key": hexlify(header[12:20]).decode(), "format": header[3]}
        return None  # unreadable: not a question of number or key
    except OSError:
        return None
    shell = _running()
    key_id = shell.journal.key.id if shell is not None else fields[5]
    try:
        sabot = load_config()["sabot"]
    except (OSError, ValueError):
        sabot = None
    if fields[3] == sabot and fields[5] == key_id:
        return None
    return {"sabot": fields[3], "key": hexlify(fields[5]).decode()}


def kept_journals():
    """The numbers N of the journals kept aside on the shoe (journal.N, _keep_aside()), in order: pull-log takes
    them too."""
    kept = []
    prefix = JOURNAL + "."
    for name in os.listdir():
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            kept.append(int(name[len(prefix):]))
    return sorted(kept)


def kept_storage(n):
    """A kept journal's segment files (journal.N), None when there is none."""
    name = "%s.%d" % (JOURNAL, n)
    return FileStorage(name) if name in os.listdir() else None


def _keep_aside(shell=None):
    """The journal folder, its checkpoints inside it, moved whole to journal.N (the first N free): kept, never
    deleted, and the shoe begins a new journal at its next boot; its first checkpoint, "journal begun", is written
    now, so that the next power-up finds an empty journal legitimately (firmware/checkpoints.py)."""
    names = os.listdir()
    n = 1
    while "%s.%d" % (JOURNAL, n) in names:
        n += 1
    kept = "%s.%d" % (JOURNAL, n)
    shell = _running(shell)
    points = None  # no shoe running (a technician's stopped one): its files alone
    if shell is not None:
        shell.journal.storage.set_aside()  # the ring's entries are that journal's (firmware/ring.py)
        points = shell.checkpoints  # a board with an element (firmware/checkpoints.py)
        if points is not None:
            points.settle()  # a coup's opening held goes with its journal
    os.rename(JOURNAL, kept)
    if points is not None:
        try:
            points.begin(load_config()["sabot"])
        except (OSError, ValueError) as e:
            print("checkpoints: the new journal's first not written:", e)  # its power-up then faults: safe
    return kept


def element_key():
    """The shoe's number and its secure element's public key (`sabot key enrol` on a development shoe), None when no
    element answers."""
    shell = _runtime().shell
    points = shell.checkpoints
    public = None
    error = "this board has no secure element"
    if points is not None and points.element is not None:
        from firmware.checkpoints import journal_key

        try:
            public = hexlify(journal_key(points.element)[1]).decode()  # the chip's, never a file's choice
        except OSError as e:
            error = str(e)  # no element answering (its driver says where it looked): it cannot be enrolled
    _say(sabot=shell.journal.sabot, public_key=public, **({} if public else {"error": error}))


def provision_element(provision):
    """The factory bench (`sabot element provision` on a development shoe): the board's blank generic ATECC608B
    configured, locked, its key generated and moved to the board's address by provision(driver) (the caller's, from
    boards/mcu/provision.py: the firmware imports no board), which refuses a locked or foreign part and then changes
    nothing. A journal begun while no element answered names none (its key id zeros): it is kept aside, never
    deleted (_keep_aside), so that the shoe, powered up again, begins one its element vouches for."""
    shell = _runtime().shell
    points = shell.checkpoints
    if points is None or points.element is None:
        _say(refused="this board has no secure element to provision")
        return
    try:
        public = provision(points.element)  # slot 1's: the key that vouches for the journal from now on
    except (OSError, ValueError) as e:
        _say(refused=str(e))
        return
    kept = None
    if shell.journal.key.id in (None, bytes(8)) and JOURNAL in os.listdir():
        _drained(shell)
        kept = _keep_aside(shell)
    _say(sabot=shell.journal.sabot, public_key=hexlify(public).decode(), kept=kept)


def checkpoint():
    """A checkpoint before the journal is pulled (`sabot pull-log` over mpremote), so that the pull holds one
    covering its last record."""
    shell = _runtime().shell
    points = shell.checkpoints
    if points is not None:
        from firmware.format.checkpoint import PULL

        points.write(shell.journal, PULL)
    _say(seq=shell.journal.seq)


def _running(shell=None):
    """The shell given (the protocol passes its own), else the running shoe's, else None."""
    if shell is None and Runtime.current is not None:
        shell = Runtime.current.shell
    return shell


def _drained(shell=None):
    """The running shoe's journal as files, its ring's entries drained into them (an orderly stop, then on), so that
    other_journal reads the header of the journal the shoe writes, even one only just begun in its ring."""
    shell = _running(shell)
    if shell is not None:
        shell.journal.close()
        shell.journal.reopen()


def number(sabot):
    """The shoe's establishment number (S-IDENT) set over mpremote (renumber())."""
    _say(**renumber(sabot))


def journalled(shell, what, who, before, after):
    """The authority change (records.R_AUTHORITY: what, who asked, the values before and after, 32-bit each)
    journalled before it takes effect: None when done, else the answer that refuses it (the controller's refusal:
    an alarm standing, a séance open) or says the fault (nothing could be journalled)."""
    shell = _running(shell)
    if shell is None:
        return None  # no shoe running this journal (a tool's): nothing to journal in
    if shell.journal.broken:
        return _fault(shell) or {"fault": 0, "broken": True, "other": None}
    shell.journal.reopen()
    asked = shell.ctl.asked
    asked[0:4] = bytes(who or bytes(4))[:4]
    for at, value in ((4, before), (8, after)):
        for i in range(4):
            asked[at + i] = value >> 8 * i & 255
    seq = shell.journal.seq
    shell.handle(EV_AUTHORITY, what, shell.ctl.now)
    if shell.ctl.refused:
        return {"refused": shell.ctl.refused}
    if shell.journal.seq == seq:
        return _fault(shell) or {"fault": 0, "broken": True, "other": None}
    return None


def renumber(sabot, shell=None, who=None):
    """The shoe's establishment number (S-IDENT) written to config.json, journalled first (P-AUTHORITY: refused
    while an alarm stands or a séance is open); a journal of another number is kept aside (_keep_aside()). The shoe
    is then restarted, and journals its boot under the new number. A shoe whose journal is unusable (another's:
    a copied config.json) journals nothing: the new number begins its own journal, the other one kept."""
    whole("sabot", sabot, 0, SABOT_MAX)
    config = load_config()
    was = config["sabot"]
    shell = _running(shell)
    if was != sabot and shell is not None and not shell.journal.broken:
        refused = journalled(shell, AU_NUMBER, who, was, sabot)
        if refused:
            return refused
    config["sabot"] = sabot
    with open(CONFIG, "w") as f:
        json.dump(check_config(config), f)
    _drained(shell)
    other = other_journal()
    return {"sabot": sabot, "was": was, "kept": _keep_aside(shell) if other else None, "other": other}


def enrol_casino(key, shell=None, who=None, was=None, first=False):
    """The casino's key (32 bytes) written where the shoe reads it at boot (startup.CASINO_KEY), whole or not at all,
    journalled first (P-AUTHORITY: who asked, the key ids' first 4 bytes before and after; refused while an alarm
    stands or a séance is open): the answer that refuses it, or None when done. The protocol authenticates the
    shoe's commands under it (docs/protocol.md). first: taken under the factory's enrolment code (who is its id),
    which is then spent, its file removed once the casino's key is whole."""
    from firmware.mac import Key

    refused = journalled(shell, AU_KEY, who, _id32(was), _id32(Key(key).id))
    if refused:
        return refused
    folder = CASINO_KEY.rpartition("/")[0]
    if folder not in os.listdir():
        os.mkdir(folder)
    with open(CASINO_KEY + ".new", "w") as f:
        f.write(hexlify(key).decode() + "\n")
    os.rename(CASINO_KEY + ".new", CASINO_KEY)
    if first:
        try:
            os.remove(ENROLMENT_KEY)
        except OSError:
            pass  # a shoe given its code by a test, in memory: nothing to spend on its flash
    return None


def _id32(key_id):
    """A key id's first 4 bytes as R_AUTHORITY's value (little-endian: its bytes in the record's order), 0 for none."""
    if not key_id:
        return 0
    return key_id[0] | key_id[1] << 8 | key_id[2] << 16 | key_id[3] << 24


def set_clock(seconds, year, month, day, hour, minute, second, force=False):
    """The board's clock set over mpremote (clock())."""
    _say(**clock(_runtime().shell, seconds, (year, month, day, hour, minute, second), force=force))


def clock(shell, seconds, fields, board=None, who=None, force=False):
    """The board's clock (its DS3231; the virtual board's own) set to UTC from the workstation, fields (year, month,
    day, hour, minute, second). Refused when it would put the journal's times back, or put them more than a day
    ahead of its last record without force (a clock set to 2099 would lock the casino out for good); journalled
    first either way (P-AUTHORITY: the shoe's time before, the time set; AU_CLOCK_FORCED when forced past a day).
    The host restarts the shoe, whose boot record is stamped by it."""
    last = _last_seconds(shell.journal)
    if seconds < last:
        return {"behind": last}
    ahead = seconds > last + CLOCK_AHEAD_MOST
    if ahead and not force:
        return {"ahead": last}
    wall = shell.journal.wall
    wall.stamp()
    refused = journalled(shell, AU_CLOCK_FORCED if ahead else AU_CLOCK, who, wall.seconds, seconds)
    if refused:
        return refused
    if board is None:
        board = __import__("boards.%s.board" % load_config()["board"], None, None, ("set_clock",))
    board.set_clock(*fields)
    return {"set": seconds, "forced": ahead}


def receipt(nonce_hex):
    """The journal's head signed with the host's fresh nonce, by the shoe's secure element when it has one (under
    its key otherwise), as one JSON line (`sabot pull-log` writes it beside the segments it pulled;
    docs/journal-format.md)."""
    from binascii import unhexlify

    from firmware.receipt import receipt as signed_head

    nonce = unhexlify(nonce_hex)
    if len(nonce) < 16:
        raise ValueError("a nonce of at least 16 bytes")
    shell = _runtime().shell
    print(signed_head(shell.journal, nonce, shell.checkpoints))


def resume():
    """Serve again after a technician's command (run with mpremote exec --no-follow)."""
    _runtime().serve()
