"""Journals the specified shoe could not have written, properly signed, are each flagged by verify with the
requirement they break (H-VERIFY; issue 13, items 6 and 9): the verifier knows the whole state machine, not only
the integrity of the bytes."""

import pytest

from firmware import layout
from firmware.records import (
    BOOT_RESTART,
    BOOT_WATCHDOG,
    F_NO_STOP,
    FAULT_DEVKEY,
    FAULT_FIRMWARE,
    FAULT_OVERRUN,
    FAULT_ROLLBACK,
    R_ALARM,
    R_BOOT,
    R_CARD,
    R_CLEAR,
    R_CLOSED,
    R_FINDING,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RECOVERY,
    R_RELEASE,
    R_SEANCE,
    R_SEANCE_CLOSE,
)
from sabot.journalfile import CARD, CODE, CONDITION, DISPOSITION, POSITION, TIME, TYPE
from tests.host.forge import findings, forge, index, played, rows, write

COUP = "seance table=1\nshoe seed=3\nno_more_bets\ndraw 6\nno_more_bets\ndraw 6\n"
JAM = "seance table=1\nshoe seed=3\nno_more_bets\ndraw 2\njam\ndraw\nwait 3000\nclear_alarm\nno_more_bets\ndraw 6\n"
DOUBLE = "seance table=1\nshoe seed=3\nno_more_bets\ndraw 2\ndouble\ndraw\nclear_alarm\nno_more_bets\ndraw 6\n"
CUT = "seance table=1\nshoe seed=3\nno_more_bets\ndraw 2\njam\ndraw\npower_cut\npower_on\nno_more_bets\ndraw 6\n"
POWER = "seance table=1\nshoe seed=3\nno_more_bets\ndraw 6\npower_cut\npower_on\nno_more_bets\ndraw 6\n"


def _drop(rtype, nth=0, **where):
    def edit(records):
        del records[index(records, rtype, nth, **where)]
    return edit


def _set(rtype, field, value, nth=0, **where):
    def edit(records):
        records[index(records, rtype, nth, **where)][field] = value
    return edit


def _burn_in_coup(records):
    i = index(records, R_RELEASE, 2)
    records[i][CODE] = 2
    records[i + 1][DISPOSITION] = 1
    records[i + 1][CODE] = 0


def _gap(records):
    for r in records[index(records, R_CARD, 3):]:
        r[POSITION] += 1


def _insert_after(rtype, nth, new_type, code):
    def edit(records):
        at = index(records, rtype, nth)
        record = list(records[at])
        record[TYPE], record[CARD], record[DISPOSITION], record[CONDITION], record[CODE] = new_type, 0, 0, 0, code
        records.insert(at + 1, record)
    return edit


def _codes(value):
    """The jam's alarm and its clear made another fault's: as a controller that clears what it must not."""
    def edit(records):
        for rtype in (R_ALARM, R_CLEAR):
            records[index(records, rtype)][CODE] = value
    return edit


def _clock_back(records):
    """The RTC set back 2 s while the shoe was off: every record from the power-up on, 2 s earlier than the last
    record before it."""
    boot = index(records, 1, 1)
    shift = records[boot][TIME] - records[boot - 1][TIME] + 2000
    for r in records[boot:]:
        r[TIME] -= shift


CASES = {  # name: (scenario, edit, requirement, words of the finding)
    "cards dealt during an uncleared jam": (JAM, _drop(R_CLEAR), "S-FAILSAFE", "the gate opened to deal"),
    "a coup opened during a double-feed fault": (DOUBLE, _drop(R_CLEAR), "S-FAILSAFE", "a coup opened with an alarm"),
    "two dealt cards from one release": (COUP, _drop(R_RELEASE, 1), "S-ONE", "a second card out of one release"),
    "a card with no release record": (COUP, _drop(R_RELEASE, 0), "J-DURABLE", "with no release before it"),
    "a burn inside a coup": (COUP, _burn_in_coup, "S-BURN", "a coup under way: burns only between coups"),
    "a gap in card positions": (COUP, _gap, "J-EVERY", "cards without a record"),
    "a power cut in a release, the recovery missing": (CUT, _drop(R_RECOVERY), "J-DURABLE", "the recovery record"),
    "an unknown game code": (COUP, _set(R_LOAD, CODE, 3), "J-EVENTS", "unknown game code 3"),
    "a boot of unknown cause": (POWER, _set(R_BOOT, CODE, 3, 1), "J-EVENTS", "a boot of unknown cause 3"),
    "an alarm of code 0": (JAM, _set(R_ALARM, CODE, 0), "J-EVENTS", "alarm of unknown code 0"),
    "a forced alarm with no forced card": (JAM, _set(R_ALARM, CODE, 1), "S-FORCED", "with no forced card"),
    "a coup that does not end where the tableau ends it": (COUP, _drop(6), "T-CF", "no record of the coup's end"),
    "the firmware fault cleared in the power-up that raised it": (JAM, _codes(FAULT_FIRMWARE), "H-FIRMWARE",
                                                                  "with no power-up since it was raised"),
    "the development key's fault cleared": (JAM, _codes(FAULT_DEVKEY), "H-FIRMWARE", "development key's fault cleared"),
    "a séance close inside a coup": (COUP, _insert_after(R_CARD, 1, R_SEANCE_CLOSE, 1), "S-LOCK",
                                     "séance closed in the middle of a coup"),
}


