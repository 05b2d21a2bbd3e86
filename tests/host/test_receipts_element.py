"""Receipts signed by the secure element (version 2, J-TAMPER, K-ELEMENT, K-COUNTER; docs/journal-format.md
"Receipts"): the bytes the element signs checked here with pyca/cryptography alone, its counter read and not
counted up; `sabot log verify` with the shoe's public key: a receipt under the key read off the shoe (version 1)
or under any other key fails, receipts out of order by counter fail, a receipt that answers another nonce than
pull.json's fails. The journals are the sim board's with an element (the model, in this process), as the virtual
board's are; the sim board without one keeps version 1."""

import hashlib
import hmac
import json
import shutil
import struct

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed, decode_dss_signature, encode_dss_signature

from boards.mcu.atecc import ATECC
from boards.sim.board import SimBoard
from boards.sim.element import DEVELOPMENT_SEED, SimElement, journal_key
from boards.sim.runner import act, run
from boards.sim.scenario import parse
from firmware.checkpoints import Checkpoints
from firmware.devkey import DEVELOPMENT_KEY
from firmware.mac import Key
from firmware.receipt import receipt
from firmware.storage import FileStorage
from sabot import attested
from tests.host.test_checkpoints_verify import tampered, verified
from tests.host.test_receipts import LATER
from tests.host.test_rollback import with_element

DEALT = "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\n"
NONCE = bytes(range(32))


def public_numbers():
    return ec.EllipticCurvePublicKey.from_encoded_point(
        ec.SECP256R1(), b"\x04" + journal_key(DEVELOPMENT_SEED))


@pytest.fixture
def shoe(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    chip = with_element(board, tmp_path)
    run(parse(DEALT), board)
    key = tmp_path / "element.pub"
    key.write_text(journal_key(DEVELOPMENT_SEED).hex() + "\n")
    return board, chip, key


def pulled(board, folder, nonce=NONCE):
    """What pull-log leaves: the segments, the checkpoints, the receipt, the nonce it issued."""
    board.shell.checkpoints.write(board.shell.journal, 5)  # pull-log's checkpoint over mpremote (reason 5)
    shutil.copytree(board.storage.folder, folder)
    (folder / "receipt.json").write_text(receipt(board.shell.journal, nonce, board.shell.checkpoints) + "\n")
    (folder / "pull.json").write_text(json.dumps({"nonce": nonce.hex(), "port": "test", "time": "now"}))
    return folder


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "K-COUNTER")
def test_the_elements_receipt_is_its_signature_over_the_label_nonce_sabot_counter_and_end_read_by_pyca(shoe):
    board, chip, _ = shoe
    counter = chip._counters[0]
    assert counter > 0  # the power-up's, the séance's and the coup's checkpoints
    fields = json.loads(receipt(board.shell.journal, NONCE, board.shell.checkpoints))
    assert chip._counters[0] == counter  # read as it stands: a pull does not use the counter up
    journal = board.shell.journal
    assert fields["receipt"] == 3 and "tag" not in fields and fields["counter"] == counter
    assert (fields["seq"], fields["segment"], fields["chain"]) == (journal.seq, journal.segment, journal.chain.hex())
    body = (b"sabot receipt 3\x00" + NONCE + struct.pack("<HII", journal.sabot, journal.segment, journal.seq)
            + journal.chain)
    signature = bytes.fromhex(fields["signature"])
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    rand_out, chip_bytes = bytes.fromhex(fields["rand_out"]), bytes.fromhex(fields["chip"])
    # The chip's own message (version 3): its counter as it read it, folded in by GenDig; signed by slot 1's key
    message = attested.message(attested.tempkey_from_counter(
        attested.tempkey_from_nonce(rand_out, hashlib.sha256(body).digest()[:20]), counter), chip_bytes)
    public_numbers().verify(der, message, ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):  # the counter one back: not what the chip read
        public_numbers().verify(der, attested.digest(hashlib.sha256(body).digest(), counter - 1, rand_out, chip_bytes),
                                ec.ECDSA(Prehashed(hashes.SHA256())))
    altered = json.loads(receipt(board.shell.journal, bytes(32), board.shell.checkpoints))
    assert altered["signature"] != fields["signature"]  # the nonce is signed
    board.shell.checkpoints.write(journal, 5)
    later = json.loads(receipt(board.shell.journal, NONCE, board.shell.checkpoints))
    assert later["counter"] == counter + 1 == chip._counters[0]  # it orders the receipt against the checkpoints


