"""The board drivers' fixtures (tests/host/fake_machine.py holds the fakes): only the tests that name them get them,
so no other test sees MicroPython's time functions on CPython's time module."""

import pytest

from firmware.devkey import DEVELOPMENT_KEY
from tests.host.fake_machine import PERIOD, Ticks


@pytest.fixture
def ticks(monkeypatch):
    """Every driver reads the time: a clock the test moves, near the wrap, so that every test crosses it."""
    clock = Ticks(PERIOD - 5000)
    clock.install(monkeypatch)
    return clock


@pytest.fixture
def shop(tmp_path, monkeypatch):
    """The shoe's filesystem: the working folder a board's start() finds it in, with no key file (its element signs);
    the key a reader takes, which a format 4 journal does not use."""
    monkeypatch.chdir(tmp_path)
    return DEVELOPMENT_KEY