@pytest.mark.req("H-VERIFY", "S-ONE", "S-BURN", "S-FAILSAFE", "S-FORCED", "J-EVERY", "J-DURABLE", "J-EVENTS", "T-CF")
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_journal_the_shoe_could_not_have_written_is_flagged(tmp_path, name):
    text, edit, rid, words = CASES[name]
    records = rows(played(text))
    honest = findings(forge(tmp_path / "honest", records))
    assert all(f in ("S-ONE", "J-DURABLE") and "under way" in m or "double feed" in m for f, m in honest), honest
    edit(records)
    found = findings(forge(tmp_path / "forged", records))
    assert any(f == rid and words in m for f, m in found), found
    assert not any(f == rid and words in m for f, m in honest)


@pytest.mark.req("J-TIME", "J-TAMPER")
def test_a_clock_set_back_across_a_power_up_is_its_own_finding_not_tampering(tmp_path):
    records = rows(played(POWER))
    _clock_back(records)
    found = findings(forge(tmp_path / "j", records))
    assert [f for f, _ in found] == ["J-TIME"], found
    assert "the clock went back" in found[0][1] and "at the power-up" in found[0][1]
    # Within one power-up, time going back is still tampering.
    records = rows(played(POWER))
    records[index(records, R_CARD, 3)][TIME] -= 5000
    assert "J-TAMPER" in [f for f, _ in findings(forge(tmp_path / "k", records))]


@pytest.mark.req("J-EVENTS", "S-FAILSAFE")
def test_a_restart_and_a_watchdog_reset_are_boots_the_shoe_writes(tmp_path):
    records = rows(played(POWER))
    records[index(records, R_BOOT, 1)][CODE] = BOOT_RESTART
    assert findings(forge(tmp_path / "restart", records)) == []
    records[index(records, R_BOOT, 1)][CODE] = BOOT_WATCHDOG
    assert findings(forge(tmp_path / "watchdog", records)) == []


@pytest.mark.req("S-IDENT", "J-TAMPER")
def test_a_sabot_number_that_changes_mid_journal_is_flagged(tmp_path):
    records = rows(played(COUP))
    found = findings(forge(tmp_path / "j", records, sabot_from=index(records, R_CARD, 4)))
    assert [f for f, _ in found] == ["S-IDENT"] and "sabot number 2" in found[0][1], found


@pytest.mark.req("J-TAMPER", "J-DURABLE")
@pytest.mark.parametrize("junk", ["a frame less a byte", "a frame, bad CRC"])
def test_junk_after_a_middle_segment_is_tampering_a_torn_tail_is_not(tmp_path, junk):
    files = played(COUP, segment_records=8)
    assert len(files) > 3
    assert findings(write(tmp_path / "honest", files)) == []
    data = files[2]
    frame = bytearray(data[-layout.FRAME_SIZE:])
    frame[30] ^= 1  # a record's bytes, its CRC no longer matching
    files[2] = data + (bytes(frame[:-1]) if junk == "a frame less a byte" else bytes(frame))
    found = findings(write(tmp_path / "j", files))
    assert any(f == "J-TAMPER" and "no recovery at power-up cut" in m for f, m in found), found


