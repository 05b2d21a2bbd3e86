"""`sabot log verify` checks the shoe's signed checkpoints with its secure element's public key alone (J-TAMPER,
K-ELEMENT, K-COUNTER; docs/journal-format.md "Checkpoints"): every signature, the counters one by one, each
checkpoint's chain against the journal's own bytes, the records after the last one said; a checkpoint signed by
any other key fails, and without a public key verify says the checkpoints were not checked. The journals are the
sim board's with an element (the model, in this process), as the virtual board's and a Pico's are."""

import io
import json
import struct
import zlib
from hashlib import sha256

import pytest

from boards.sim import p256
from boards.sim.board import SimBoard
from boards.sim.element import DEVELOPMENT_SEED, SimElement, journal_key, private_key
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware import layout as fmt
from firmware.format import checkpoint as cp
from firmware.storage import FileStorage
from sabot import attested
from sabot.verify import verify
from tests.host.test_rollback import with_element

DEALT = "seance table=3\nshoe seed=4\nno_more_bets\ndraw 4\ncoup_end\nno_more_bets\ndraw 4\ncoup_end\n"


def dealt(tmp_path, text=DEALT):
    """A journal folder with its checkpoints, and the public key file of the element that signed them."""
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    chip = with_element(board, tmp_path)
    run(parse(text), board)
    board.power_cut()
    key = tmp_path / "element.pub"
    key.write_text(journal_key(DEVELOPMENT_SEED).hex() + "\n")
    return tmp_path / "journal", key, chip


def verified(folder, *, lang="en", **options):
    out = io.StringIO()
    code = verify([str(folder)], None, lang == "json", out=out, allow_development_key=True,
                  lang="en" if lang == "json" else lang, **options)
    return code, out.getvalue()


def tampered(folder, **options):
    code, said = verified(folder, lang="json", **options)
    answer = json.loads(said)
    return code, [f["message"] for f in answer["findings"] if f["id"] == "J-TAMPER"], answer["checkpoints"]


def entries(folder):
    data = (folder / cp.FILE).read_bytes()
    return [bytearray(data[i:i + cp.SIZE]) for i in range(0, len(data), cp.SIZE)]


def sealed(entry, scalar):
    """An entry signed with the private key scalar, its CRC made again: as the element's internal-sign key would
    sign it, were its counter the entry's (what no chip does for a counter it has passed: a forger's key)."""
    vouched = sha256(cp.LABEL + bytes(entry[:cp.SIGNED])).digest()
    digest = attested.digest(vouched, struct.unpack_from("<I", entry, 4)[0], entry[cp.RAND_AT:cp.CHIP_AT],
                             entry[cp.CHIP_AT:cp.CHIP_AT + 5])
    entry[cp.SIGNATURE_AT:cp.CRC_AT] = p256.sign(scalar, digest)
    struct.pack_into("<I", entry, cp.CRC_AT, zlib.crc32(entry[:cp.CRC_AT]))
    return entry


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "H-VERIFY")
def test_an_honest_journals_checkpoints_verify_with_the_public_key_and_the_records_after_the_last_are_said(
        tmp_path):
    folder, key, chip = dealt(tmp_path)
    code, found, points = tampered(folder, public_key=key)
    assert [m for m in found if "receipt" not in m] == []
    # boot, séance, and each coup's opening and end, the end signed with its opening's counter value (issue 37)
    assert points["checked"] and points["count"] == 6 and chip._counters[0] == 4
    assert [e[1] for e in entries(folder)] == [cp.BOOT, cp.SEANCE, cp.OPENING, cp.COUP_END, cp.OPENING, cp.COUP_END]
    assert [struct.unpack_from(cp.ENTRY, e)[3] for e in entries(folder)] == [1, 2, 3, 3, 4, 4]
    assert points["counters"] == [1, 4] and points["records_after"] == 0
    _, said = verified(folder, lang="fr", public_key=key)
    assert "points de contrôle : 6 signés par l'élément sécurisé du sabot (compteur 1 à 4)" in said
    assert "0 enregistrement(s) après lui" in said


