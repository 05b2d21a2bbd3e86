"""A loop no request can starve, on the emulated Pico's production image (issue 38): eleven firmware challenges in one
write (each the whole program region, 775 ms on the chip in one go) and a flood of requests (bench/pico_flood.py's
FLOOD: the issue's mebibyte would take the emulator hours) while the croupier deals. One emulator session (some 3
minutes) for both tests; marked pico_long: make test-pico runs it, make test does not (CI's time)."""

import pytest

from bench.pico_flood import COUPS, flooded
from firmware.format import commands as c
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.pico, pytest.mark.pico_long]


@pytest.fixture(scope="module")
def flood(image, tmp_path_factory):  # noqa: F811
    return flooded(tmp_path_factory.mktemp("pico_flood"))


@pytest.mark.req("S-FAILSAFE", "P-FUZZ", "J-EVERY")
def test_a_flood_while_dealing_neither_resets_a_production_pico_nor_goes_unanswered_and_every_card_is_journalled(
        flood):
    assert [b["cause"] for b in flood["boots"]] == ["power"], flood  # no watchdog reset, no restart
    for part in ("eleven", "flood"):  # every request answered once, busy at worst: the USB never stalled
        assert len(flood["answered"][part]) == flood["asked"][part], (part, flood["asked"])
    assert set(flood["answered"]["eleven"]) <= {c.OK, c.E_BUSY}
    assert c.E_BUSY in flood["answered"]["flood"] and c.OK in flood["answered"]["flood"]  # served, and held off
    status = flood["status"]
    assert status["busy"] > 0 and status["bursts"] >= 1 and not status["broken"], status
    # every coup dealt to its end (four cards at least; a draw beyond the tableau's refused), the gate late under
    # the flood but opened for each request: bench/pico_flood.py's croupier waits PATIENCE_US for it
    assert status["alarms"] == 0 and flood["reply"]["refused"] <= 2 * COUPS, flood
    assert flood["reply"]["dealt"] >= 4 * COUPS + 1, flood
    assert flood["cards"] == flood["reply"]["dealt"] == len(flood["dealt"]), flood
    assert flood["journalled"] == flood["dealt"], flood  # each card out a record, with its own identity


@pytest.mark.req("S-FAILSAFE")
def test_under_a_flood_no_pass_of_the_loop_exceeds_100_ms(flood):
    assert flood["status"]["longest_pass"] <= 100, flood["status"]  # the chip's ms: budgets.json's pico.flood figure
