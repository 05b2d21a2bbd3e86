"""The README's commands, run in the clone's root as written, leave nothing `git add .` would commit: the casino's
key above all (issue 40, finding 14)."""

import re
import shlex
import subprocess

import pytest

from tests.conftest import ROOT

# The options and positions by which a README command names a file or folder it writes.
_WRITES = ("--fs", "--out", "-o", "--db", "--parquet", "--registry", "--ledger", "--stakes")


def written_paths():
    """Every path the README's shell blocks write, relative to the root (the shoe's own /paths and build outputs
    aside)."""
    text = (ROOT / "README.md").read_text()
    found = set()
    for block in re.findall(r"```\n(.*?)```", text, re.S):
        for line in block.splitlines():
            words = shlex.split(line.split("#")[0].replace("&", " "))
            if not words or words[0] not in ("sabot", "mpremote"):
                continue
            for i, word in enumerate(words[:-1]):
                following = words[i + 1]
                if word in _WRITES:
                    found.add(following)
                    if word == "--fs":
                        found.update((following + ".tty", following + ".element"))
                if word == ">":
                    found.add(following)
                if word in ("new", "signer") and words[1] == "key":
                    found.add(following)
                    if word == "signer":  # its public key beside it
                        found.add(following.rsplit(".", 1)[0] + ".pub")
                if word == "--registry" or word == "sign" and words[1] == "key":  # the registry's signatures
                    found.add((following if word == "--registry" else "shoes.json") + ".sig")
                if word == "cp":
                    found.add(following)
            if words[1:2] == ["pull-log"] and not words[-1].startswith("-") and words[-2] != "--port":
                found.add(words[-1])
    return sorted(p for p in found if not p.startswith(("/", ":", "build/", "dist/")) and not p.isupper()
                  and re.fullmatch(r"[\w./-]+", p) and not re.search(r"[A-Z]{3,}", p))


def test_the_readme_names_the_files_a_technician_makes():
    paths = written_paths()
    for expected in ("casino.key", "shoe", "shoe.tty", "shoe.element", "shoes.json", "journal/", "config.json",
                     "casino-signer.pem", "casino-signer.pub", "shoes.json.sig"):
        assert expected in paths, paths


@pytest.mark.req("K-ELEMENT")
def test_every_file_the_readme_commands_write_in_the_root_is_ignored():
    paths = written_paths()
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True,
                             text=True).stdout.split()
    assert sorted(set(paths) - set(ignored)) == []
