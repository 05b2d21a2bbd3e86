"""`sabot web` as a croupier in training and an approver use it: a real headless Chromium plays a séance, a shoe,
two coups, a forced card and a power cut on the page, downloads its journal and its scenario, and `sabot sim`
plays that scenario to the very same bytes, which `sabot log verify` reads (H-SIM, H-VERIFY). The screenshot
stays in build/artifacts/web.png for a person to look at."""

import contextlib
import http.client
import json
import os
import struct
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from firmware.devkey import DEVELOPMENT_KEY
from sabot.cli import main as sabot_main
from sabot.receipts import NO_RECEIPT
from sabot.verify import check
from sabot.web import build, serve
from sabot.web.chromium import CHROMIUM, Chromium
from tests.conftest import ROOT

ARTIFACTS = ROOT / "build" / "artifacts"
SABOT = str(Path(sys.executable).parent / "sabot")
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                                    reason="no %s: apt-get install chromium (CI installs it and runs this)" % CHROMIUM)

# The croupier's session, as buttons: (selector, how many clicks).
SEANCE_AND_SHOE = [("[data-act=seance]", 1), ("[data-act=shoe]", 1)]
COUP = [("[data-act=no_more_bets]", 1), ("[data-act=draw]", 6)]  # the tableau locks the shoe by itself
INCIDENTS = [("[data-act=force]", 1), ("[data-act=no_more_bets]", 1), ("[data-act=clear_alarm]", 1),
             ("[data-act=no_more_bets]", 1), ("[data-act=draw]", 2), ("[data-act=power_cut]", 1),
             ("[data-act=draw]", 1), ("[data-act=power_on]", 1), ("[data-act=no_more_bets]", 1),
             ("[data-act=draw]", 6)]


