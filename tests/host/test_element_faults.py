"""A checkpoint never loses its counter value to a transient failure of the secure element, and a counter ahead of the
checkpoints is explained where the shoe can explain it (J-TAMPER, J-DURABLE, K-ELEMENT, K-COUNTER; issue 35,
docs/journal-format.md "Checkpoints"): one ECC fault on Sign is signed again with the same counter value; a
signature that keeps failing journals the value spent (R_ELEMENT) and locks the shoe in FAULT_ELEMENT; a power cut
between the increment and the entry's write, the counter gone up by one or two on it, is said at the next boot
instead of a rollback fault; a counter counted up on the bench with no cut is a rollback at boot and a finding in
verify. Played end to end on the sim board with the element's model behind the driver, as tests/host/
test_rollback.py does; the ECC faults are the model's own (inject), through the driver's resubmissions; the power
cut that stops the microcontroller with the chip is a thin wrapper of the model."""

import io
import json

import pytest

from boards.mcu import atecc, atecc_run
from boards.mcu.atecc import ATECC
from boards.sim.board import SimBoard
from boards.sim.element import DEVELOPMENT_SEED, SimElement, journal_key
from boards.sim.runner import act, run
from boards.sim.scenario import parse
from firmware import checkpoints as cp
from firmware import layout as fmt
from firmware import power_up
from firmware import records as rec
from firmware.events import EV_CLEAR, EV_COUP_END, EV_NO_MORE_BETS
from firmware.format import checkpoint as entry
from firmware.storage import FileStorage
from sabot import checkpoints as sabot_checkpoints
from sabot.logview import show
from sabot.verify import verify
from tests.core.test_element import Bus

COUP = "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\n"
LOADED = "seance table=3\nshoe seed=4\n"  # then "no more bets": the coup's opening, counted up and signed


class PowerCut(Exception):
    pass


class Faulty(SimElement):
    """The model, with the power cut right after the next increment (`cut`): the microcontroller stops with it, the
    counter gone up by `extra` more on the cut (the datasheet: a counter may count more than one on some power
    losses)."""

    cut = False
    extra = 0

    def _execute(self, body):
        opcode, param1 = body[1], body[2]
        answer = super()._execute(body)
        if self.cut and opcode == atecc.COUNTER and param1 == atecc.COUNTER_INCREMENT:
            self.cut = False
            self._counters[0] += self.extra
            self._save()
            raise PowerCut
        return answer


