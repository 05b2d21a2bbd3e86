"""The report as a PDF, printed by headless Chromium (Debian's package, `make system-deps`) from the HTML page: A4,
the page's own running header and page numbers (report.css), nothing fetched, a new empty profile each time."""

import shutil
import subprocess
import tempfile
from pathlib import Path

CHROMIUM = ("/usr/bin/chromium", "chromium", "chromium-browser")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--no-pdf-header-footer")
_TIMEOUT = 600  # seconds: a report of a million cards prints in well under a minute


class PdfError(Exception):
    pass


def chromium():
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    raise PdfError("no Chromium to print the PDF: apt-get install chromium (make system-deps), or write HTML "
                   "(-o report.html) and print it from a browser")


def print_pdf(page, output):
    """Print the HTML text page to the PDF file output (replaced only once the new one is whole)."""
    with tempfile.TemporaryDirectory(prefix="sabot-report-") as folder:
        folder = Path(folder)
        html = folder / "report.html"
        html.write_text(page, encoding="utf-8")
        pdf = folder / "report.pdf"
        command = [chromium(), *FLAGS, "--user-data-dir=%s" % (folder / "profile"), "--print-to-pdf=%s" % pdf,
                   html.as_uri()]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise PdfError("Chromium did not print the PDF within %d s" % _TIMEOUT) from None
        if done.returncode or not pdf.exists():
            last = (done.stderr.strip().splitlines() or ["exit status %d" % done.returncode])[-1]
            raise PdfError("Chromium could not print the PDF: %s" % last)
        partial = output.with_name(output.name + ".partial")
        shutil.copyfile(pdf, partial)
        partial.replace(output)