def wait_for_file(path, timeout=60):
    deadline = time.monotonic() + timeout
    while not (path.exists() and not path.with_name(path.name + ".crdownload").exists()):
        assert time.monotonic() < deadline, "Chromium did not download %s" % path.name
        time.sleep(0.1)
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`sabot web --out DIR --serve --port 0`, as docs/web.md says to open it; its address."""
    folder = tmp_path_factory.mktemp("web") / "page"
    server = subprocess.Popen([SABOT, "web", "--out", str(folder), "--serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        written = server.stdout.readline()
        address = server.stdout.readline()
        assert written.startswith("page written to"), written + server.stderr.read()
        yield folder, address.split()[2]
    finally:
        server.terminate()
        server.wait(timeout=20)


@contextlib.contextmanager
def _page(served, tmp):
    """Chromium on the served page, MicroPython loaded; its downloads go to tmp/downloads."""
    (tmp / "downloads").mkdir()
    with Chromium(tmp / "profile", tmp / "downloads") as browser:
        browser.navigate(served[1])
        browser.wait_for("window.sabot && (window.sabot.ready || window.sabot.failed)")
        assert browser.evaluate("window.sabot.failed") is None
        yield browser


@pytest.fixture(scope="module")
def played(served, tmp_path_factory):
    """The session played in Chromium: what the page showed, in French then English, and what it downloaded."""
    tmp = tmp_path_factory.mktemp("browser")
    downloads = tmp / "downloads"
    with _page(served, tmp) as browser:
        for selector, times in SEANCE_AND_SHOE + COUP + COUP + INCIDENTS:
            for _ in range(times):
                browser.click(selector)
        browser.evaluate("window.sabot.idle()")
        shown = {"check": browser.evaluate("document.getElementById('check').textContent"),
                 "timeline": browser.evaluate("document.getElementById('timeline').innerText"),
                 "coups": browser.evaluate("document.getElementById('coups').innerText"),
                 "lang": browser.evaluate("document.documentElement.lang")}
        damaged = browser.evaluate("""(async () => {
            const { checkJournal } = await import("./journal.js");
            const files = window.sabot.files().map(([name, data]) => [name, data.slice()]);
            const last = files[files.length - 1][1];  // the séance's segment: the first holds the boot alone
            last[182 + 38 + 10] ^= 1;  // a bit of its second record's body (docs/journal-format.md)
            return await checkJournal(files, window.sabot.key());
        })()""")
        browser.click("#download-journal")
        browser.click("#download-scenario")
        wait_for_file(downloads / "sabot-journal.zip")
        wait_for_file(downloads / "sabot-scenario.txt")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.screenshot(ARTIFACTS / "web.png")
        browser.click("[data-lang=en]")
        shown["english"] = {"timeline": browser.evaluate("document.getElementById('timeline').innerText"),
                            "button": browser.evaluate("document.querySelector('[data-act=no_more_bets]').textContent"),
                            "lang": browser.evaluate("document.documentElement.lang")}
    with zipfile.ZipFile(downloads / "sabot-journal.zip") as archive:
        archive.extractall(tmp / "unzipped")
    return {"shown": shown, "damaged": damaged, "journal": tmp / "unzipped" / "journal",
            "scenario_in_zip": tmp / "unzipped" / "scenario.txt", "scenario": downloads / "sabot-scenario.txt"}


@needs_chromium
@pytest.mark.req("H-SIM")
def test_journal_downloaded_from_the_page_is_byte_identical_to_sabot_sim_on_its_recorded_scenario(played, tmp_path):
    scenario = played["scenario"].read_text(encoding="utf-8")
    assert played["scenario_in_zip"].read_text(encoding="utf-8") == scenario
    lines = [line for line in scenario.splitlines() if not line.startswith("#")]
    assert lines[:3] == ["seance table=5", "game chemin_de_fer", "shoe seed=77"]
    assert lines.count("no_more_bets") == 5 and "force" in lines and "power_cut" in lines
    log = tmp_path / "sim.journal"
    run = subprocess.run([SABOT, "sim", str(played["scenario"]), "--log", str(log)], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    page = {p.name: p.read_bytes() for p in sorted(played["journal"].glob("*.sbj"))}
    sim = {p.name: p.read_bytes() for p in sorted(log.glob("*.sbj"))}  # the sim's receipt.json beside them
    assert len(page) >= 2 and page == sim


@needs_chromium
@pytest.mark.req("H-VERIFY", "S-FORCED")
def test_page_journal_verifies_on_the_host_with_the_forced_card_found(played):
    _, reader, findings = check([played["journal"]], DEVELOPMENT_KEY)
    assert reader.torn == 0 and reader.records > 40
    assert [f.id for f in findings] == ["S-FORCED"]
    run = subprocess.run([SABOT, "log", "verify", str(played["journal"]), "--json"], capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 1, run.stderr  # findings, the journal itself intact
    found = json.loads(run.stdout)["findings"]
    assert [f["id"] for f in found] == ["S-FORCED", "J-TAMPER"] and found[1]["message"] == NO_RECEIPT  # no shoe


@needs_chromium
@pytest.mark.req("H-SIM", "S-FAILSAFE", "S-FORCED")
def test_page_shows_two_coups_by_the_tableau_the_alarm_and_the_power_cut_in_french_then_english(played):
    shown = played["shown"]
    assert shown["lang"] == "fr"
    coups = [row for row in shown["coups"].splitlines() if row.strip()]
    assert len(coups) >= 3 and "gagnant" in coups[0] and "gagnant" in coups[1]
    assert "ponte" in coups[0] and "banque" in coups[0]
    assert "ALARME extraction forcée" in shown["timeline"]
    assert "coupure de courant" in shown["timeline"] and "refusé" in shown["timeline"]
    assert shown["english"]["lang"] == "en" and shown["english"]["button"] == "No more bets"
    assert "ALARM forced extraction" in shown["english"]["timeline"]


@needs_chromium
@pytest.mark.req("J-TAMPER")
def test_page_checks_its_journal_and_names_a_damaged_record(played):
    assert played["shown"]["check"].startswith("Journal vérifié dans la page")
    damaged = played["damaged"]
    assert damaged["ok"] is False and damaged["problem"] == "00000002.sbj: record 3: CRC-32", damaged


@needs_chromium
def test_screenshot_kept_for_a_person(played):
    data = (ARTIFACTS / "web.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24])[0] == 1280


@pytest.mark.req("H-SIM")
def test_sabot_web_refuses_a_folder_that_is_not_empty_and_a_missing_port_in_one_line(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert sabot_main(["web", "--out", str(folder)]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and (folder / "notes.txt").read_text() == "mine"
    assert sabot_main(["web", "--out", str(folder), "--force"]) == 0
    assert (folder / "micropython.wasm").exists() and (folder / "notes.txt").read_text() == "mine"
    monkeypatch.setattr(build, "PORT", tmp_path / "no-node-modules")
    assert sabot_main(["web", "--out", str(tmp_path / "other")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "make setup" in err


def get(port, path, host):
    """The status and body of a GET with this Host header, as a browser (or a rebinding page) sends it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


