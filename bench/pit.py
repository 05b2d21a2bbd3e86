"""`sabot pit` at full speed (issue 39): 8 production virtual boards dealing at once, live (`sabot vboard --live`),
into one `sabot pit follow`, its page open in headless Chromium. Record-to-screen latency: from the host's time a
shoe's croupier began the command that wrote a record (the live dealer's timeline, FS.live, written before the
command: an upper bound) to the time the pit's page first drew a state holding it (the page's window.drawnAt), both
on this machine's clock; and the pit's CPU, a shoe. Every process shares this machine's 2 cores."""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.report import figure, skipped
from sabot.web.chromium import CHROMIUM, Chromium

SHOES = 8
GAP_MS = 40  # the live dealer's gap between two commands: as fast as a VM deals with 8 of them on 2 cores
COUPS = 12
FORCED_AFTER = 6  # each shoe's coups before a card is pulled past its locked gate (then the supervisor's key)
SABOT = str(Path(sys.executable).parent / "sabot")
_TICKS = os.sysconf("SC_CLK_TCK")


def _board(folder, *flags):
    process = subprocess.Popen([SABOT, "vboard", "--fs", str(folder / "fs"), *flags], stdout=subprocess.PIPE,
                               text=True)
    first = process.stdout.readline()
    if not first.startswith("virtual board on "):
        raise RuntimeError("sabot vboard: %s" % first)
    return process, first.split()[3]


def _stop(process):
    process.terminate()
    process.wait(timeout=30)


def _cpu_s(pid):
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime + stime


def _timeline(path):
    """The live dealer's lines: (the host's ms before a command, the journal's last record number after it)."""
    return [tuple(map(int, line.split())) for line in path.read_text().splitlines()] if path.exists() else []


def _dealt(path, timeout=900):
    """The last record number of a shoe once its dealer has carried out the whole scenario."""
    deadline = time.monotonic() + timeout
    while len(_timeline(path)) < 5 + 7 * COUPS:  # game, séance, shoe, a coup's opening and six cards, force, clear
        if time.monotonic() > deadline:
            raise RuntimeError("%s: the live dealer did not finish" % path)
        time.sleep(0.2)
    return _timeline(path)[-1][1]


def enrolled(root):
    """SHOES production boards numbered 31.., their casino key and registry written; each switched off again."""
    from sabot import keys
    from sabot.production_link import restarted_production

    (root / "casino.key").write_text(bytes(range(32, 64)).hex())
    for n in range(SHOES):
        fs = root / ("b%d" % n) / "fs"
        (fs / "keys").mkdir(parents=True)
        (fs / "keys" / "casino.key").write_text((root / "casino.key").read_text())
        (fs / "config.json").write_text(json.dumps({"board": "vboard", "sabot": 31 + n}))
        process, port = _board(fs.parent)
        try:
            restarted_production(port)
            with open(os.devnull, "w") as quiet:
                if keys.enrol(str(fs.parent / "fs.tty"), str(root / "casino.key"), str(root / "shoes.json"),
                              out=quiet):
                    raise RuntimeError("sabot key enrol failed for board %d" % n)
        finally:
            _stop(process)


def measure(ctx):
    if not Path(CHROMIUM).exists():
        return {"pit.record_to_screen_ms": skipped("no %s" % CHROMIUM)}
    root = ctx.scratch("pit")
    enrolled(root)
    scenario = root / "scenario.txt"
    coup = "no_more_bets\ndraw 6\n"
    scenario.write_text("game chemin_de_fer\nseance table=4\nshoe seed=9\n" + coup * FORCED_AFTER
                        + "force\nclear_alarm\n" + coup * (COUPS - FORCED_AFTER))
    pit = subprocess.Popen([SABOT, "pit", "follow", "--registry", "shoes.json", "--db", "casino.duckdb", "--casino",
                            "bench", "--dir", "pit", "--http", "0"], cwd=root, stdout=subprocess.PIPE, text=True)
    boards = []
    try:
        url = pit.stdout.readline().split(" sur ")[1].split(",")[0]
        with Chromium(root / "profile", root) as browser:
            browser.navigate(url)
            browser.wait_for("document.body.dataset.drawn")
            cpu, began = _cpu_s(pit.pid), time.monotonic()
            boards = [_board(root / ("b%d" % n), "--scenario", str(scenario), "--live", str(GAP_MS))[0]
                      for n in range(SHOES)]
            last = [_dealt(root / ("b%d" % n) / "fs.live") for n in range(SHOES)]  # each shoe's last record
            browser.wait_for("(%s).every(([s, seq]) => window.drawnAt.some(d => d[0] === s && d[1] >= seq))"
                             % json.dumps([[31 + n, seq] for n, seq in enumerate(last)]), timeout=900)
            seconds, cpu = time.monotonic() - began, _cpu_s(pit.pid) - cpu
            browser.wait_for("(%s).every(s => window.foundAt.some(f => f[0] === s && f[2] === 'S-FORCED'))"
                             % json.dumps([31 + n for n in range(SHOES)]), timeout=60)
            drawn, found = browser.evaluate("window.drawnAt"), browser.evaluate("window.foundAt")
    finally:
        for process in boards:
            _stop(process)
        pit.terminate()
        pit.wait(timeout=60)
    latencies = []
    for n in range(SHOES):
        sabot = 31 + n
        timeline = _timeline(root / ("b%d" % n) / "fs.live")
        shown = sorted((seq, at) for s, seq, at in drawn if s == sabot)
        before = 0
        for began_ms, seq in timeline:  # the records the command wrote: after the last one's, to its seq
            for record in range(before + 1, seq + 1):
                at = next((at for shown_seq, at in shown if shown_seq >= record), None)
                if at is not None:
                    latencies.append(at - began_ms)
            before = max(before, seq)
    forced = []  # from the force command to the page's first draw of its S-FORCED finding
    for n in range(SHOES):
        began_ms = _timeline(root / ("b%d" % n) / "fs.live")[3 + 7 * FORCED_AFTER][0]
        forced.append(min(at for s, _, kind, at in found if s == 31 + n and kind == "S-FORCED") - began_ms)
    how = ("%d production virtual boards dealing chemin de fer live (a command every %d ms, %d coups each) into one "
           "sabot pit follow, its page in headless Chromium on this 2-core machine: from the host's time the live "
           "dealer began the command that wrote a record to the page's first draw holding it, over %d records"
           % (SHOES, GAP_MS, COUPS, len(latencies)))
    return {"pit.record_to_screen_ms.median": figure(round(statistics.median(latencies)), "ms", how,
                                                     deterministic=False),
            "pit.record_to_screen_ms.worst": figure(max(latencies), "ms", how, deterministic=False),
            "pit.forced_card_to_page_ms.worst": figure(max(forced), "ms", "the same deal, each shoe with a card "
                                                       "pulled past its locked gate after its coup %d: from the host's "
                                                       "time the force began to the pit's page first drawing its "
                                                       "S-FORCED finding, the worst of the %d shoes"
                                                       % (FORCED_AFTER, SHOES), deterministic=False),
            "pit.cpu_per_shoe_percent": figure(round(100 * cpu / seconds / SHOES, 1), "%", "the sabot pit process's "
                                               "CPU time (user and system) over the deal's %.0f s, divided by the %d "
                                               "shoes it followed" % (seconds, SHOES), deterministic=False)}
