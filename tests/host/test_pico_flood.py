"""A loop no request can starve, on the emulated Pico's production image (issue 38): eleven firmware challenges in one
write (each the whole program region, 775 ms on the chip in one go) and a mebibyte of requests while the croupier
deals: no watchdog reset, every coup dealt to its end, every card through the gate, the longest pass of the loop
within bench/budgets.json's 100 ms. About as long as tests/host/test_pico_production.py."""

import pytest

from bench.pico_flood import COUPS, flooded
from tests.host.test_pico_boot import image  # noqa: F401 (the fixture)

pytestmark = pytest.mark.pico


@pytest.mark.req("S-FAILSAFE", "P-FUZZ", "J-EVERY")
def test_eleven_challenges_and_a_megabyte_flood_while_dealing_neither_reset_nor_stop_a_production_pico(
        image, tmp_path):  # noqa: F811
    got = flooded(tmp_path)
    causes = [b["cause"] for b in got["boots"]]
    assert "watchdog" not in causes, got
    status = got["status"]
    assert status["busy"] > 0 and status["bursts"] >= 1 and status["alarms"] == 0 and not status["broken"], got
    assert status["longest_pass"] <= 100, got  # ms of the chip's time: bench/budgets.json's pico.flood figure
    assert got["reply"]["dealt"] >= 2 * COUPS, got  # every coup dealt to its end
    assert status["seq"] > got["cards"], got  # each card journalled (a record each, and more)