@pytest.mark.req("J-DURABLE")
def test_a_torn_tail_cut_at_power_up_is_a_finding_and_the_journal_intact(tmp_path):
    from boards.sim.board import SimBoard
    from boards.sim.flash import MemoryStorage

    files = played(COUP)
    last = max(files)
    storage = MemoryStorage(1 << 22)
    storage.files = {n: bytearray(d) for n, d in files.items()}
    storage.files[last] = storage.files[last][:-19]  # the last record torn by a power cut: 19 of its 38 bytes left
    board = SimBoard(storage)
    board.power_on()
    board.power_cut()
    found = findings(write(tmp_path / "j", {n: bytes(d) for n, d in storage.files.items()}))
    assert ("J-DURABLE", "19 torn bytes cut at power-up: a record being written when the power failed is lost") \
        in found, found
    assert not [m for f, m in found if f == "J-TAMPER"], found


@pytest.mark.req("J-DURABLE")
def test_a_journal_ending_in_an_open_release_is_a_finding(tmp_path):
    # The dealer asked for a card; the power went before the pull (nothing came, no jam yet).
    found = findings(write(tmp_path / "j", played("seance table=1\nshoe seed=3\nno_more_bets\ndraw 2\njam\ndraw\n")))
    assert [f for f, _ in found] == ["J-DURABLE"] and "the journal ends on a release" in found[0][1], found


@pytest.mark.req("S-IDENT")
def test_a_shoe_loaded_and_a_coup_dealt_outside_a_seance_are_flagged(tmp_path):
    found = findings(write(tmp_path / "j", played("seance table=1\nshoe seed=3\nno_more_bets\ndraw 6\n")))
    assert found == []
    records = rows(played("seance table=1\nshoe seed=3\nno_more_bets\ndraw 6\n"))
    del records[index(records, R_SEANCE)]  # the shoe refuses both outside a séance: a forger's journal
    found = findings(forge(tmp_path / "k", records))
    assert ("S-IDENT", "shoe loaded outside an open séance") in found
    assert ("S-IDENT", "a coup opened outside an open séance") in found


@pytest.mark.req("H-VERIFY")
def test_the_quick_path_that_folds_release_rows_finds_what_the_record_by_record_path_finds(tmp_path):
    """verify's rules read release intents folded into the next record by the C reader (Reader.picked);
    the report reads every record one by one: the same findings, edited journals included."""
    from firmware.devkey import DEVELOPMENT_KEY
    from sabot.verify import check

    folders = [write(tmp_path / str(i), played(text)) for i, text in enumerate((JAM, DOUBLE, CUT, POWER))]
    for name, (text, edit, _, _) in sorted(CASES.items()):
        records = rows(played(text))
        edit(records)
        folders.append(forge(tmp_path / name.replace(" ", "-"), records))
    for folder in folders:
        quick = [(f.id, f.seq, f.message) for f in check([folder], DEVELOPMENT_KEY)[2]]
        assert quick == [(f.id, f.seq, f.message) for f in check([folder], DEVELOPMENT_KEY, records=[])[2]]


@pytest.mark.req("S-ONE", "H-VERIFY")
def test_two_release_intents_in_a_row_are_a_second_release_on_the_quick_path_as_record_by_record(tmp_path):
    """The quick path folds an intent into the record after it; an intent after another is not folded away with
    it: a release while another was under way is found either way."""
    from firmware.devkey import DEVELOPMENT_KEY
    from sabot.verify import check

    records = rows(played(COUP))
    intent = index(records, R_RELEASE, 3)
    records.insert(intent, list(records[intent]))
    folder = forge(tmp_path / "twice", records)
    quick = [(f.id, f.seq, f.message) for f in check([folder], DEVELOPMENT_KEY)[2]]
    assert ("S-ONE", intent + 2, "a release while another was under way") in quick
    assert quick == [(f.id, f.seq, f.message) for f in check([folder], DEVELOPMENT_KEY, records=[])[2]]


# The shoe of issue 13: the virtual cut card, alarms as a set, events lost in a release, the journal rolled back.

def _no_stop_card_shoe():
    """A chemin de fer shoe loaded without its stop card, burned through to where the stop card must come out."""
    from firmware.cards import name
    stack = ",".join(name(c % 52) for c in range(312))
    return "seance table=1\nshoe cards=%s\n" % stack + "burn 9\n" * 34 + "burn 1\n"