@pytest.mark.req("H-VERIFY", "K-ELEMENT")
def test_without_a_public_key_verify_says_the_checkpoints_were_not_checked(tmp_path):
    folder, _, _ = dealt(tmp_path)
    _, said = verified(folder, lang="fr")
    assert "points de contrôle : non vérifiés (aucune clé publique" in said
    assert tampered(folder)[2] == {"checked": False}


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_a_checkpoint_forged_under_another_p256_key_fails_verify(tmp_path):
    folder, key, _ = dealt(tmp_path)
    forged = entries(folder)
    other = p256.scalar(sha256(b"the cheat's own element").digest())
    forged[-1] = sealed(forged[-1], other)
    (folder / cp.FILE).write_bytes(b"".join(forged))
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and any("checkpoint 6 (counter 4) is not signed by the shoe's element" in m for m in found), found
    _, said = verified(folder, lang="fr", public_key=key)
    assert "le point de contrôle 6 (compteur 4) n'est pas signé par l'élément sécurisé du sabot" in said


@pytest.mark.req("J-TAMPER", "K-COUNTER")
def test_checkpoints_removed_from_the_middle_or_the_file_deleted_fail_verify(tmp_path):
    folder, key, _ = dealt(tmp_path)
    kept = entries(folder)
    (folder / cp.FILE).write_bytes(b"".join(kept[:2] + kept[4:]))  # the first coup's opening and end
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and any("follows counter 2: 1 checkpoint(s) missing" in m for m in found), found
    assert any("does not hold the hash of the entry before it" in m for m in found), found
    (folder / cp.FILE).unlink()
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and any("no checkpoint file with the journal" in m for m in found), found


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_a_journal_cut_behind_its_last_checkpoint_fails_verify_with_the_public_key(tmp_path):
    folder, key, _ = dealt(tmp_path)
    last = sorted(folder.glob("*.sbj"))[-1]
    last.write_bytes(last.read_bytes()[:-3 * fmt.FRAME_SIZE])  # the second coup's end and result cut
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and any("which the journal does not hold: records cut or deleted" in m for m in found), found


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_a_checkpoint_whose_chain_is_not_the_journals_fails_verify_even_signed_by_the_element(tmp_path):
    folder, key, _ = dealt(tmp_path)
    changed = entries(folder)
    changed[2][cp.PREVIOUS_AT - 1] ^= 1  # the chain value's last byte, signed again by the shoe's own key
    changed[2] = sealed(changed[2], private_key(DEVELOPMENT_SEED, 1))
    (folder / cp.FILE).write_bytes(b"".join(changed))
    code, found, _ = tampered(folder, public_key=key)
    assert code == 1 and any("checkpoint 3 (counter 3): the chain at seq" in m for m in found), found


@pytest.mark.req("H-VERIFY", "K-ELEMENT")
def test_the_casinos_registry_gives_the_public_key_of_the_journals_sabot_number(tmp_path):
    folder, key, _ = dealt(tmp_path)
    other = p256.public_key(p256.scalar(sha256(b"another shoe").digest())).hex()
    registry = tmp_path / "shoes.json"
    registry.write_text(json.dumps({"shoes": [
        {"sabot": 1, "public_key": key.read_text().strip(), "casino_key": "00", "enrolled": "2026-12-01T08:00:00"},
        {"sabot": 2, "public_key": other, "casino_key": "00", "enrolled": "2026-12-01T08:00:00"}]}))
    code, found, points = tampered(folder, registry=registry)
    assert points["count"] == 6 and not [m for m in found if "checkpoint" in m]
    registry.write_text(json.dumps({"shoes": [
        {"sabot": 1, "public_key": other, "casino_key": "00", "enrolled": "2026-12-01T08:00:00"}]}))
    code, found, _ = tampered(folder, registry=registry)
    assert code == 1 and any("written under another element" in m for m in found), found
    # Another element's key checks no signature: its one finding says so (README), no checkpoint's nor receipt's.
    assert not [m for m in found if "checkpoint" in m or "signed" in m], found