def board_with(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    chip = Faulty(DEVELOPMENT_SEED, str(tmp_path / "element"))
    bus = Bus(chip)
    board.checkpoints = cp.Checkpoints(str(tmp_path / "journal"), ATECC(bus, bus.sleep_ms), board.sabot)
    board.key = board.checkpoints.key()
    return board, chip


def public_key(tmp_path):
    key = tmp_path / "element.pub"
    key.write_text(journal_key(DEVELOPMENT_SEED).hex() + "\n")
    return key


def entries(tmp_path):
    data = (tmp_path / "journal" / entry.FILE).read_bytes()
    return [data[i:i + entry.SIZE] for i in range(0, len(data), entry.SIZE)]


def counters(tmp_path):
    return [int.from_bytes(e[4:8], "little") for e in entries(tmp_path)]


def findings(tmp_path):
    """verify's findings with the element's public key, but the receipt's (no pull made one here), and its JSON."""
    out = io.StringIO()
    verify([str(tmp_path / "journal")], None, True, out=out, allow_development_key=True,
           public_key=public_key(tmp_path))
    answer = json.loads(out.getvalue())
    return [f["message"] for f in answer["findings"] if "receipt" not in f["message"]], answer["checkpoints"]


def shown(tmp_path, lang):
    out = io.StringIO()
    show([str(tmp_path / "journal")], None, out=out, lang=lang)
    return out.getvalue()


def element_records(tmp_path):
    """(condition, counter, count) of each R_ELEMENT in the journal."""
    found = []
    for path in sorted((tmp_path / "journal").glob("*.sbj")):
        data = path.read_bytes()
        for at in range(fmt.HEADER_SIZE, len(data) - fmt.FRAME_SIZE + 1, fmt.FRAME_SIZE):
            body = data[at + fmt.BODY_AT:at + fmt.BODY_AT + fmt.BODY_SIZE]
            if body[0] == rec.R_ELEMENT:
                found.append((body[17], body[18] | body[19] << 8 | body[16] << 16, body[15]))
    return found


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "K-COUNTER")
def test_one_ecc_fault_on_the_checkpoints_sign_is_signed_again_and_the_checkpoint_carries_the_next_counter(tmp_path):
    board, chip = board_with(tmp_path)
    run(parse(LOADED), board)
    chip.inject("ecc_fault", opcode=atecc.SIGN)  # the datasheet: succeeds when resubmitted
    board.press(EV_NO_MORE_BETS)
    assert chip._counters[0] == 3 and board.shell.ctl.in_coup  # signed, and the coup open
    assert not board.shell.ctl.alarms and element_records(tmp_path) == []
    act(board, None, "draw", 4, 0)
    board.press(EV_COUP_END)
    assert counters(tmp_path) == [1, 2, 3, 3]  # boot, séance, the coup's opening and end: none lost, none spent twice
    board.power_cut()
    board.power_on()
    assert not board.shell.ctl.alarms  # nothing since the coup's end: no checkpoint due
    board.power_cut()
    found, points = findings(tmp_path)
    assert found == [] and points["counters"] == [1, 3] and points["explained_gaps"] == 0


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "S-FAILSAFE")
def test_a_signature_that_keeps_failing_journals_the_value_spent_locks_the_shoe_and_verify_explains_the_gap(
        tmp_path, monkeypatch):
    board, chip = board_with(tmp_path)
    run(parse(LOADED), board)
    chip.inject("ecc_fault", opcode=atecc.SIGN, times=cp.SIGN_TRIES * atecc_run.ATTEMPTS)  # past every resubmission
    board.press(EV_NO_MORE_BETS)
    ctl = board.shell.ctl
    assert ctl.raised(rec.FAULT_ELEMENT) and ctl.locked()  # the shoe cannot vouch for its journal: a named fault
    assert counters(tmp_path) == [1, 2] and chip._counters[0] == 3
    assert element_records(tmp_path) == [(rec.EL_FAULT, 3, 1)]
    board.press(EV_CLEAR)  # the supervisor's key; the element answers again
    assert not ctl.alarms
    board.power_cut()
    board.power_on()  # the counter one ahead, said by the journal: no rollback, no second record
    assert not board.shell.ctl.alarms and element_records(tmp_path) == [(rec.EL_FAULT, 3, 1)]
    board.power_cut()
    assert counters(tmp_path) == [1, 2, 4]
    found, points = findings(tmp_path)
    assert found == [] and points["explained_gaps"] == 1
    assert "l'élément n'a pas pu signer un point de contrôle : compteur 3" in shown(tmp_path, "fr")
    assert "the element failed to sign a checkpoint: counter 3" in shown(tmp_path, "en")
    # Without the record's explanation (taken out of what the rules hand the checkpoints' check: removing it from
    # the journal would break its chain, a finding of its own), the same gap is named.
    without = sabot_checkpoints._one_by_one

    def unexplained(points, segments, end_seq, key, chains, elements=()):
        return without(points, segments, end_seq, key, chains, [])

    monkeypatch.setattr(sabot_checkpoints, "_one_by_one", unexplained)
    found, points = findings(tmp_path)
    assert any("checkpoint 3 (counter 4) follows counter 2: 1 checkpoint(s) missing" in m for m in found), found


