"""Issue 37's attacks, run as someone with the board on the bench would (J-TAMPER, K-ELEMENT): the shoe deals on the
sim board with its secure element (the model, through the board's driver, as the virtual board has it), then its
files are edited as the development image's REPL lets him, and the element is asked to sign what he hands it. Each
is caught by `sabot log verify --public-key` with a finding an inspector reads in French."""

import io
import struct
import zlib
from hashlib import sha256

import pytest

from boards.mcu.atecc import ATECC
from boards.sim.board import SimBoard
from boards.sim.element import DEVELOPMENT_SEED, journal_key
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import records as rec
from firmware.format import checkpoint as cp
from firmware.storage import FileStorage
from sabot.journalfile import load_segments
from sabot.verify import verify
from tests.core.test_element import Bus
from tests.host.test_checkpoints_verify import dealt, tampered
from tests.host.test_rollback import with_element

FORCED = ("seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\nforce\nclear_alarm\nno_more_bets\ndraw 4\n"
          "coup_end\nno_more_bets\ndraw 4\ncoup_end\n")


def entries(folder):
    data = (folder / cp.FILE).read_bytes()
    return [bytearray(data[i:i + cp.SIZE]) for i in range(0, len(data), cp.SIZE)]


def signed_by_chip(entry, atecc):
    """entry signed as the attacker can have the element sign it, with code on the microcontroller: the chip's own
    signature (slot 1, internal mode) over the entry's bytes, at the counter the chip has, its CRC made good."""
    vouched = sha256(cp.LABEL + bytes(entry[:cp.SIGNED])).digest()
    got = atecc.attest(vouched[:20])
    entry[cp.RAND_AT:cp.CHIP_AT] = got[4:36]
    entry[cp.CHIP_AT:cp.CHIP_AT + 5] = atecc.attestation()
    entry[cp.SIGNATURE_AT:cp.CRC_AT] = got[36:]
    struct.pack_into("<I", entry, cp.CRC_AT, zlib.crc32(entry[:cp.CRC_AT]))
    return entry


def french(folder, key):
    out = io.StringIO()
    verify([str(folder)], None, False, out=out, allow_development_key=True, lang="fr", public_key=key)
    return out.getvalue()


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "S-FORCED")
def test_an_earlier_entrys_reason_rewritten_with_its_crc_made_good_is_caught(tmp_path):
    folder, key, _ = dealt(tmp_path, FORCED)
    kept = entries(folder)
    alarm = [i for i, e in enumerate(kept) if e[1] == cp.ALARM]
    assert alarm and alarm[0] < len(kept) - 1  # the forced card's checkpoint, not the last one
    code, found, points = tampered(folder, public_key=key)
    assert [m for m in found if "receipt" not in m] == [] and points["count"] == len(kept)  # the honest shoe's
    at = alarm[0]
    kept[at][1] = cp.COUP_END  # "alarm" made "coup end": the step a forced card stopped, said an ordinary one
    struct.pack_into("<I", kept[at], cp.CRC_AT, zlib.crc32(kept[at][:cp.CRC_AT]))
    (folder / cp.FILE).write_bytes(b"".join(kept))
    code, found, points = tampered(folder, public_key=key)
    counter = struct.unpack_from(cp.ENTRY, kept[at])[3]
    what = "checkpoint %d (counter %d)" % (at + 1, counter)
    assert code == 1 and "%s is not signed by the shoe's element: forged or altered" % what in found, found
    after = "checkpoint %d (counter %d) does not hold the hash of the entry before it" % (
        at + 2, struct.unpack_from(cp.ENTRY, kept[at + 1])[3])
    assert any(m.startswith(after) for m in found), found
    assert points["count"] == len(kept) - 1  # the entries that vouch: every one signed, that one not
    said = french(folder, key)
    assert "le point de contrôle %d (compteur %d) n'est pas signé par l'élément sécurisé du sabot" % (at + 1, counter) \
        in said, said
    assert "ne porte pas l'empreinte du point de contrôle qui le précède" in said


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "S-FORCED")
def test_entries_rebuilt_for_a_cut_journal_with_one_genuine_signature_at_the_next_counter_are_caught(tmp_path):
    """The issue's attack on the checkpoints: the records from the forced card on cut away, every entry given new
    values (the later ones dropped, the counters kept in line) and each signed by the element as code on the shoe can
    have it sign (its own signature at the counter it has; slot 0 in external mode for one), and one entry the
    element signs at its next counter for the journal's new end: the chip vouches for its counter, not the entry's,
    so every rewritten entry fails its signature."""
    folder, key, chip = dealt(tmp_path, FORCED)
    kept = entries(folder)
    alarm = [i for i, e in enumerate(kept) if e[1] == cp.ALARM][0]
    ends = [struct.unpack_from(cp.ENTRY, e)[5] for e in kept]
    before = kept[:alarm]  # the entries up to the coup before the force
    last_seq = ends[alarm - 1]
    segment = sorted(folder.glob("*.sbj"))[-1]
    data = segment.read_bytes()
    seg = load_segments([folder])[-1]
    keep = seg.format.header_size + (last_seq - seg.seq_before) * seg.format.frame_size
    segment.write_bytes(data[:keep])  # the journal cut back to that coup's end: the force is gone
    rebuilt = []
    counter = chip._counters[0] - len(before)  # the counters in line, ending at the element's next value
    previous = bytes(32)
    bus = Bus(chip)
    atecc = ATECC(bus, bus.sleep_ms)
    for i, e in enumerate(before):
        e = bytearray(e)
        struct.pack_into("<I", e, 4, counter + i)
        e[cp.PREVIOUS_AT:cp.PREVIOUS_AT + 32] = previous
        signed_by_chip(e, atecc)  # the chip's genuine signature, at its own counter
        if i == 1:  # slot 0 signs any digest in external mode: not the key that vouches for the journal
            e[cp.SIGNATURE_AT:cp.CRC_AT] = atecc.sign(sha256(cp.LABEL + bytes(e[:cp.SIGNED])).digest())
            struct.pack_into("<I", e, cp.CRC_AT, zlib.crc32(e[:cp.CRC_AT]))
        rebuilt.append(e)
        previous = sha256(e).digest()
    last = bytearray(rebuilt[-1])
    struct.pack_into("<I", last, 4, atecc.increment(0))  # the element counted up: its genuine next value
    last[1] = cp.PULL
    last[cp.PREVIOUS_AT:cp.PREVIOUS_AT + 32] = previous
    signed_by_chip(last, atecc)
    (folder / cp.FILE).write_bytes(b"".join(rebuilt + [last]))
    code, found, points = tampered(folder, public_key=key)
    unsigned = [m for m in found if "is not signed by the shoe's element" in m]
    assert code == 1 and len(unsigned) == len(rebuilt), found  # each rebuilt entry: its counter changed
    said = french(folder, key)
    assert "n'est pas signé par l'élément sécurisé du sabot" in said