@pytest.mark.req("J-TAMPER", "K-COUNTER")
def test_the_c_core_reads_every_entry_and_says_how_many_from_the_first_are_in_line(tmp_path):
    """sabot._frames.entries against struct: each entry's segment, seq and chain; in line, up to the first damaged,
    out of counter or going back."""
    from sabot import _frames

    folder, _, _ = dealt(tmp_path)
    kept = entries(folder)
    fields = [struct.unpack_from(cp.ENTRY, e) for e in kept]
    count, in_line, segments, seqs, chains = _frames.entries(b"".join(kept) + b"torn")
    assert (count, in_line) == (6, 6)  # a coup's end after its opening: the same counter, in line
    assert list(memoryview(segments).cast("I")) == [f[4] for f in fields]
    assert list(memoryview(seqs).cast("I")) == [f[5] for f in fields]
    assert chains == b"".join(f[6] for f in fields)
    damaged = [bytearray(e) for e in kept]
    damaged[2][20] ^= 1
    assert _frames.entries(b"".join(damaged))[:2] == (6, 2)
    assert _frames.entries(b"".join(kept[:2] + kept[3:]))[:2] == (5, 2)  # an opening removed: the hash of it
    counted = [bytearray(e) for e in kept]
    struct.pack_into("<I", counted[3], 4, fields[2][3] + 1)  # a coup's end counted up after its opening
    assert _frames.entries(b"".join(sealed(e, private_key(DEVELOPMENT_SEED, 1)) for e in counted))[:2] == (6, 3)
    back = [bytearray(e) for e in kept]
    struct.pack_into("<I", back[3], 12, fields[2][5] - 1)  # seq before the one before it
    assert _frames.entries(b"".join(sealed(e, private_key(DEVELOPMENT_SEED, 1)) for e in back))[:2] == (6, 3)
    unreached = [bytearray(e) for e in kept]
    unreached[1][cp.PREVIOUS_AT - 32:cp.PREVIOUS_AT] = bytes(32)  # the chain value a walk gives a seq it did not reach
    assert _frames.entries(b"".join(sealed(e, private_key(DEVELOPMENT_SEED, 1)) for e in unreached))[:2] == (6, 1)
    rewritten = [bytearray(e) for e in kept]
    rewritten[1][1] = cp.PULL  # an earlier entry's reason, signed again: the next one holds the old one's hash
    assert _frames.entries(b"".join(kept[:1] + [sealed(rewritten[1], private_key(DEVELOPMENT_SEED, 1))] + kept[2:])
                           )[:2] == (6, 2)


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_the_c_core_and_pyca_cryptography_agree_on_every_entrys_signature(tmp_path):
    """sabot._frames.PublicKey (OpenSSL, without the GIL) says which entries are not the element's, as pyca's
    verify does one by one; over any span, its multiples precomputed or not, and in threads (File.unsigned)."""
    from sabot import _frames, checkpoints, element

    folder, key, _ = dealt(tmp_path, DEALT + "no_more_bets\ndraw 4\ncoup_end\n" * 3)
    public = checkpoints.read_public_key(key)
    kept = entries(folder)
    kept[2][cp.SIGNATURE_AT + 5] ^= 1  # a signature's byte
    kept[4][1] = cp.PULL  # a reason rewritten, its CRC made good
    struct.pack_into("<I", kept[4], cp.CRC_AT, zlib.crc32(kept[4][:cp.CRC_AT]))
    data = b"".join(kept)
    points = checkpoints.File(data)
    assert [i for i in range(len(points)) if not points[i].signed_by(public)] == [2, 4]
    assert sorted(points.unsigned(public)) == [2, 4]
    for precomputed in (False, True):
        key = _frames.PublicKey(element.xy(public), precomputed)
        assert list(memoryview(key.unsigned(data, cp.VERSION, 3, 7)).cast("I")) == [4]
    other = p256.public_key(p256.scalar(b"another element's seed"))
    assert sorted(points.unsigned(element.public_key(other))) == list(range(len(points)))


CURVE_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B  # P-256's: y^2 = x^3 - 3x + b


def _signed_entries(layout, scalar, count):
    """count entries of a layout (sabot.checkpoints.V1, V2, V3), each its own bytes, signed with the scalar."""
    made = []
    for i in range(count):
        entry = bytearray(sha256(b"entry %d" % i).digest() * 6)[:layout.size]
        digest = layout.digest(entry, struct.unpack_from("<I", entry, 4)[0])
        entry[layout.signature_at:layout.signature_at + 64] = p256.sign(scalar, digest)
        made.append(entry)
    return made