@pytest.mark.req("J-TAMPER", "H-SIM")
def test_a_board_without_an_element_keeps_the_hmac_receipt_of_version_1(tmp_path):
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    run(parse(DEALT), board)
    fields = json.loads(receipt(board.shell.journal, NONCE))
    journal = board.shell.journal
    body = b"sabot receipt\x00" + NONCE + struct.pack("<HII", journal.sabot, journal.segment, journal.seq) + \
        journal.chain
    assert fields["receipt"] == 1 and "counter" not in fields
    assert fields["tag"] == hmac.new(DEVELOPMENT_KEY, body, hashlib.sha256).hexdigest()


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "H-VERIFY")
def test_the_honest_pull_verifies_and_receipts_forged_with_the_shoes_key_or_another_element_key_do_not(
        shoe, tmp_path):
    board, _, key = shoe
    folder = pulled(board, tmp_path / "pulled")
    code, found, _ = tampered(folder, public_key=key)
    assert code == 0 and found == [], found
    _, said = verified(folder, public_key=key)
    assert "end: as the shoe signed it in its receipt" in said
    _, said = verified(folder)  # no public key: where the receipt stands is checked, its signature is not
    assert "end: as the shoe's receipt says, its element's signature not checked (no public key" in said
    honest = json.loads((folder / "receipt.json").read_text())
    journal = board.shell.journal
    attacker = type("Head", (), {"sabot": journal.sabot, "segment": journal.segment, "seq": journal.seq,
                                 "chain": journal.chain, "key": Key(b"a key the attacker holds, 32 b!!")})
    forged = json.loads(receipt(attacker, NONCE))  # version 1, tagged under an HMAC key of his own
    (folder / "receipt.json").write_text(json.dumps(forged))
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and len(found) == 1 and "is not signed by the shoe's element, though the shoe has one" in found[0]
    _, said = verified(folder, lang="fr", public_key=key)
    assert "n'est pas signé par l'élément sécurisé du sabot, qui en a un" in said
    other = ec.generate_private_key(ec.SECP256R1())  # any key the attacker could hold that is not the element's
    body = (b"sabot receipt 2\x00" + NONCE + struct.pack("<HIII", journal.sabot, honest["counter"] + 9,
                                                        journal.segment, journal.seq) + journal.chain)
    r, s = decode_dss_signature(other.sign(body, ec.ECDSA(hashes.SHA256())))
    signature = (r.to_bytes(32, "big") + s.to_bytes(32, "big")).hex()
    (folder / "receipt.json").write_text(json.dumps(dict(honest, counter=honest["counter"] + 9, signature=signature)))
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and len(found) == 1 and "is not signed by the shoe's element: forged or altered" in found[0]
    (folder / "receipt.json").write_text(json.dumps(dict(honest, seq=honest["seq"] - 1)))  # a field altered
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and "forged or altered" in found[0]


@pytest.mark.req("J-TAMPER", "K-COUNTER", "H-VERIFY")
def test_receipts_are_ordered_by_the_elements_counter_and_a_later_one_that_ends_earlier_is_a_rollback(
        shoe, tmp_path):
    board, _, key = shoe
    early = pulled(board, tmp_path / "early")
    game = 0
    for _, command, a, b in parse("shoe seed=1\n" + "\n".join(LATER))[1:]:  # the shoe goes on dealing
        game = act(board, game, command, a, b)
    late = pulled(board, tmp_path / "late", nonce=b"m" * 32)
    code, found, _ = tampered(late, public_key=key, receipt_files=[early / "receipt.json"])
    assert code == 0 and found == [], found
    # The older journal put back on the shoe (its folder, checkpoints and all) and the shoe restarted: a new pull.
    board.power_cut()
    shutil.rmtree(board.storage.folder)
    shutil.copytree(early, board.storage.folder)
    board.power_on()
    back = pulled(board, tmp_path / "back", nonce=b"b" * 32)
    receipts = {name: json.loads((folder / "receipt.json").read_text()) for name, folder in
                (("early", early), ("late", late), ("back", back))}
    assert receipts["early"]["counter"] < receipts["late"]["counter"] < receipts["back"]["counter"]
    assert receipts["back"]["seq"] < receipts["late"]["seq"]  # the rollback the counter puts in order
    code, found, _ = tampered(back, public_key=key, receipt_files=[late / "receipt.json"])
    assert code == 1 and any("does not end after receipt %s" % (late / "receipt.json") in m for m in found), found
    assert any("does not extend" in m for m in found), found
    _, said = verified(back, lang="fr", public_key=key, receipt_files=[late / "receipt.json"])
    assert "ne finit pas après le reçu" in said and "revenu en arrière entre les deux relevés" in said
    # Without the later pull's receipt, the checkpoint the restarted shoe counted after the kept receipt still
    # ends before it: the counter orders receipts against the checkpoints too.
    (back / "receipt.json").unlink()
    code, found, _ = tampered(back, public_key=key, receipt_files=[late / "receipt.json"])
    behind = [m for m in found if "before receipt %s" % (late / "receipt.json") in m]
    assert code == 1 and len(behind) == 1 and behind[0].startswith("checkpoint "), found
    _, said = verified(back, lang="fr", public_key=key, receipt_files=[late / "receipt.json"])
    assert "le journal du sabot est revenu en arrière après ce relevé" in said