@pytest.mark.req("H-SIM")
def test_sabot_web_serves_the_files_it_wrote_alone_and_only_to_this_machine_by_name(tmp_path):
    """A key left in the folder was served, and so was any Host: a page of another site that rebinds its name to
    127.0.0.1 could drive the shoe's page and read the folder (issue 26)."""
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / "sabot-0042.key").write_text("00" * 32)
    assert sabot_main(["web", "--out", str(folder), "--force"]) == 0
    httpd = serve.server(folder, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        port = httpd.server_address[1]
        for host in ("127.0.0.1:%d" % port, "localhost:%d" % port, "LOCALHOST:%d" % port, "[::1]:%d" % port):
            status, body = get(port, "/", host)
            assert status == 200 and body == (folder / "index.html").read_bytes(), host
        assert get(port, "/micropython.wasm?v=1", "127.0.0.1:%d" % port)[0] == 200
        for host in ("rebind.example:%d" % port, "127.0.0.1:%d" % (port + 1), "127.0.0.1", ""):
            assert get(port, "/", host)[0] == 403, host
        for path in ("/sabot-0042.key", "/%s" % build.MANIFEST, "/../page/sabot-0042.key", "/sabot%2D0042.key"):
            assert get(port, path, "127.0.0.1:%d" % port)[0] == 404, path
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert (folder / "sabot-0042.key").read_text() == "00" * 32


@pytest.mark.req("H-SIM")
def test_sabot_web_force_never_replaces_a_file_it_did_not_write_and_rewrites_its_own_page(tmp_path, capsys):
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text("someone's home page")
    assert sabot_main(["web", "--out", str(folder), "--force"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did not write" in err
    assert sorted(p.name for p in folder.iterdir()) == ["index.html"]
    assert (folder / "index.html").read_text() == "someone's home page"
    page = tmp_path / "page"
    assert sabot_main(["web", "--out", str(page)]) == 0
    assert sabot_main(["web", "--out", str(page)]) == 0  # its own earlier build: written again, no --force
    (page / build.MANIFEST).unlink()  # a build from before the manifest: the page's files alone
    assert sabot_main(["web", "--out", str(page)]) == 0 and build.written(page) == set(build.PAGE)


@pytest.mark.req("H-SIM")
def test_make_sim_installs_what_sabot_web_needs_and_says_each_long_step():
    """After `make sim` alone, `sabot web` said "run make setup": sim made the venv, not node_modules. And two
    silent minutes of setup read as a hang: each long step is announced (issue 26). Dry run: nothing is rebuilt."""
    run = subprocess.run(["make", "-n", "-B", "sim"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    steps = run.stdout.splitlines()
    npm = [i for i, line in enumerate(steps) if line.startswith("npm ci")]
    assert npm and npm[0] < [i for i, line in enumerate(steps) if "sabot sim" in line][0]
    said = [line for line in steps if line.startswith('echo "== ')]
    assert len(said) >= 3 and any("requirements.txt" in s for s in said) and any("Cython" in s for s in said)
    assert not any("--quiet" in line and "requirements.txt" in line for line in steps)  # pip's own progress shows


# Training (issue 25): stakes typed on the page's coups, the levy and tickets it shows against `sabot cagnotte due`.
STAKES = [("120.50", "37"), ("15", "80"), ("1000", "999.90"), ("7.25", "7.25"), ("60", "0")]
# (game, the bank's results as R_RESULT's winners: 2 gagnant, 1 perdant, 3 égalité, stakes in cents): every case.
CASES = [(0, [2], [12100]), (0, [2], [12080]), (0, [1], [5000]), (1, [2, 2], [10000, 2500]), (2, [2, 2], [400, 400]),
         (2, [2, 1], [10000, 2000]), (2, [1, 2], [10000, 2000]), (2, [2, 3], [100000, 5]), (2, [3, 3], [900, 900])]


def _shown(due, case, lang="fr"):
    """The page's words for a levy `sabot cagnotte due` gives (due: "6.10"), its tickets split as the host does."""
    from decimal import Decimal

    from sabot.fleet.synth import tickets

    def euros(text):
        amount = "%.2f" % Decimal(text)
        return (amount.replace(".", ",") if lang == "fr" else amount) + " €"

    if Decimal(due) == 0:
        return "rien à prélever"
    split = ", ".join("%s × %s" % (euros(v), n) for v, n in (t.split("x") for t in tickets(Decimal(due)).split()))
    why = "5 % des mises" if case == "chemin de fer" else "article 62, " + case
    return "%s dus (%s) ; tickets : %s" % (euros(due), why, split)


@needs_chromium
@pytest.mark.req("C-LEVY", "C-TICKETS")
def test_page_shows_the_levy_due_and_its_tickets_as_sabot_cagnotte_due_for_the_stakes_typed(served, tmp_path):
    from decimal import Decimal

    from sabot.cagnotte.levy import EGALITE, GAGNANT, PERDANT, due

    downloads = tmp_path / "downloads"
    with _page(served, tmp_path) as browser:
        cases = browser.evaluate("""(async () => {
            const { levy, euros } = await import("./levy.js");
            return %s.map(([g, r, s]) => { const l = levy(g, r, s); return [l.due, l.kase, l.tickets]; });
        })()""" % json.dumps(CASES))
        browser.evaluate("document.getElementById('game').value = 'deux_tableaux_ouverte'")
        browser.click("[data-act=seance]")
        browser.click("[data-act=shoe]")
        for _ in STAKES:
            browser.click("[data-act=no_more_bets]")
            for _ in range(9):  # the tableau locks the shoe by itself
                browser.click("[data-act=draw]")
        shown = browser.evaluate("""(() => {
            const stakes = %s;
            return [...document.querySelectorAll("#coups tr")].map((row, i) => {
                row.querySelectorAll("input.stake").forEach((input, t) => {
                    input.value = stakes[i][t];
                    input.dispatchEvent(new Event("input"));
                });
                return [row.cells[0].textContent, row.cells[4].textContent];
            });
        })()""" % json.dumps(STAKES))
        browser.click("#download-journal")
        wait_for_file(downloads / "sabot-journal.zip")
    word = {2: GAGNANT, 1: PERDANT, 3: EGALITE}
    for (game, results, stakes), (cents, case, tickets) in zip(CASES, cases):
        levy, _, host_case = due(game, tuple(word[r] for r in results), tuple(Decimal(s) / 100 for s in stakes))
        assert Decimal(cents) / 100 == levy and case == {"chemin de fer": "cf"}.get(host_case, host_case)
        left = levy
        for value, count in tickets:
            left -= Decimal(value) / 100 * count
        assert left == 0 and len(tickets) <= 3
    assert {case for _, case, _ in cases} == {"cf", "a", "b", "c", None}
    with zipfile.ZipFile(downloads / "sabot-journal.zip") as archive:
        archive.extractall(tmp_path / "unzipped")
    csv = tmp_path / "mises.csv"
    csv.write_text("seance,taille,coup,stake_1,stake_2\n" + "".join(
        "1,%s,%s,%s,%s\n" % (tuple(row[0].split("·")) + STAKES[i]) for i, row in enumerate(shown)))
    run = subprocess.run([SABOT, "cagnotte", "due", str(tmp_path / "unzipped" / "journal"), "--stakes", str(csv),
                          "--json", "--allow-development-key"], capture_output=True, text=True)
    *host, total = [json.loads(line) for line in run.stdout.splitlines()]  # one object a coup, then the total
    assert len(host) == len(STAKES) == len(shown) == total["coups"], run.stderr
    for row, coup in zip(shown, host):
        assert row[1] == _shown(coup["due"], coup["case"]), (row, coup)
    assert any(coup["case"] for coup in host)


@needs_chromium
@pytest.mark.req("S-IDENT", "H-SIM")
def test_page_closes_the_open_seance_before_opening_another_and_says_a_bad_table_in_french(served, tmp_path):
    """Issue 40, findings 8 and 15: "Ouvrir la séance" over an open one closes that one first, journalled (Article
    58), "Fermer la séance" closes it; an empty table is said in French, not as the scenario parser's "page:22: table
    must be a whole number"."""
    with _page(served, tmp_path) as browser:
        browser.evaluate("document.getElementById('table').value = ''")
        browser.click("[data-act=seance]")
        browser.evaluate("document.getElementById('table').value = '5'")
        for selector in ("seance", "seance", "seance_close", "seance"):
            browser.click("[data-act=%s]" % selector)
        browser.evaluate("window.sabot.idle()")
        timeline = browser.evaluate("document.getElementById('timeline').innerText")
        scenario = browser.evaluate("document.getElementById('scenario').innerText")
    assert "Table : un nombre entier de 1 à 4095, rien n'est fait" in timeline and "page:" not in timeline, timeline
    assert "séance 1 close" in timeline and "séance 2 close" in timeline, timeline
    assert "séance 3 ouverte à la table 5" in timeline, timeline
    lines = [line for line in scenario.splitlines() if line.startswith("seance")]
    assert lines == ["seance table=5", "seance_close", "seance table=5", "seance_close", "seance table=5"], scenario
