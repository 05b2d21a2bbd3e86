"""Issue 13's attacks on the journal done as a cheat with a technician's access would do them: through the real
mpremote against the virtual board (the firmware in a MicroPython unix process behind a pty, its flash a folder),
after a forced card and its alarm: the newest segment deleted, its last frames cut (with the checkpoints written
since, to match), or an older image of the journal folder put back, then the shoe restarted by a soft reset. The
signed checkpoints and the secure element's counter, which no file on the shoe can put back, catch all three at
boot (J-TAMPER: locked, only the supervisor clears it, closed after); the receipt an inspector kept from an earlier
pull catches them too (docs/keys.md, docs/journal-format.md)."""

import json
import struct
from types import SimpleNamespace

import pytest

from boards.sim.element import SimElement
from firmware import layout as fmt
from firmware import records as rec
from firmware.controller import CLOSED, IDLE
from firmware.devkey import DEVELOPMENT_KEY
from firmware.format import checkpoint as cp
from sabot.journalfile import CODE, SEQ, TYPE, Reader, load_segments
from sabot.mpremote_link import mpremote
from tests.host.test_commissioning import MPREMOTE, run, sabot
from tests.host.test_element import _element
from tests.host.test_vboard import VirtualBoard

DEALT = "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\n"
FORCED = "shoe seed=5\nno_more_bets\ndraw 4\ncoup_end\nforce\n"  # the forced card and its alarm, the cheat's target
STATUS = ("import json\nfrom firmware.runtime import Runtime\nfrom firmware import records as r\n"
          "s = Runtime.current.shell\nc = s.ctl\n"
          "print(json.dumps({'rollback': bool(c.raised(r.FAULT_ROLLBACK)), 'forced': bool(c.raised(r.ALARM_FORCED)),"
          " 'locked': c.locked(), 'phase': c.phase, 'gate open': s.gate.is_open, 'refused': c.refused}))")
PRESS = "from boards.vboard import board as vboard\nfrom firmware.events import %s\nvboard.BOARD.press(%s)"


def play(board, tmp_path, text):
    (tmp_path / "scenario.txt").write_text(text)
    mpremote(board.port, "fs", "--no-verbose", "cp", str(tmp_path / "scenario.txt"), ":scenario.txt")
    board.exec("from boards.vboard import board as vboard\nvboard.play('scenario.txt')")


def status(board):
    """What the shoe itself says of its state, asked over mpremote as a technician would."""
    return json.loads(board.exec(STATUS).strip().splitlines()[-1])


def press(board, event):
    board.exec(PRESS % (event, event))


def restart(board):
    """A plain `mpremote exec` soft-resets the shoe first, as on a Pico: the controller boots again from its flash."""
    done = run(MPREMOTE, "connect", board.port, "exec", "print('restarted')")
    assert done.returncode == 0 and "restarted" in done.stdout, done.stderr


def segment_names(board):
    listing = board.exec("import os\nprint(sorted(n for n in os.listdir('journal') if n.endswith('.sbj')))")
    return json.loads(listing.strip().splitlines()[-1].replace("'", '"'))


def pull(board, folder):
    pulled = sabot("pull-log", "--port", board.port, folder)
    assert pulled.returncode == 0, pulled.stderr
    return folder


def verify(journal, *receipts, public=None):
    """verify's exit code and its J-TAMPER findings' messages."""
    said = sabot("log", "verify", "--lang", "en", journal, "--json", *[a for r in receipts for a in ("--receipt", r)],
                 *(("--public-key", public) if public else ()))
    return said.returncode, [f["message"] for f in json.loads(said.stdout)["findings"] if f["id"] == "J-TAMPER"]


def delete_newest_segment(board, tmp_path):
    mpremote(board.port, "fs", "rm", ":journal/" + segment_names(board)[-1])


def cut_last_frames(board, tmp_path):
    """Read the newest segment, write it back two frames shorter: the forced card's record and its alarm."""
    name = ":journal/" + segment_names(board)[-1]
    local = tmp_path / "segment.sbj"
    mpremote(board.port, "fs", "cp", name, str(local))
    local.write_bytes(local.read_bytes()[:-2 * fmt.FRAME_SIZE])
    mpremote(board.port, "fs", "cp", str(local), name)


