"""The board drivers' fixtures (tests/host/fake_machine.py holds the fakes): only the tests that name them get them,
so no other test sees MicroPython's time functions on CPython's time module."""

import pytest

from tests.host.fake_machine import PERIOD, Ticks


@pytest.fixture
def ticks(monkeypatch):
    """Every driver reads the time: a clock the test moves, near the wrap, so that every test crosses it."""
    clock = Ticks(PERIOD - 5000)
    clock.install(monkeypatch)
    return clock


@pytest.fixture
def shop(tmp_path, monkeypatch):
    """The shoe's filesystem: its key, and the working folder a board's start() finds it in."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keys").mkdir()
    key = bytes(range(32))
    (tmp_path / "keys" / "sabot.key").write_text(key.hex())
    return key