def _pyca_unsigned(layout, public, data):
    from sabot import element

    size, at = layout.size, layout.signature_at
    return [i for i in range(len(data) // size) if not element.verifies(
        public, layout.digest(data[i * size:(i + 1) * size], struct.unpack_from("<I", data, i * size + 4)[0]),
        data[i * size + at:i * size + at + 64])]


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
@pytest.mark.parametrize("version", [1, 2, 3])
def test_the_c_cores_verification_and_pycas_agree_on_bad_signatures_of_every_kind(version):
    """The C core's ECDSA (its key's multiples precomputed or not, its S inverted a batch at once, x compared in
    Jacobian coordinates) says of each signature what pyca/cryptography's verify says: R or S zero, n or above, one
    bit changed in R, S or the signed bytes, R and S swapped, S negated (n - S: still a signature of the same
    digest), over batches and spans that cut them anywhere."""
    from sabot import _frames, checkpoints, element

    layout = checkpoints.LAYOUTS[version]
    scalar = p256.scalar(b"the kinds' element")
    public = element.public_key(p256.public_key(scalar))
    made = _signed_entries(layout, scalar, 150)
    at = layout.signature_at
    n = p256.N
    for i, bad in {3: bytes(32) + made[3][at + 32:at + 64], 4: made[4][at:at + 32] + bytes(32),
                   5: n.to_bytes(32, "big") + made[5][at + 32:at + 64],
                   6: made[6][at:at + 32] + n.to_bytes(32, "big"), 7: b"\xff" * 64,
                   8: made[8][at + 32:at + 64] + made[8][at:at + 32],
                   9: made[9][at:at + 32] + (n - int.from_bytes(made[9][at + 32:at + 64], "big")).to_bytes(32, "big"),
                   63: made[63][at:at + 32] + (int.from_bytes(made[63][at + 32:at + 64], "big") + n).to_bytes(
                       33, "big")[1:]}.items():
        made[i][at:at + 64] = bad
    for i, byte in ((10, at + 1), (11, at + 40), (64, 0), (65, at - 1), (127, at + 63), (128, at), (149, 7),
                    (130, 4), (131, at - 6)):  # 3: the counter, the chip's RandOut
        made[i][byte] ^= 0x10
    data = b"".join(made)
    expected = _pyca_unsigned(layout, public, data)
    assert 9 not in expected and {3, 4, 5, 6, 7, 8, 10, 11, 64, 65, 127, 128, 130, 131, 149} <= set(expected)
    for precomputed in (False, True):
        key = _frames.PublicKey(element.xy(public), precomputed)
        assert list(memoryview(key.unsigned(data, version, 0, len(made))).cast("I")) == expected
        assert list(memoryview(key.unsigned(data, version, 5, 129)).cast("I")) == [i for i in expected if 5 <= i < 129]
        assert key.unsigned(data, version, 70, 70) == b""
    assert sorted(checkpoints.File(data, layout).unsigned(public)) == expected
    with pytest.raises(ValueError):
        _frames.PublicKey(bytes(64))  # not a point of P-256
    with pytest.raises(ValueError):
        key.unsigned(data, version, 0, len(made) + 1)


