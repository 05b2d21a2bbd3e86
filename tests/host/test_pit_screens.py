"""The table's screen of `sabot pit` (issue 39) in headless Chromium: a coup in progress, a finished coup, an alarm and
the stop card, at chemin de fer and at baccara à deux tableaux. Each state is the pit's own fold (sabot.pit.table) of
a journal the sim deals on CPython, verified as the pit verifies it, served by the pit's own web server; the test
reads the page's words, cards and roadmap cells against the journal's; `make pit-screens` keeps the screenshots in
docs/pit/."""

import json
import os
import threading
from pathlib import Path

import pytest

from boards.sim.board import SimBoard
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.storage import FileStorage
from sabot import receipts
from sabot.fleet.ingest import verified
from sabot.journalfile import load_segments
from sabot.pit.table import Table
from sabot.pit.web import server
from sabot.verify import read_key
from sabot.web.chromium import Chromium
from tests.host.test_web import needs_chromium

CF = "game chemin_de_fer\nseance table=5\nshoe seed=77\n"
DT = "game deux_tableaux_limitee\nseance table=2\nshoe seed=5\n"
COUP_CF, COUP_DT = "no_more_bets\ndraw 6\n", "no_more_bets\ndraw 9\n"
SCREENS = {  # name: (scenario, the banner's state)
    "chemin-de-fer-coup-en-cours": (CF + COUP_CF * 3 + "no_more_bets\ndraw 2\n", "ouvert pour un coup"),
    "chemin-de-fer-coup-fini": (CF + COUP_CF * 4, "verrouillé"),
    "chemin-de-fer-alarme": (CF + COUP_CF * 2 + "force\n", "alarme"),
    "chemin-de-fer-carte-d-arret": (CF + COUP_CF * 80, "fermé"),
    "deux-tableaux-coup-en-cours": (DT + COUP_DT * 2 + "no_more_bets\ndraw 3\n", "ouvert pour un coup"),
    "deux-tableaux-coup-fini": (DT + COUP_DT * 3, "verrouillé"),
    "deux-tableaux-alarme": (DT + COUP_DT + "force\n", "alarme"),
    "deux-tableaux-carte-d-arret": (DT + COUP_DT * 40, "fermé"),
}


class Screens:
    """What the pit's web server asks of the pit: the state of one table a page, folded by the pit's Table."""

    def __init__(self):
        self.tables = []
        self.shoes = []

    def state_json(self):
        return json.dumps({"casino": "deauville", "now_ms": 0, "tables": self.tables, "findings": []}).encode()


def dealt(text, folder):
    """The sim's journal of the scenario, verified as the pit does; the Table folded from its rows."""
    sim = SimBoard(FileStorage(str(folder)), sabot=7)
    run(parse(text), sim)
    sim.close()
    per_segment, findings = verified(load_segments([folder]), read_key(None))
    findings = [f for f in findings if f.message != receipts.NO_RECEIPT]  # as the pit: a live journal has no receipt
    table = Table(7)
    rows = [row for rows in per_segment for row in rows]
    for row in rows:
        table.feed(row)
    return table.state(), rows, findings


@needs_chromium
@pytest.mark.req("G-CF", "G-DTL", "S-STOP", "S-FORCED", "T-CF", "T-DT")
@pytest.mark.parametrize("game", ["chemin-de-fer", "deux-tableaux"])
def test_the_table_screen_shows_the_coup_its_result_the_roadmap_the_stop_card_and_the_alarm(game, tmp_path):
    screens = Screens()
    httpd = server(screens, port=0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    shots = Path(os.environ.get("PIT_SCREENS") or tmp_path)  # make pit-screens: docs/pit/, kept for the reader
    shots.mkdir(exist_ok=True)
    try:
        with Chromium(tmp_path / "profile", tmp_path, width=1280, height=900) as browser:
            for name, (text, banner) in SCREENS.items():
                if not name.startswith(game):
                    continue
                state, rows, findings = dealt(text, tmp_path / name)
                screens.tables = [dict(state, link="suivi", why=None, records=len(rows), port=None,
                                       findings=[{"at_ms": 0, "sabot": 7, "table": state["table"], "seq": f.seq,
                                                  "id": f.id, "said": f.message, "message": f.message}
                                                 for f in findings])]
                browser.navigate("http://127.0.0.1:%d/table/7" % httpd.server_address[1])
                browser.wait_for("document.body.dataset.drawn")
                shown = browser.evaluate("""({state: document.getElementById('state').dataset.state,
                    cards: [...document.querySelectorAll('.hand')].map(h => [h.dataset.hand,
                        [...h.querySelectorAll('.card')].map(c => c.textContent)]),
                    road: [...document.querySelectorAll('.road-cell')].map(c => [c.className, +c.dataset.coup]),
                    result: document.getElementById('result').textContent,
                    stop: document.getElementById('stop').innerText,
                    title: document.getElementById('title').innerText})""")
                assert shown["state"] == banner == state["state"], (name, shown)
                assert shown["title"] == "Table %d — %s" % (state["table"], state["game"])
                coup = state["coup"]
                assert shown["cards"] == [[hand, [c["card"] for c in coup["cards"] if c["hand"] == hand]]
                                          for hand in state["hands"]], name  # every card in its hand, in order
                assert "Coup %d" % coup["number"] in shown["result"]
                if coup["result"]:  # Article 62's words: the bank's result, then who won
                    assert "banque : %s" % " / ".join(coup["result"]["bank"]) in shown["result"]
                letters = [cell for cell in shown["road"]]
                tableaux = len(state["hands"]) - 1
                decided = [r for r in state["road"] for t in range(tableaux) if r["winners"][t] != "E"]
                assert len(letters) == len(decided) > 0 or not state["road"], (name, letters)
                assert all(cls.split()[1] in "BP" for cls, _ in letters)  # a tie marks the cell before it
                if banner == "fermé":
                    assert shown["stop"] == "Carte d'arrêt sortie : dernier coup du sabot"
                else:
                    assert shown["stop"].endswith("avant la carte d'arrêt")
                    assert int(shown["stop"].split()[0]) == state["before_stop"] > 0
                if banner == "alarme":
                    assert state["alarms"] and [f.id for f in findings] == ["S-FORCED"]
                browser.screenshot(shots / (name + ".png"))
    finally:
        httpd.shutdown()
    assert all((shots / (name + ".png")).stat().st_size > 10_000 for name in SCREENS if name.startswith(game))