DISPUTED = "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\nno_more_bets\ndraw 2\n"  # the second in play


@pytest.mark.req("J-TAMPER", "K-COUNTER", "S-FAILSAFE")
def test_a_coup_in_play_cut_back_to_the_checkpoint_before_it_is_a_rollback_at_boot_and_a_finding(tmp_path):
    """Format 4 signed nothing from "no more bets" to the coup's end: the coup in play cut from the journal, the
    boot found the counter equal to the last entry, and the coup was gone without a trace. Its opening is now counted
    up and signed before its first card (its entry written with its end): the same cut leaves the counter ahead with
    nothing after the entry, where a power cut in the coup leaves its opening's record."""
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    chip = with_element(board, tmp_path)
    run(parse(DISPUTED), board)
    board.power_cut()
    folder = tmp_path / "journal"
    kept = entries(folder)
    last = struct.unpack_from(cp.ENTRY, kept[-1])
    assert last[1] == cp.COUP_END and chip._counters[0] == last[3] + 1  # the coup in play counted up, unwritten
    seg = load_segments([folder])[-1]  # the journal cut back to the first coup's end, the checkpoint before
    seg.path.write_bytes(seg.data[:seg.format.header_size + (last[5] - seg.seq_before) * seg.format.frame_size])
    board.power_on()
    assert board.shell.ctl.raised(rec.FAULT_ROLLBACK)  # the shoe locks, the supervisor's key alone clears it
    board.power_cut()
    key = tmp_path / "element.pub"
    key.write_text(journal_key(DEVELOPMENT_SEED).hex() + "\n")
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and any("1 checkpoint(s) missing" in m for m in found), found
    assert "1 point(s) de contrôle manquent" in french(folder, key)


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_a_coups_signed_end_removed_and_the_next_entry_signed_again_by_the_element_is_named(tmp_path):
    """The attacker has the element sign what he hands it, at the counter it has: a coup's end entry taken out, the
    next entries (the last coup's, at the chip's counter) given the hash of the one before and signed again. Every
    signature holds and the counters are in line, but the coup opened under a signature has no signed end, and no
    power-up between explains it."""
    folder, key, chip = dealt(tmp_path, "seance table=3\nshoe seed=4\n" + "no_more_bets\ndraw 4\ncoup_end\n" * 2)
    kept = entries(folder)
    reasons = [e[1] for e in kept]
    assert reasons[-4:] == [cp.OPENING, cp.COUP_END, cp.OPENING, cp.COUP_END]
    at = len(kept) - 3  # the first coup's end
    bus = Bus(chip)
    atecc = ATECC(bus, bus.sleep_ms)
    rest = [bytearray(e) for e in kept[at + 1:]]
    previous = sha256(bytes(kept[at - 1])).digest()
    for e in rest:
        e[cp.PREVIOUS_AT:cp.PREVIOUS_AT + 32] = previous
        signed_by_chip(e, atecc)
        previous = sha256(bytes(e)).digest()
    (folder / cp.FILE).write_bytes(b"".join(kept[:at] + rest))
    code, found, _ = tampered(folder, public_key=key)
    opening = struct.unpack_from(cp.ENTRY, kept[at - 1])
    assert code == 1 and ["coup 1 of taille 1, opened under checkpoint %d (counter %d), has no signed end: its records "
                          "cut or replaced" % (at, opening[3])] == [m for m in found if "receipt" not in m], found
    assert ("le coup 1 de la taille 1, ouvert sous le point de contrôle %d (compteur %d), n'a pas de fin signée"
            % (at, opening[3])) in french(folder, key)