def _minus(a, b):
    """The affine point a - b on P-256, for a and b neither equal nor opposite."""
    (x1, y1), (x2, y2) = a, (b[0], -b[1] % p256.P)
    slope = (y2 - y1) * pow(x2 - x1, -1, p256.P) % p256.P
    x3 = (slope * slope - x1 - x2) % p256.P
    return x3, (slope * (x1 - x3) - y1) % p256.P


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_a_signature_whose_point_has_an_x_of_n_or_more_verifies_in_the_c_core_as_in_pyca():
    """ECDSA compares x mod n with R: the point's x can be n + R (below p), one in 2**128 signatures. Built here
    for a key made for it (R = S = t: u2 = 1, Q = the point less u1 G), it verifies in both, and fails for another
    entry."""
    from sabot import _frames, checkpoints, element

    t = 1
    while True:  # a point of P-256 whose x is n + t
        x = p256.N + t
        square = (x ** 3 - 3 * x + CURVE_B) % p256.P
        y = pow(square, (p256.P + 1) // 4, p256.P)
        if y * y % p256.P == square:
            break
        t += 1
    layout = checkpoints.V2
    entries = [bytearray(sha256(b"entry %d" % i).digest() * 5)[:layout.size] for i in range(2)]
    digest = int.from_bytes(sha256(cp.LABEL + bytes(entries[0][:layout.signed])).digest(), "big")
    q = _minus((x, y), p256.base_times(digest * pow(t, -1, p256.N) % p256.N))
    xy = q[0].to_bytes(32, "big") + q[1].to_bytes(32, "big")
    for entry in entries:
        entry[layout.signed:layout.signed + 64] = t.to_bytes(32, "big") * 2
    data = b"".join(entries)
    assert _pyca_unsigned(layout, element.public_key(xy), data) == [1]
    for precomputed in (False, True):
        assert bytes(_frames.PublicKey(xy, precomputed).unsigned(data, 2, 0, 2)) == struct.pack("=I", 1)


@pytest.mark.req("J-TAMPER", "K-ELEMENT")
def test_a_coup_opened_under_a_signature_is_unended_when_the_next_entry_is_neither_its_end_nor_an_interruption():
    """sabot.openings.unended over a checkpoint File in line (its entries' bytes) and over a list of entries (the
    entry by entry way, where a coup's end must also carry its opening's counter): the openings it names are those
    whose next entry is not an alarm's, a power-up's, a recovery's, a pull's, nor their end; one at the last entry
    is the records after it."""
    import random

    from sabot import checkpoints, openings

    kinds = [cp.OPENING] * 4 + [cp.COUP_END] * 3 + [cp.ALARM, cp.BOOT, cp.RECOVERY, cp.PULL, cp.SEANCE, cp.AUTHORITY]
    passing = (cp.ALARM, cp.BOOT, cp.RECOVERY, cp.PULL)
    draw = random.Random(37)
    for _ in range(40):
        reasons = [draw.choice(kinds) for _ in range(draw.randrange(1, 60))]
        counters = [1]
        for before, reason in zip(reasons, reasons[1:]):
            counters.append(counters[-1] + (reason != cp.COUP_END or before != cp.OPENING))
        data = b"".join(struct.pack(cp.ENTRY, 2, reason, 1, counter, 1, counter, bytes(32), bytes(32)) + bytes(68)
                        for reason, counter in zip(reasons, counters))
        points = checkpoints.File(data)
        named = [int(f.message.split("checkpoint ")[1].split(" ")[0]) - 1 for f in openings.unended(points, [])]
        assert named == [i for i in range(len(reasons) - 1) if reasons[i] == cp.OPENING
                         and reasons[i + 1] not in passing + (cp.COUP_END,)]
        listed = points.entries()
        for entry in listed:
            entry.counter += draw.random() < 0.2  # an end that does not carry its opening's counter
        named = [int(f.message.split("checkpoint ")[1].split(" ")[0]) - 1 for f in openings.unended(listed, [])]
        assert named == [i for i in range(len(reasons) - 1) if reasons[i] == cp.OPENING and not (
            reasons[i + 1] in passing or reasons[i + 1] == cp.COUP_END and listed[i + 1].counter == listed[i].counter)]


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "H-VERIFY")
def test_checkpoints_in_line_and_checkpoints_read_one_by_one_give_the_same_verdict(tmp_path):
    """The quick way (every entry in line, the chain values the reading of the journal kept compared a segment at
    once) and the entry by entry way (what an entry out of line takes) say the same of an honest journal and of
    tampered ones."""
    from firmware.devkey import DEVELOPMENT_KEY
    from sabot import checkpoints, openings
    from sabot.verify import _check

    def both(folder, key):
        keys = [checkpoints.read_public_key(key)]
        points = checkpoints.read([folder])
        segments, reader, _ = _check([folder], DEVELOPMENT_KEY, wanted=checkpoints.wanted(points))
        quick, found = checkpoints.findings([folder], segments, reader.seq, keys, reader, points)
        slow, said = checkpoints._one_by_one(points, segments, reader.seq, points.unsigned(keys[0]),
                                             checkpoints._kept(reader))
        said += openings.unended(slow.entries, segments)
        assert quick.as_json() == slow.as_json()
        assert [(f.seq, f.message) for f in found] == [(f.seq, f.message) for f in said]
        return quick.as_json(), [f.message for f in found], isinstance(quick.entries, checkpoints.File)

    folder, key, _ = dealt(tmp_path, DEALT + "no_more_bets\ndraw 4\ncoup_end\n" * 3)
    points, found, in_line = both(folder, key)
    assert (points["count"], points["counters"], points["records_after"], found, in_line) == (12, [1, 7], 0, [], True)
    changed = entries(folder)
    changed[2][cp.PREVIOUS_AT - 1] ^= 1
    (folder / cp.FILE).write_bytes(b"".join(sealed(e, private_key(DEVELOPMENT_SEED, 1)) for e in changed))
    assert any("the chain at seq" in m for m in both(folder, key)[1])
    last = sorted(folder.glob("*.sbj"))[-1]
    last.write_bytes(last.read_bytes()[:-3 * fmt.FRAME_SIZE])
    assert any("does not hold: records cut or deleted" in m for m in both(folder, key)[1])


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "H-VERIFY")
def test_a_part_whose_slot_1_signs_digests_keeps_format_2_entries_signed_by_slot_0_and_they_verify_as_before(tmp_path):
    """A part configured otherwise (slot 1 allowed external signatures: no internal-sign key the shoe can trust to
    vouch for its counter): the shoe signs its entries with slot 0 over their digest (format 2, 148 bytes), enrols
    slot 0's key, and verify checks them as before the chip-attested counter; a format 2 entry never verifies with a
    slot 1 key, which on a Trust&GO signs no digest."""
    made = SimElement(DEVELOPMENT_SEED)  # a Trust&GO as it leaves the factory, its configuration then changed
    config = bytearray(made.config())
    config[22:24] = b"\x85\x00"  # slot 1's SlotConfig: external Sign and ECDH, as slot 0's
    chip = SimElement(DEVELOPMENT_SEED, str(tmp_path / "other.element"), config=bytes(config),
                      generations=bytes(made._generations))
    folder, _, _ = dealt(tmp_path, DEALT)
    assert (folder / cp.FILE).read_bytes()[0] == cp.VERSION  # the default part: format 3
    old = tmp_path / "old"
    old.mkdir()
    board = SimBoard(FileStorage(str(old / "journal")))
    with_element(board, old, chip)
    run(parse(DEALT), board)
    board.power_cut()
    data = (old / "journal" / cp.FILE).read_bytes()
    assert data[0] == cp.EXTERNAL and len(data) % cp.EXTERNAL_SIZE == 0 and len(data) // cp.EXTERNAL_SIZE == 6
    key = old / "slot0.pub"
    key.write_text(p256.public_key(p256.scalar(DEVELOPMENT_SEED)).hex() + "\n")
    code, found, points = tampered(old / "journal", public_key=key)
    assert [m for m in found if "receipt" not in m] == [] and points["count"] == 6
    other = old / "slot1.pub"
    other.write_text(journal_key(DEVELOPMENT_SEED).hex() + "\n")
    code, found, _ = tampered(old / "journal", public_key=other)
    assert code == 1 and any("written under another element" in m for m in found), found