def cut_last_frames_and_checkpoints(board, tmp_path):
    """The forced card's record and its alarm cut, and every checkpoint past the new end cut to match (the alarm's
    and the earlier pull's): every file on the shoe agrees again; the element's counter does not."""
    cut_last_frames(board, tmp_path)
    end = struct.unpack_from("<I", (tmp_path / "segment.sbj").read_bytes(), -fmt.FRAME_SIZE + fmt.SEQ_AT)[0]
    local = tmp_path / cp.FILE
    mpremote(board.port, "fs", "cp", ":journal/" + cp.FILE, str(local))
    data = local.read_bytes()
    entries = [data[i:i + cp.SIZE] for i in range(0, len(data), cp.SIZE)]
    kept = [e for e in entries if struct.unpack_from(cp.ENTRY, e)[5] <= end]
    assert len(kept) < len(entries)
    local.write_bytes(b"".join(kept))
    mpremote(board.port, "fs", "cp", str(local), ":journal/" + cp.FILE)


@pytest.fixture(scope="module", params=[delete_newest_segment, cut_last_frames, cut_last_frames_and_checkpoints],
                ids=lambda f: f.__name__)
def attacked(request, tmp_path_factory, mpy_build):
    """A shoe that dealt a forced card, pulled by an inspector (receipt at T1), then damaged over mpremote and
    restarted: what it said of itself after the restart and after the supervisor's key, and a new pull."""
    tmp_path = tmp_path_factory.mktemp(request.param.__name__)
    board = VirtualBoard(tmp_path)
    try:
        play(board, tmp_path, DEALT)
        play(board, tmp_path, FORCED)
        before = status(board)
        earlier = pull(board, tmp_path / "t1")
        request.param(board, tmp_path)
        restart(board)
        restarted = status(board)
        restart(board)  # a second boot does not launder the fault: it is in the journal now
        again = status(board)
        later = pull(board, tmp_path / "t2")
        press(board, "EV_CLEAR")  # the supervisor's key
        cleared = status(board)
        press(board, "EV_NO_MORE_BETS")  # the croupier tries to deal the next coup
        dealt = status(board)
    finally:
        board.close()
    public = tmp_path / "element.pub"  # what the casino enrolled: the element's public key, read off it
    public.write_text(_element(SimElement.load(str(tmp_path / "fs.element"))).public_key(1).hex())
    return SimpleNamespace(before=before, restarted=restarted, again=again, cleared=cleared, dealt=dealt,
                           earlier=earlier, later=later, public=public)


@pytest.mark.req("J-TAMPER", "S-FORCED", "S-FAILSAFE", "S-STOP")
def test_the_shoe_restarted_after_the_attack_raises_the_rollback_fault_and_stays_locked(attacked):
    assert attacked.before["forced"] and not attacked.before["rollback"]
    for said in (attacked.restarted, attacked.again):
        assert said["rollback"] and said["locked"] and not said["gate open"]
        assert not said["forced"]  # the forced card's alarm went with the records, the rollback fault stands in
    assert not attacked.cleared["rollback"] and attacked.cleared["locked"]  # only the supervisor's key clears it
    # No coup until a new shoe is loaded: closed, or with no shoe at all when the shoe's loading went too.
    assert attacked.cleared["phase"] in (CLOSED, IDLE)
    assert attacked.dealt["refused"] and attacked.dealt["locked"] and not attacked.dealt["gate open"]


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_the_journal_pulled_after_the_attack_does_not_extend_the_receipt_pulled_before_it(attacked):
    code, tampered = verify(attacked.later, attacked.earlier / "receipt.json")
    assert code == 1 and len([m for m in tampered if "does not extend" in m]) == 1, tampered
    assert len(tampered) == 2 and any("behind its last signed checkpoint" in m for m in tampered), tampered


@pytest.mark.req("J-TAMPER", "H-VERIFY", "K-ELEMENT", "K-COUNTER")
def test_the_checkpoints_pulled_before_the_attack_verify_and_those_after_it_fail_with_the_public_key(attacked):
    code, tampered = verify(attacked.earlier, public=attacked.public)
    assert [m for m in tampered if "receipt" not in m] == [], tampered  # T1: every checkpoint signed and in place
    code, tampered = verify(attacked.later, public=attacked.public)
    assert code == 1
    said = [m for m in tampered if "checkpoint" in m]
    # Cut or deleted records leave checkpoints naming records the journal no longer holds, or records written
    # again at their seq after the restart (another chain), or, with the checkpoints cut to match, a gap.
    assert any(m.endswith(("records cut or deleted", "records altered or replaced", "checkpoint(s) missing"))
               for m in said), tampered


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_verify_of_the_journal_pulled_after_the_attack_reports_the_shoes_rollback_fault(attacked):
    records = list(Reader(load_segments([attacked.later]), DEVELOPMENT_KEY))
    fault = [r.fields[SEQ] for r in records if r.fields[TYPE] == rec.R_ALARM and r.fields[CODE] == rec.FAULT_ROLLBACK]
    assert len(fault) == 1  # at the first boot after the attack; the second replays it from the journal
    said = sabot("log", "verify", "--lang", "en", attacked.later, "--json")
    assert said.returncode == 1
    assert fault[0] in [f["seq"] for f in json.loads(said.stdout)["findings"] if f["id"] == "J-TAMPER"]