@pytest.mark.req("J-TAMPER", "H-VERIFY")
def test_a_receipt_that_answers_another_nonce_than_the_one_pull_log_issued_is_a_finding(shoe, tmp_path):
    board, _, key = shoe
    early = pulled(board, tmp_path / "early")
    act(board, 0, "seance", 3, 0)
    late = pulled(board, tmp_path / "late", nonce=b"m" * 32)
    code, found, _ = tampered(late, public_key=key)
    assert code == 0 and found == [], found
    shutil.copy(early / "receipt.json", late / "receipt.json")  # the older receipt put in the newer's place
    code, found, _ = tampered(late, public_key=key)
    assert code == 1 and any("answers another nonce than the one pull-log issued (pull.json)" in m for m in found)


def _verifies(fields, journal_end, counter, nonce=NONCE):
    sabot, segment, seq, chain = journal_end
    body = b"sabot receipt 3\x00" + nonce + struct.pack("<HII", sabot, segment, seq) + chain
    signature = bytes.fromhex(fields["signature"])
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    digest = attested.digest(hashlib.sha256(body).digest(), counter, bytes.fromhex(fields["rand_out"]),
                             bytes.fromhex(fields["chip"]))
    public_numbers().verify(der, digest, ec.ECDSA(Prehashed(hashes.SHA256())))  # raises InvalidSignature otherwise


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "S-FAILSAFE")
def test_a_receipt_asked_over_the_cable_is_signed_over_passes_and_a_checkpoint_due_meanwhile_waits_for_the_chip(
        tmp_path):
    from firmware import protocol as p
    from firmware.format import commands as c
    from tests.core.test_element import Bus, Clock

    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    clock = Clock()
    chip = SimElement(DEVELOPMENT_SEED, str(tmp_path / "element"), clock=clock)  # busy while it signs, as the chip is
    board.on_pass = lambda: setattr(clock, "us", clock.us + 1000)  # a pass of the loop: at least its 1 ms sleep
    bus = Bus(chip, clock)
    board.checkpoints = Checkpoints(str(tmp_path / "journal"), ATECC(bus, bus.sleep_ms), board.sabot)
    board.key = board.checkpoints.key()
    run(parse(DEALT), board)
    out = bytearray()
    shoe = p.Protocol(board.shell, board.clock.ticks, out.extend, lambda n: bytes(n))
    journal = board.shell.journal
    end = (journal.sabot, journal.segment, journal.seq, bytes(journal.chain))
    counter = chip._counters[0]
    answers = []
    framer = p.Framer(lambda view: answers.append((view[3], view[p.HEADER], bytes(view[p.HEADER + 1:]))))

    def answered():
        framer.feed(out, 0)
        out.clear()
        return [a for a in answers if a[0] == 7]

    shoe.work()
    shoe.feed(p.frame(c.C_RECEIPT, 7, NONCE))
    assert not answered()  # not answered in the pass that read it: the element is still at work
    passes = 0
    while not answered() and passes < 2000:
        clock.us += 1000  # a pass of the loop: at least its 1 ms sleep
        passes += 1
        if passes == 3:  # the controller's checkpoint (a blocking signature) lands while the receipt is being signed
            board.shell.checkpoints.write(journal, 5)
        shoe.feed(p.frame(c.C_RECEIPT, 8, bytes(16)))  # another receipt meanwhile: busy, never a second job
        shoe.work()
    assert [a[:2] for a in answers if a[0] == 7] == [(7, c.OK)]
    assert {a[1] for a in answers if a[0] == 8} == {c.E_BUSY}
    fields = json.loads([a[2] for a in answers if a[0] == 7][0])
    assert passes == 3  # polled a pass at a time, until the checkpoint drove its run to its end first (one chip)
    assert fields["counter"] == counter and chip._counters[0] == counter + 1  # read before the checkpoint counted
    assert (fields["sabot"], fields["segment"], fields["seq"], fields["chain"]) == (
        end[0], end[1], end[2], end[3].hex())  # the journal's end when it was asked
    _verifies(fields, end, counter)
    key = tmp_path / "element.pub"
    key.write_text(journal_key(DEVELOPMENT_SEED).hex() + "\n")
    folder = board.storage.folder
    (tmp_path / "journal" / "receipt.json").write_text(json.dumps(fields) + "\n")  # as pull-log keeps it
    (tmp_path / "journal" / "pull.json").write_text(json.dumps({"nonce": NONCE.hex(), "port": "test", "time": "now"}))
    code, said = verified(folder, public_key=key)
    assert code == 0, said  # the receipt, and the checkpoint written meanwhile, signed and in their order