@pytest.mark.req("J-TAMPER", "K-ELEMENT", "S-FAILSAFE")
def test_a_shoe_updated_from_a_firmware_that_signed_with_slot_0_goes_on_so_and_boots_without_a_rollback(
        tmp_path, monkeypatch):
    """A shoe commissioned under a firmware that signed its entries with slot 0 (format 2), then updated: its
    journal in progress keeps format 2 and slot 0's key (the one the casino enrolled), so that its power-up finds
    the entries it wrote and raises no rollback fault on an honest update; a journal begun afterwards is the chip's."""
    from firmware import checkpoints as points

    real = points.journal_key
    monkeypatch.setattr(points, "journal_key", lambda element: (None, element.public_key(0)))  # the older firmware
    board = SimBoard(FileStorage(str(tmp_path / "journal")))
    with_element(board, tmp_path)
    run(parse(DEALT), board)
    board.power_cut()
    monkeypatch.setattr(points, "journal_key", real)  # the update
    with_element(board, tmp_path, SimElement.load(str(tmp_path / "element")))
    board.power_on()
    assert board.shell.ctl.alarms == 0  # no fault: neither a rollback nor a journal it could not write on
    run(parse("shoe seed=5\nno_more_bets\ndraw 4\ncoup_end\n"), board)
    board.power_cut()
    data = (tmp_path / "journal" / cp.FILE).read_bytes()
    assert data[0] == cp.EXTERNAL and len(data) % cp.EXTERNAL_SIZE == 0 and data[-cp.EXTERNAL_SIZE] == cp.EXTERNAL
    key = tmp_path / "slot0.pub"
    key.write_text(p256.public_key(p256.scalar(DEVELOPMENT_SEED)).hex() + "\n")
    code, found, points_said = tampered(tmp_path / "journal", public_key=key)
    assert [m for m in found if "receipt" not in m] == [] and points_said["count"] == len(data) // cp.EXTERNAL_SIZE
