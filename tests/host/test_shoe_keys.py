"""Each shoe its own key (issue 38, P-AUTH): `sabot key enrol` gives a production shoe a key derived from the
casino's and its element's public key; the casino's key never reaches a shoe, two shoes of one casino hold different
keys, one shoe's key opens nothing on another, and a shoe enrolled under the casino's key itself (before shoe keys)
keeps it until `--current` gives it its own."""

import json

import pytest

from firmware.format import commands as c
from firmware.mac import Key
from sabot.production_link import production
from sabot.shoe_keys import shoe_secret
from sabot.verify import read_key
from tests.host.test_vboard import VirtualBoard, sabot


def held(board_folder):
    """The key the shoe keeps in its folder, as it reads it at each boot."""
    return bytes.fromhex((board_folder / "fs" / "keys" / "casino.key").read_text().strip())


@pytest.mark.req("P-AUTH", "P-ENROL")
def test_two_shoes_of_one_casino_hold_different_keys_and_neither_holds_the_casinos(tmp_path, mpy_build):
    casino = tmp_path / "casino.key"
    assert sabot("key", "new", casino).returncode == 0
    secret, registry = read_key(casino), tmp_path / "shoes.json"
    folders = [tmp_path / "a", tmp_path / "b"]
    boards = []
    try:
        for folder in folders:
            folder.mkdir()
            boards.append(VirtualBoard(folder, production=True))
            enrolled = sabot("key", "enrol", "--port", boards[-1].port, "--casino-key", casino, "--registry", registry,
                             "--code", boards[-1].code())
            assert enrolled.returncode == 0 and "the shoe's own key " in enrolled.stdout, enrolled.stderr
        a, b = (held(folder) for folder in folders)
        assert secret not in (a, b) and a != b
        entries = json.loads(registry.read_text())["shoes"]
        assert sorted(e["shoe_key"] for e in entries) == sorted(Key(k).id.hex() for k in (a, b))
        for entry in entries:  # each derived from the casino's key and that shoe's element
            assert Key(shoe_secret(secret, bytes.fromhex(entry["public_key"]))).id.hex() == entry["shoe_key"]
        # A's key, read from A's flash, opens nothing on B; the casino's key file does, through sabot.
        client = production(boards[1].port)
        try:
            assert client.set_number(Key(a), 7)[0] == c.E_AUTH
            assert client.status()["sabot"] == 1
        finally:
            client.link.close()
        renumbered = sabot("number", "set", "--port", boards[1].port, 7, "--casino-key", casino, "--registry",
                           registry)
        assert renumbered.returncode == 0 and "is sabot 7 (was 1)" in renumbered.stdout, renumbered.stderr
    finally:
        for board in boards:
            board.close()


@pytest.mark.req("P-AUTH", "P-ENROL", "P-AUTHORITY")
def test_a_shoe_enrolled_under_the_casinos_key_itself_keeps_it_until_current_gives_it_its_own(tmp_path, mpy_build):
    casino = tmp_path / "casino.key"
    casino.write_text(bytes(range(32, 64)).hex())
    (tmp_path / "fs" / "keys").mkdir(parents=True)
    (tmp_path / "fs" / "keys" / "casino.key").write_text(casino.read_text())  # as an enrolment before shoe keys
    registry = tmp_path / "shoes.json"
    board = VirtualBoard(tmp_path, production=True)
    try:
        kept = sabot("key", "enrol", "--port", board.port, "--casino-key", casino, "--registry", registry)
        assert kept.returncode == 0 and "holds the casino's key itself" in kept.stdout, kept.stderr
        assert "--current %s" % casino in kept.stdout and held(tmp_path) == read_key(casino)
        assert sabot("number", "set", "--port", board.port, 5, "--casino-key", casino).returncode == 0
        moved = sabot("key", "enrol", "--port", board.port, "--casino-key", casino, "--current", casino,
                      "--registry", registry)
        assert moved.returncode == 0 and "the shoe's own key " in moved.stdout, moved.stderr
        own = held(tmp_path)
        assert own != read_key(casino)
        (entry,) = json.loads(registry.read_text())["shoes"]
        assert entry["shoe_key"] == Key(own).id.hex() and entry["casino_key"] == Key(read_key(casino)).id.hex()
        again = sabot("number", "set", "--port", board.port, 6, "--casino-key", casino, "--registry", registry)
        assert again.returncode == 0 and "is sabot 6 (was 5)" in again.stdout, again.stderr
    finally:
        board.close()
