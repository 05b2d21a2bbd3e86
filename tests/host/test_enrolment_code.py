"""First enrolment bound to the shoe's owner (issue 38): a new production shoe takes its first casino key only under
the one-time enrolment code printed on its label at the factory (sabot/enrolment_code.py), journalled with the code's
id as who asked, and forgets the code once it has; a stranger with the cable and without the label enrols nothing.
The factory's bench writes the code with `sabot key code` (the development image, over mpremote)."""

import json

import pytest

from firmware.format import commands as c
from firmware.mac import Key
from firmware.records import AU_KEY
from sabot.enrolment_code import ALPHABET, code_secret, new_code, normalised
from tests.host.protocol_shoe import Shoe
from tests.host.test_authority import _changes, _close, _id32, _pulled
from tests.host.test_vboard import VirtualBoard, sabot


@pytest.mark.req("P-ENROL")
def test_the_label_code_reads_back_as_typed_and_anything_else_is_refused():
    code = new_code()
    groups = code.split("-")
    assert [len(g) for g in groups] == [4] * 5 and all(c in ALPHABET for c in "".join(groups))
    typed = " ".join(groups).lower()  # spaces for dashes, lower case: the same code
    assert normalised(typed) == "".join(groups) and code_secret(typed) == code_secret(code)
    assert normalised("OIL0-1111-2222-3333-4444") == "01101111222233334444"  # O, I and L read as 0, 1, 1
    assert new_code() != code  # 100 random bits each
    for wrong in (code[:-1], code + "7", code[:-1] + "U", ""):
        with pytest.raises(ValueError, match="not an enrolment code"):
            normalised(wrong)


@pytest.mark.req("P-ENROL", "P-AUTHORITY")
def test_the_first_key_taken_under_the_code_is_journalled_with_the_codes_id_and_a_self_made_key_is_not(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 1}))
    label = Key(code_secret(new_code()))
    shoe = Shoe(casino=None, enrolment=label)
    _close(shoe)
    stranger = bytes(range(7, 39))
    assert shoe.client.casino_key(Key(stranger), stranger)[0] == c.E_AUTH  # as a first enrolment was before
    assert shoe.client.casino_key(Key(code_secret(new_code())), stranger)[0] == c.E_AUTH  # another label's code
    assert shoe.protocol.casino is None
    first = bytes(range(1, 33))
    assert shoe.client.casino_key(label, first)[0] == c.OK
    assert _changes(_pulled(shoe, tmp_path / "journal")) == [(AU_KEY, _id32(label), 0, _id32(Key(first)))]


@pytest.mark.req("P-ENROL", "P-AUTH")
def test_a_stranger_without_the_label_enrols_nothing_and_the_factorys_code_enrols_the_casino_once(
        tmp_path, mpy_build):
    """The factory's bench (a development board: `sabot key code`), then the shoe in production: key enrol without
    the code, with another, then with the label's."""
    bench = VirtualBoard(tmp_path, "--blank")
    try:
        written = sabot("key", "code", "--port", bench.port, "--label", tmp_path / "label.txt")
        again = sabot("key", "code", "--port", bench.port)
    finally:
        bench.close()
    assert written.returncode == 0, written.stderr
    code = (tmp_path / "label.txt").read_text().strip()
    assert "print it on its label: %s" % code in written.stdout
    held = tmp_path / "fs" / "keys" / "enrolment.key"
    assert held.read_text().strip() == code_secret(code).hex()
    assert again.returncode == 2 and "kept, nothing written" in again.stderr  # a code is never replaced
    assert held.read_text().strip() == code_secret(code).hex()
    casino = tmp_path / "casino.key"
    assert sabot("key", "new", casino).returncode == 0
    registry = tmp_path / "shoes.json"
    board = VirtualBoard(tmp_path, production=True)
    try:
        enrol = ("key", "enrol", "--port", board.port, "--casino-key", casino, "--registry", registry)
        without = sabot(*enrol)
        other = sabot(*enrol, "--code", new_code())
        done = sabot(*enrol, "--code", code.lower())
        thief = tmp_path / "thief.key"
        assert sabot("key", "new", thief).returncode == 0
        spent = sabot("key", "enrol", "--port", board.port, "--casino-key", thief, "--code", code,
                      "--registry", tmp_path / "thief.json")
    finally:
        board.close()
    assert without.returncode == 2 and "--code" in without.stderr and without.stderr.count("\n") == 1
    assert other.returncode == 2 and "not the code on its label" in other.stderr
    assert done.returncode == 0 and "sabot 1 enrolled" in done.stdout, done.stderr
    assert not held.exists()  # spent
    assert spent.returncode == 2 and "--current" in spent.stderr  # the label opens nothing once the casino holds it
    assert [s["sabot"] for s in json.loads(registry.read_text())["shoes"]] == [1]
