"""The card reader's line protocol (boards/mcu/reader.py) on a fake UART and clock."""

import pytest

from boards.mcu.reader import FRESH_MS, CardReader
from firmware import cards
from tests.host.fake_machine import FakeUart, reader_with
from tests.host.handler_source import assert_builds_nothing, function

pytestmark = pytest.mark.usefixtures("ticks")
AS = cards.parse("AS")
KH = cards.parse("KH")


@pytest.mark.req("J-EVERY", "S-STOP")
def test_reader_lines_map_to_card_codes_and_unreadable_to_unknown(ticks):
    reader = CardReader(FakeUart())
    now = ticks.ticks_ms()
    for line in (b"AS\n", b"KH\r\n", b"STOP\n", b"??\n"):
        for byte in line:
            reader.feed(byte, now)
    assert [reader.take(now) for _ in range(5)] == [AS, KH, cards.STOP, cards.UNKNOWN, cards.UNKNOWN]
    assert reader.errors == 0


@pytest.mark.req("J-EVERY")
def test_garbage_blank_and_overlong_lines_never_become_an_identity(ticks):
    reader = reader_with(b"\n", b"XS\n", b"A\n", b"\xff\xfe\n", b"QUEEN OF HEARTS\n", b"TD\n", at=ticks.ticks_ms())
    assert reader.errors == 4
    assert reader.take(ticks.ticks_ms()) == cards.parse("TD")


@pytest.mark.req("J-EVERY")
def test_an_identity_older_than_fresh_ms_is_dropped_across_the_ticks_wrap(ticks):
    ticks.sleep_ms(4500)
    reader = reader_with(b"AS\n", at=ticks.ticks_ms())  # 500 ms before the wrap
    ticks.sleep_ms(FRESH_MS + 1)
    for byte in b"KH\n":
        reader.feed(byte, ticks.ticks_ms())
    ticks.sleep_ms(10)
    assert reader.take(ticks.ticks_ms()) == KH  # AS is stale
    assert reader.take(ticks.ticks_ms()) == cards.UNKNOWN


@pytest.mark.req("J-EVERY")
def test_a_full_queue_refuses_and_counts_the_newest(ticks):
    now = ticks.ticks_ms()
    reader = reader_with(b"AS\n", b"2S\n", b"3S\n", b"4S\n", b"5S\n", b"6S\n", at=now)
    assert reader.errors == 2
    assert [cards.name(reader.take(now)) for _ in range(5)] == ["AS", "2S", "3S", "4S", "??"]


@pytest.mark.req("J-EVERY")
def test_poll_reads_what_the_uart_holds(ticks):
    uart = FakeUart()
    reader = CardReader(uart)
    uart.incoming += b"QD\r\nJC\nAS"  # the last line not yet complete
    reader.poll()
    now = ticks.ticks_ms()
    assert [cards.name(reader.take(now)) for _ in range(3)] == ["QD", "JC", "??"]
    uart.incoming += b"\n"
    reader.poll()
    assert reader.take(now) == AS


@pytest.mark.req("J-EVERY")
def test_the_readers_take_builds_nothing():
    assert_builds_nothing(function("boards/mcu/reader.py", "take"))
