"""The web page (`sabot web`): the bytes a browser loads, and how long a new headless Chromium takes from opening the
page to the first coup dealt by the tableau on the firmware in MicroPython's WebAssembly port."""

import statistics
import threading
import time
from pathlib import Path

from bench.report import figure, skipped
from sabot.web import build, serve
from sabot.web.chromium import CHROMIUM, Chromium

FIRST_COUP = ("[data-act=seance]", "[data-act=shoe]", "[data-act=no_more_bets]") + ("[data-act=draw]",) * 6
RESULT = "window.sabot.coups().length > 0 && window.sabot.coups()[0].result !== null"


def first_coup_seconds(url, scratch):
    """From the navigation to the first coup's result, in one fresh browser profile."""
    downloads = scratch / "downloads"
    downloads.mkdir()
    with Chromium(scratch / "profile", downloads) as browser:
        started = time.monotonic()
        browser.navigate(url)
        browser.wait_for("window.sabot && window.sabot.ready")
        for selector in FIRST_COUP:
            browser.click(selector)
        browser.wait_for(RESULT)
        return time.monotonic() - started


def measure(ctx):
    page = build.write(ctx.scratch("web") / "page")
    vm = (page / "micropython.wasm").stat().st_size
    out = {"web.page_bytes": figure(build.page_bytes(page), "B", "every file of `sabot web`'s page, the "
                                    "WebAssembly VM ({:,} B) included".format(vm))}
    if not Path(CHROMIUM).exists():
        out["web.first_coup_s"] = skipped("no %s" % CHROMIUM)
        return out
    httpd = serve.server(page, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    try:
        runs = [first_coup_seconds(url, ctx.scratch("chromium")) for _ in range(1 if ctx.quick else 5)]
    finally:
        httpd.shutdown()
        httpd.server_close()
    out["web.first_coup_s"] = figure(round(statistics.median(runs), 2), "s", "headless Chromium, new profile: from "
                                     "opening the page (sabot web --serve) to the first coup's result (a séance, a "
                                     "shoe, 9 clicks), median of %d" % len(runs), deterministic=False)
    return out