@pytest.mark.req("J-TAMPER", "J-DURABLE", "K-COUNTER")
@pytest.mark.parametrize("extra", [0, 1])
def test_a_power_cut_between_the_increment_and_the_entry_is_said_at_the_next_boot_not_a_rollback(tmp_path, extra):
    board, chip = board_with(tmp_path)
    run(parse(LOADED), board)
    chip.cut, chip.extra = True, extra  # the counter up by one, or by two on the cut
    with pytest.raises(PowerCut):
        board.press(EV_NO_MORE_BETS)  # the coup's opening journalled, then its checkpoint: the power fails between
    board.power_cut()
    assert counters(tmp_path) == [1, 2] and chip._counters[0] == 3 + extra
    board.power_on()
    ctl = board.shell.ctl
    assert not ctl.raised(rec.FAULT_ROLLBACK) and not ctl.alarms
    assert element_records(tmp_path) == [(rec.EL_CUT, 3 + extra, 1 + extra)]
    board.power_cut()
    assert counters(tmp_path) == [1, 2, 4 + extra]
    found, points = findings(tmp_path)
    assert found == [] and points["explained_gaps"] == 1 + extra
    french = shown(tmp_path, "fr")
    assert ("le compteur de l'élément, %d, dépasse de %d celui du dernier point de contrôle, 2 : courant coupé "
            "pendant un point de contrôle" % (3 + extra, 1 + extra)) in french
    assert "ahead of the last checkpoint's 2: the power was cut during a checkpoint" in shown(tmp_path, "en")


@pytest.mark.req("J-TAMPER", "K-COUNTER")
def test_a_counter_counted_up_on_the_bench_with_no_cut_is_a_rollback_at_boot_and_a_finding_in_verify(tmp_path):
    board, chip = board_with(tmp_path)
    run(parse(COUP + "coup_end\n"), board)  # the coup's end and its checkpoint: the journal ends on its step
    board.power_cut()
    for _ in range(2):
        chip._execute(_command(atecc.COUNTER, atecc.COUNTER_INCREMENT))  # someone with the board on the bench
    board.power_on()
    assert board.shell.ctl.raised(rec.FAULT_ROLLBACK)  # the last entry covers every record: no cut explains it
    board.power_cut()
    assert element_records(tmp_path) == []
    found, _ = findings(tmp_path)
    assert any("follows counter 3: 2 checkpoint(s) missing" in m for m in found), found
    assert any("behind its last signed checkpoint" in m for m in found), found


@pytest.mark.req("J-TAMPER", "K-COUNTER")
def test_a_counter_ahead_of_a_journal_that_ends_on_a_step_with_no_checkpoint_is_a_rollback(tmp_path):
    """Records after the last entry, but the last of them a step that writes no checkpoint (a load) and no coup
    opened after it (whose opening's entry a cut in the coup loses): no cut during a checkpoint left the journal so.
    Nor is a counter more than AHEAD_MOST ahead."""
    where = tmp_path / "load"
    where.mkdir()
    board, chip = board_with(where)
    run(parse(LOADED), board)  # the séance's checkpoint the last, the shoe's load after it
    board.power_cut()
    chip._execute(_command(atecc.COUNTER, atecc.COUNTER_INCREMENT))
    board.power_on()
    assert board.shell.ctl.raised(rec.FAULT_ROLLBACK)
    where = tmp_path / "far"
    where.mkdir()
    board, chip = board_with(where)
    run(parse(LOADED), board)
    chip.cut, chip.extra = True, power_up.AHEAD_MOST  # a cut during the coup opening's checkpoint, the counter 4 ahead
    with pytest.raises(PowerCut):
        board.press(EV_NO_MORE_BETS)
    board.power_cut()
    board.power_on()
    assert board.shell.ctl.raised(rec.FAULT_ROLLBACK)


def _command(opcode, param1, param2=0):
    """A command's bytes as the chip's _execute takes them (count to CRC)."""
    return atecc.packet(opcode, param1, param2)[1:]



def test_the_steps_that_write_a_checkpoint_end_on_the_records_the_boot_accepts_after_a_cut():
    """firmware/power_up.py's STEP_ENDS, a literal on the board, is the records it names."""
    names = ("R_BOOT", "R_RECOVERY", "R_ALARM", "R_SEANCE", "R_OUVERTE", "R_REFUSAL", "R_OUVERTE_DAY",
             "R_SEANCE_CLOSE", "R_NO_MORE_BETS", "R_COUP_END", "R_CLOSED", "R_ELEMENT", "R_AUTHORITY")
    assert power_up.STEP_ENDS == sum(1 << getattr(rec, name) for name in names)
    assert power_up.ENDS == (1 << rec.R_COUP_END) | (1 << rec.R_CLOSED)