@pytest.mark.req("S-STOP", "H-VERIFY")
def test_no_stop_card_by_its_position_is_a_finding_and_the_shoe_must_close_after_it(tmp_path):
    records = rows(played(_no_stop_card_shoe()))
    assert [r[CODE] for r in records if r[TYPE] == R_FINDING] == [F_NO_STOP]
    assert records[-1][TYPE] == R_CLOSED  # the burn after it refused: the shoe closed
    honest = findings(forge(tmp_path / "honest", records))
    assert honest == [("S-STOP", "no stop card by position 306, where it must come out: the shoe closes after "
                                 "this coup")], honest
    for rtype, words in ((R_FINDING, "no record of its finding"), (R_CLOSED, "the shoe closed (S-STOP)")):
        forged = [r for r in records if r[TYPE] != rtype]
        found = findings(forge(tmp_path / str(rtype), forged))
        assert any(f == "S-STOP" and words in m for f, m in found), found


@pytest.mark.req("J-DURABLE", "J-EVENTS", "H-VERIFY")
def test_events_lost_in_a_release_are_an_uncertain_release_then_the_fault_and_nothing_else(tmp_path):
    from boards.sim.board import SimBoard
    from boards.sim.flash import MemoryStorage
    from boards.sim.runner import act, run
    from boards.sim.scenario import parse
    from firmware.events import EV_CLEAR, EV_FAULT

    storage = MemoryStorage(1 << 22)
    board = SimBoard(storage)
    run(parse("seance table=1\nshoe seed=3\nno_more_bets\ndraw 2\njam\ndraw\n"), board)
    board.press(EV_FAULT, FAULT_OVERRUN)  # the interrupts' queue overflowed while the gate was open
    board.press(EV_CLEAR)
    for command, count in (("no_more_bets", 0), ("draw", 4)):
        act(board, 0, command, count, 0)
    board.power_cut()
    files = {n: bytes(d) for n, d in storage.files.items()}
    records = rows(files)
    recovery = index(records, R_RECOVERY)
    assert records[recovery - 1][TYPE] == R_RELEASE and records[recovery + 1][TYPE] == R_ALARM
    found = findings(write(tmp_path / "honest", files))
    assert [f for f, _ in found] == ["J-DURABLE"] and "whether a card left is unknown" in found[0][1], found
    del records[recovery + 1]  # the fault's alarm gone: the recovery hides nothing only with it
    found = findings(forge(tmp_path / "forged", records))
    assert any(f == "J-DURABLE" and "no record of its alarm" in m for f, m in found), found


@pytest.mark.req("J-TAMPER", "S-STOP", "H-VERIFY")
def test_a_rollback_fault_is_a_finding_and_no_coup_may_follow_until_a_new_shoe(tmp_path):
    records = rows(played(COUP))
    at = index(records, R_NO_MORE_BETS, 1)  # between the two coups: the fault raised, then cleared
    alarm = list(records[at])
    alarm[TYPE], alarm[CODE] = R_ALARM, FAULT_ROLLBACK
    clear = list(alarm)
    clear[TYPE] = R_CLEAR
    records[at:at] = [alarm, clear]
    found = findings(forge(tmp_path / "j", records))
    assert any(f == "J-TAMPER" and "behind its last signed checkpoint" in m for f, m in found), found
    assert any(f == "S-STOP" and "a coup opened after the stop card's coup" in m for f, m in found), found


@pytest.mark.req("J-EVERY", "S-FORCED", "H-VERIFY")
def test_a_card_code_no_card_has_is_journalled_unread_and_the_journal_verifies(tmp_path):
    """Issue 26: a reader's code past the last card (54-255), out of a release and forced past the locked gate, is
    journalled as a card whose face was not read: the verifier finds the forced card, and nothing else."""
    from boards.sim.board import SimBoard
    from boards.sim.flash import MemoryStorage
    from boards.sim.runner import run
    from boards.sim.scenario import parse
    from firmware.cards import UNKNOWN
    from firmware.events import EV_CARD, EV_DRAW

    storage = MemoryStorage(1 << 22)
    board = SimBoard(storage)
    run(parse("seance table=1\nshoe seed=3\nno_more_bets\ndraw 2\n"), board)
    board.press(EV_DRAW)
    board.press(EV_CARD, 200)  # the released card
    board.advance(1000)
    board.press(EV_CARD, 255)  # forced past the locked gate
    board.close()
    files = {n: bytes(d) for n, d in storage.files.items()}
    cards = [r for r in rows(files) if r[TYPE] == R_CARD][-2:]
    assert [r[CARD] for r in cards] == [UNKNOWN, UNKNOWN] and cards[1][CONDITION] != 0
    found = findings(write(tmp_path / "j", files))
    assert [f for f, _ in found] == ["S-FORCED"] and "forced past the locked gate (burned)" in found[0][1], found