@pytest.mark.req("J-TAMPER", "H-VERIFY", "S-FORCED", "K-COUNTER")
def test_an_older_flash_image_put_back_is_behind_the_elements_counter_and_fails_verify_with_a_later_receipt(
        tmp_path, mpy_build):
    """The cheat copies the journal folder (its checkpoints in it) at T1, lets the shoe deal a forced card, and puts
    it back whole. Every file agrees with every other, but not with the secure element's counter, which counted the
    checkpoints written since and which nothing on the flash can put back: the shoe raises the rollback fault at
    boot. The receipt an inspector pulled at T2 catches it too."""
    board = VirtualBoard(tmp_path)
    image = tmp_path / "image"
    try:
        play(board, tmp_path, DEALT)
        image.mkdir()
        mpremote(board.port, "fs", "cp", "-r", ":journal", str(image))
        kept = sorted(p.name for p in (image / "journal").iterdir())
        assert cp.FILE in kept
        play(board, tmp_path, FORCED)
        assert status(board)["forced"]
        inspected = pull(board, tmp_path / "t2")
        for name in board_files(board):
            mpremote(board.port, "fs", "rm", ":journal/" + name)
        for name in kept:
            mpremote(board.port, "fs", "cp", str(image / "journal" / name), ":journal/" + name)
        restart(board)
        said = status(board)
        assert said["rollback"] and said["locked"] and not said["gate open"]
        later = pull(board, tmp_path / "t3")
    finally:
        board.close()
    code, tampered = verify(later, inspected / "receipt.json")
    assert code == 1 and any("does not extend" in m for m in tampered), tampered
    assert any("behind its last signed checkpoint" in m for m in tampered), tampered


def board_files(board):
    listing = board.exec("import os\nprint(sorted(os.listdir('journal')))")
    return json.loads(listing.strip().splitlines()[-1].replace("'", '"'))


@pytest.mark.req("J-TAMPER", "K-COUNTER", "S-IDENT")
def test_a_journal_begun_by_a_new_number_raises_no_fault_and_the_journal_folder_deleted_does(tmp_path, mpy_build):
    """The legitimate new journal (a new number: the old one kept aside, the new one's first checkpoint "journal
    begun" written before the restart) boots clean and verifies with the public key; the journal folder deleted
    over mpremote, checkpoints and all, is behind the element's counter: the rollback fault."""
    board = VirtualBoard(tmp_path)
    try:
        play(board, tmp_path, DEALT + "seance_close\n")  # a new number with no séance open (P-AUTHORITY)
        renumbered = sabot("number", "set", "--port", board.port, 7)
        assert renumbered.returncode == 0 and "a new one begun" in renumbered.stdout, renumbered.stderr
        assert not status(board)["rollback"]  # and its exit 0 says no alarm at all after its restart
        play(board, tmp_path, "seance table=3\nshoe seed=6\nno_more_bets\ndraw 4\ncoup_end\n")
        begun = pull(board, tmp_path / "begun")
        assert cp.FILE in board_files(board)
        kept = begun / "journal.1"  # the journal the new number set aside, pulled too (issue 38)
        assert (kept / cp.FILE).is_file() and list(kept.glob("*.sbj"))
        mpremote(board.port, "exec", "import os\nfor n in os.listdir('journal'):\n    os.remove('journal/' + n)\n"
                                     "os.rmdir('journal')")
        restart(board)
        deleted = status(board)
    finally:
        board.close()
    first = (begun / cp.FILE).read_bytes()[:cp.SIZE]
    assert struct.unpack_from(cp.ENTRY, first)[1] == cp.BEGUN
    public = tmp_path / "element.pub"
    public.write_text(_element(SimElement.load(str(tmp_path / "fs.element"))).public_key(1).hex())
    said = sabot("log", "verify", "--lang", "en", begun, "--json", "--public-key", public)
    answer = json.loads(said.stdout)
    assert answer["ok"] and answer["checkpoints"]["checked"] and answer["checkpoints"]["records_after"] == 0, answer
    both = json.loads(sabot("log", "verify", "--lang", "en", kept, begun, "--json", "--public-key", public).stdout)
    assert not [f for f in both["findings"] if "ends at counter" in f["message"]], both  # it begins where it ends,
    assert not [f for f in both["findings"] if "no receipt" in f["message"]], both  # which vouches for that end
    assert deleted["rollback"] and deleted["locked"] and not deleted["gate open"]
