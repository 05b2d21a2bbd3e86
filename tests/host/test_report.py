"""The approver's report as a person sees it: a journal with every incident at the mouth of the shoe, rendered
by a real headless Chromium (H-EXPORT, H-VERIFY). The screenshot stays in build/artifacts/report.png for a
person to look at."""

import hashlib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import layout as journal_format
from firmware.devkey import DEVELOPMENT_KEY
from sabot import _frames
from sabot.journalfile import Finding, load_segments
from sabot.report.cli import report
from sabot.report.regulation import QUOTES
from sabot.rules import ARTICLES
from sabot.verify import check, verify
from tests.conftest import ROOT, SCENARIOS
from tests.host.forge import restarted

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "build" / "artifacts"
REGULATION = ROOT.parent / "shared" / "regulation" / "casino-games-articles-58-62.fr.txt"
SABOT = str(Path(sys.executable).parent / "sabot")
# A name to escape: the journal's folder is printed in the report.
FOLDER = "j<b>&\"'x"

# incidents.txt (forced card, double feed, jam, power cut), then the rest of that shoe to its stop card; a
# séance with a stack of seven aces (a foreign card) and the stop card after ten cards (misplaced); then a
# deux tableaux séance, for three hands a coup.
MORE = "no_more_bets\ndraw 6\n" * 70 + """
seance table=7
shoe cards=AS,AS,AS,AS,AS,AS,AS,KH,9C,8D,2C,3C,4C,5C,6C,7C stop_after=10
no_more_bets
draw 6
no_more_bets
draw 6
no_more_bets
draw 6
game deux_tableaux_limitee
seance table=2
shoe seed=5
no_more_bets
draw 9
no_more_bets
draw 9
"""

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                                    reason="no %s: apt-get install chromium (CI installs it and runs this)" % CHROMIUM)
needs_poppler = pytest.mark.skipif(not shutil.which("pdftoppm") and not os.environ.get("CI"),
                                   reason="no pdftoppm: apt-get install poppler-utils (make system-deps)")


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    scenario = folder / "incidents_full_shoe.txt"
    scenario.write_text((SCENARIOS / "incidents.txt").read_text(encoding="utf-8") + MORE, encoding="utf-8")
    log = folder / FOLDER
    run = subprocess.run([SABOT, "sim", str(scenario), "--log", str(log)], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    return log


def chromium(tmp_path, *args):
    assert Path(CHROMIUM).exists(), "CI must install Debian's chromium package (apt-get install chromium)"
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--user-data-dir=%s" % (tmp_path / "chromium-profile"), *map(str, args)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@needs_chromium
@pytest.mark.req("H-EXPORT", "H-VERIFY")
def test_chromium_renders_the_report_identity_integrity_findings_with_articles_stop_card_and_charts(
        journal, tmp_path):
    page = tmp_path / "report.html"
    assert report([journal], page) == 0
    url = page.as_uri()
    dom = chromium(tmp_path, "--dump-dom", url)
    segments, reader, findings = check([journal], DEVELOPMENT_KEY)
    first = load_segments([journal])[0]
    # The shoe and its firmware, from the segment headers; the development key said as such.
    assert "Rapport d'agrément — journal du sabot n° %d" % first.sabot in dom
    assert "version 0.3.0, version de développement (carte « sim »)" in dom
    assert "clé de DÉVELOPPEMENT" in dom and reader.key_id.hex() in dom
    # Integrity, records and the seq range.
    assert re.search(r"Intégrité du journal</h2><p [^>]*><b>INTACT</b>", dom)
    assert "n° d'enregistrement %d à %d" % (reader.first_seq, reader.seq) in dom and str(reader.records) in dom
    # Every finding: its ID, its article and the article's own words.
    ids = {f.id for f in findings}
    assert {"S-FORCED", "S-ONE", "S-COUNT", "S-STOPPOS"} <= ids
    for rid in ids:
        article, quote, _ = QUOTES[rid]
        assert "%s · " % rid in dom and article in dom and quote in dom, rid
    for f in findings:  # each in French, at its seq
        assert re.search(r"<td>%d</td><td>[^<]*</td><td>[^<]+</td>" % f.seq, dom), f.seq
    assert "sortie double : la carte R♣ est sortie avec la précédente" in dom
    assert "carte A♥ extraite de force, sabot verrouillé (brûlée)" in dom
    # The stop card check of each taille: the full shoe's, the misplaced one, one not out yet.
    assert "sortie en position 306 : 7 cartes derrière elle, 7 attendues — conforme" in dom
    assert "sortie en position 11 : 302 cartes derrière elle, 7 attendues — NON CONFORME" in dom
    assert "pas encore sortie" in dom
    # One chart a taille, with its incidents marked.
    assert dom.count('class="chart"') == 3 and dom.count("<svg") == 3
    for kind in ("alarm", "finding", "forced", "double", "power", "stop"):
        assert 'class="mark %s"' % kind in dom, kind
    # Coups by hand with their results; séances with their tables.
    assert "gagnant : banque" in dom and "tableau1 : " in dom
    assert "Taille 2 — Séance 2, table 7 — chemin de fer" in dom
    # Escaped: the folder's name is text, not markup.
    assert "j&lt;b&gt;&amp;\"'x" in dom and "<b>&" not in dom
    screenshot = ARTIFACTS / "report.png"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    screenshot.unlink(missing_ok=True)
    chromium(tmp_path, "--screenshot=%s" % screenshot, "--window-size=1200,2400", "--hide-scrollbars", url)
    assert png_size(screenshot) == (1200, 2400) and screenshot.stat().st_size > 50_000
    shutil.copy(page, ARTIFACTS / "report.html")


@needs_chromium
@needs_poppler
@pytest.mark.req("H-EXPORT")
def test_the_report_prints_on_a4_a_long_taille_from_a_new_page_and_no_page_near_empty(journal, tmp_path):
    page = tmp_path / "report.html"
    assert report([journal], page) == 0
    pdf = tmp_path / "report.pdf"
    chromium(tmp_path, "--no-pdf-header-footer", "--print-to-pdf=%s" % pdf, page.as_uri())
    data = pdf.read_bytes()
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert boxes and all(abs(float(w) - 595) < 1 and abs(float(h) - 842) < 1 for w, h in boxes)  # A4
    pages = pdf_text(pdf, tmp_path).split("\f")
    tops = [text.split("\n", 3)[-1].lstrip() for text in pages]  # below the running header
    assert all(len(top.strip().splitlines()) > 5 for top in tops if top.strip()), [t[:80] for t in tops]
    start = next(i for i, text in enumerate(pages) if "Taille 1 — Séance" in text)
    assert start > 0 and tops[start].startswith("Taille 1 — Séance 1")  # 70 coups: from a new page


@pytest.mark.req("H-EXPORT", "H-VERIFY")
def test_in_english_the_french_words_of_the_articles_stay_with_a_gloss(journal, tmp_path):
    page = tmp_path / "report.html"
    assert report([journal], page, lang="en") == 0
    text = page.read_text(encoding="utf-8")
    assert '<html lang="en">' in text and "Approval report" in text
    assert 'Journal integrity</h2><p class="check warn"><b>INTACT</b>' in text
    assert "out at position 11: 302 cards behind it, 7 expected — DOES NOT CONFORM" in text
    article, quote, gloss = QUOTES["S-STOPPOS"]
    assert quote.replace("'", "&#x27;") in text and gloss in text
    assert "winner: banque" in text  # logview's words, as sabot log show prints them
    assert "double feed: card KC came out with the one before" in text  # the verifier's own words


@pytest.mark.req("H-EXPORT")
def test_the_report_is_self_contained_no_network(journal, tmp_path):
    page = tmp_path / "report.html"
    assert report([journal], page) == 0
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\(|src=|href=", text, re.I)
    assert set(re.findall(r"https?://[^\s\"'<>]+", text)) == {"http://www.w3.org/2000/svg"}  # SVG's namespace


@pytest.mark.req("H-VERIFY", "J-TAMPER")
def test_a_tampered_journal_is_reported_broken(journal, tmp_path):
    copy = tmp_path / "tampered"
    shutil.copytree(journal, copy)
    segment = max(copy.glob("*.sbj"), key=lambda p: p.stat().st_size)
    data = bytearray(segment.read_bytes())
    data[journal_format.HEADER_SIZE + 3 * journal_format.FRAME_SIZE + 10] ^= 0x01  # a record's body
    segment.write_bytes(bytes(data))
    page = tmp_path / "report.html"
    assert report([copy], page) == 0
    text = page.read_text(encoding="utf-8")
    assert '<p class="check bad"><b>ROMPU</b>' in text and "Verdict : NON CONFORME" in text
    assert "J-TAMPER · intégrité du journal — Article 58" in text
    assert re.search(r"0000000\d.sbj : enregistrement à l&#x27;octet \d+ modifié \(CRC\)", text)


@pytest.mark.req("H-EXPORT")
def test_unusable_input_exits_2_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "report.html"
    assert report([tmp_path / "missing"], out) == 2
    (tmp_path / "empty").mkdir()
    assert report([tmp_path / "empty"], out) == 2
    (tmp_path / "not.sbj").write_bytes(b"hello")
    assert report([tmp_path / "not.sbj"], out) == 2
    assert report([tmp_path / "empty", tmp_path / "missing"], out) == 2  # two journals: one report each
    assert not out.exists()
    assert "sabot report: error:" in capsys.readouterr().err


@pytest.mark.req("H-VERIFY")
def test_each_article_the_verifier_cites_has_its_quotation_under_the_same_article():
    for rid, article in ARTICLES.items():
        assert QUOTES[rid][0] == article, rid


@pytest.mark.req("H-VERIFY")
def test_quotations_are_the_regulations_own_words():
    if not REGULATION.exists():
        pytest.skip("the regulation's text (%s) is outside this repository and absent here" % REGULATION)
    text = " ".join(REGULATION.read_text(encoding="utf-8").split())
    for rid, (article, quote, gloss) in QUOTES.items():
        assert gloss, rid
        for passage in quote.split(" […] "):
            at = text.find(passage)
            assert at >= 0, (rid, passage)
            assert text.rfind("Article ", 0, at) == text.rfind(article, 0, at), (rid, article)


def english_words():
    """The words of the English catalogue (firmware/format/words.py's English, the report's English text, the English of
    the verifier's findings on this journal) that are not French words too."""
    from firmware.format import words
    from sabot.report.findings_fr import ISSUES_FR, SEGMENTS_FR
    from sabot.report.text import TEXT

    def of(texts):
        return {w.lower() for text in texts for w in re.findall(r"[A-Za-zÀ-ÿ]{3,}", text)}

    tables = [v for v in vars(words).values() if isinstance(v, dict) and v and all(
        isinstance(p, tuple) and len(p) >= 2 for p in v.values())]
    english = of(p[0] for table in tables for p in table.values()) | of(
        v for v in TEXT["en"].values() if isinstance(v, str))
    french = of(p[1] for table in tables for p in table.values()) | of(
        v if isinstance(v, str) else " ".join(v) for v in TEXT["fr"].values()) | of(QUOTES[r][1] for r in QUOTES) | of(
        ISSUES_FR.values()) | of(f for _, f in SEGMENTS_FR)
    return english - french - {"sha", "hmac", "crc", "stop"}


def pdf_text(pdf, tmp_path):
    text = tmp_path / "report.txt"
    run = subprocess.run(["pdftotext", "-layout", str(pdf), str(text)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return text.read_text(encoding="utf-8")


@needs_chromium
@needs_poppler
@pytest.mark.req("H-EXPORT", "H-VERIFY")
def test_the_inspectors_pdf_is_french_signed_numbered_and_names_the_digest_of_every_segment(journal, tmp_path):
    """sabot report -o FILE.pdf as an inspector runs it; its pages kept in build/artifacts/ as pictures."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pdf = ARTIFACTS / "report.pdf"
    for old in [pdf, *ARTIFACTS.glob("report-page-*.png")]:
        old.unlink(missing_ok=True)
    made = subprocess.run([SABOT, "report", str(journal), "-o", str(pdf)], capture_output=True, text=True,
                          timeout=600)
    assert made.returncode == 0 and pdf.read_bytes().startswith(b"%PDF"), made.stderr
    text = pdf_text(pdf, tmp_path)
    pages = text.count("\f") + (not text.endswith("\f"))
    # Page numbers and the running header on every page.
    for number in range(1, pages + 1):
        assert "page %d sur %d" % (number, pages) in text, number
    assert text.count("Rapport d'agrément — journal du sabot n° 1 — établi le") == pages
    # The first page: verdict, firmware, key id, period in Paris time, receipt, digest, tool and date.
    first = text.split("\f")[0]
    segments = sorted(Path(journal).glob("*.sbj"))
    digests = [hashlib.sha256(p.read_bytes()).hexdigest() for p in segments]
    together = hashlib.sha256("".join("%s %s\n" % (p.name, d) for p, d in zip(segments, digests)).encode())
    for said in ("Verdict : NON CONFORME", "Intégrité du journal", "INTACT", "constat(s)", "version 0.3.0",
                 "identifiant 12db0af3d3588c13",
                 "(UTC+01:00)", "vérifié : le journal finit au n°", "sabot report ", "Rapport établi le"):
        assert said in first, said
    assert together.hexdigest() in first.replace("\n", "").replace(" ", "")
    for name, digest in zip((p.name for p in segments), digests):  # the annex: each segment's, as sha256sum says
        assert re.search(r"%s\s+\d+\s+%s" % (name, digest), text), name
    # The signature block, and not one English word of the English catalogue.
    assert "Visa de l'inspecteur" in text and "Signature" in text and "Nom et qualité" in text
    prose = re.sub(r"\b[A-Z]-[A-Z]+\b", "", text)  # requirement IDs (S-ONE) are names, not words
    found = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ]{3,}", prose)} & english_words()
    assert not found, sorted(found)
    assert "R♣" in text and "KC" not in text.split()  # French card names with suit symbols
    # Each page as a picture, for a person to look at.
    run = subprocess.run(["pdftoppm", "-r", "80", "-png", str(pdf), str(ARTIFACTS / "report-page")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    pictures = sorted(ARTIFACTS.glob("report-page-*.png"))
    assert len(pictures) == pages and all(png_size(p)[0] > 600 for p in pictures)


@pytest.mark.req("H-VERIFY", "J-TAMPER")
def test_every_integrity_finding_of_the_reader_has_its_french_words():
    from sabot.journalfile import ISSUES
    from sabot.report.findings_fr import ISSUES_FR, french

    values = {"name": "00000002.sbj", "seq": 7, "offset": 343, "before": 5, "back": "1.000 s "}
    assert set(ISSUES) <= set(ISSUES_FR) or set(ISSUES) - set(ISSUES_FR) == {getattr(_frames, "CLOCK_BACK", -1)}
    for code, template in ISSUES.items():
        if code in ISSUES_FR:
            said = french(Finding("J-TAMPER", 7, template % values), None, 0)
            assert said == ISSUES_FR[code] % {k: str(v) for k, v in values.items()}, template


# Three séances at table 3, each closed but the last: the hours they opened and closed, and verify's S-IDENT finding
# of a shoe sent to the same table séance after séance.
THREE_SEANCES = "".join("seance table=3\nshoe seed=%d\nno_more_bets\ndraw 6\n%s" % (n, "seance_close\n" * (n < 3))
                        for n in (1, 2, 3))


def sim(scenario, folder):
    done = subprocess.run([SABOT, "sim", str(scenario), "--log", str(folder), "--quiet"], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A whole shoe with no finding, under the development key, with the sim's signed receipt."""
    return sim(SCENARIOS / "full_shoe_chemin_de_fer.txt", tmp_path_factory.mktemp("clean") / "journal")


def text_of(page):
    """The report's text as a person reads it: no markup, no style sheet, entities read."""
    import html

    body = page.read_text(encoding="utf-8").split("</head>", 1)[1]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def verdict_of(page):
    return re.search(r"Verdict : (NON CONFORME|CONFORME) ", text_of(page)).group(1)


def verify_status(folder, *options):
    return subprocess.run([SABOT, "log", "verify", str(folder), "--quiet", *options], capture_output=True,
                          text=True, timeout=600).returncode


@pytest.mark.req("H-VERIFY", "H-EXPORT")
def test_the_first_page_leads_with_verifys_verdict_and_why(clean, tmp_path):
    """A sim's journal, intact, with no finding: under the development key it conforms only with
    --allow-development-key, as verify says; without its receipt, or with a receipt that does not match, never."""
    bare = tmp_path / "no-receipt"
    shutil.copytree(clean, bare)
    (bare / "receipt.json").unlink()
    forged = tmp_path / "forged-receipt"
    shutil.copytree(clean, forged)
    receipt = json.loads((forged / "receipt.json").read_text())
    receipt["seq"] -= 1
    (forged / "receipt.json").write_text(json.dumps(receipt))
    cases = [(clean, False, "NON CONFORME", "seule clé de DÉVELOPPEMENT"),
             (clean, True, "CONFORME", "clé de développement admise"),
             (bare, True, "NON CONFORME", "pas de reçu signé du sabot"),
             (forged, True, "NON CONFORME", "constat(s) du vérificateur")]
    for folder, allow, verdict, why in cases:
        page = tmp_path / "report.html"
        said = io.StringIO()
        assert report([folder], page, force=True, allow_development_key=allow, out=said) == 0
        assert said.getvalue().startswith("Verdict : %s ; rapport écrit dans %s (fr) : " % (verdict, page))
        text = text_of(page)
        assert verdict_of(page) == verdict and why in text, (folder.name, allow, text[:600])
        assert (verify_status(folder, *["--allow-development-key"] * allow) == 0) == (verdict == "CONFORME")
        first = text.split("Intégrité du journal")[0]
        assert first.index("Verdict") < first.index("Établissement") < first.index("Sabot n°")  # verdict first
    page = tmp_path / "report.html"
    said = io.StringIO()
    assert report([clean], page, lang="en", force=True, out=said) == 0 and "Verdict: DOES NOT CONFORM" in text_of(page)
    assert said.getvalue().startswith("Verdict: DOES NOT CONFORM; report written to %s (en): " % page)


@pytest.mark.req("H-EXPORT", "J-EVENTS")
def test_the_report_tells_a_restart_from_a_power_cut(tmp_path):
    journal = restarted(tmp_path / "j")
    page = tmp_path / "report.html"
    assert report([journal], page) == 0
    boots = re.findall(r"entre les coups (.*?) · n° (\d+)", text_of(page))
    assert boots == [("coupure de courant, puis remise sous tension", "15"),
                     ("redémarrage, sans coupure de courant", "31")]
    assert report([journal], page, lang="en", force=True) == 0
    boots = re.findall(r"between coups (.*?) · seq (\d+)", text_of(page))
    assert boots == [("power cut, then power back", "15"), ("restart, no power cut", "31")]


@pytest.mark.req("H-EXPORT", "S-IDENT")
def test_the_first_page_names_the_establishment_the_sabot_once_the_seances_and_their_hours(tmp_path):
    scenario = tmp_path / "three.txt"
    scenario.write_text(THREE_SEANCES, encoding="utf-8")
    journal = sim(scenario, tmp_path / "journal")
    page = tmp_path / "report.html"
    assert report([journal], page, establishment="Casino de Deauville") == 0
    text = text_of(page)
    first = text.split("Intégrité du journal")[0]
    assert "Établissement Casino de Deauville" in first and "Sabot n° 1 " in first
    seances = first.split("Séances", 1)[1]
    rows = re.findall(r"(\d) 3 (2026-11-30 \S+ \(UTC\+01:00\)) (2026-11-30 \S+ \(UTC\+01:00\)|non fermée) "
                      r"employé n° 0 1", seances)
    assert [(n, closed == "non fermée") for n, _, closed in rows] == [("1", False), ("2", False), ("3", True)]
    # verify's finding of a shoe at the same table séance after séance, in the report too, said in full in French
    assert "sabot n° 1 affecté à la table 3 pendant 3 séances de suite" in text
    assert verdict_of(page) == "NON CONFORME"
    assert report([journal], page, force=True) == 0 and "Établissement non renseigné" in text_of(page)


@pytest.mark.req("H-EXPORT", "S-IDENT", "J-TAMPER")
def test_a_segment_under_another_sabot_number_leaves_the_title_the_journals(clean, tmp_path):
    copy = tmp_path / "journal"
    shutil.copytree(clean, copy)
    last = sorted(copy.glob("*.sbj"))[-1]
    data = bytearray(last.read_bytes())
    struct.pack_into("<H", data, 6, 42)  # the header's sabot number (docs/journal-format.md)
    last.write_bytes(bytes(data))
    page = tmp_path / "report.html"
    assert report([copy], page) == 0
    text = text_of(page)
    assert "Rapport d'agrément — journal du sabot n° 1 " in text and "n° 1, 42" not in text
    assert "Sabot n° 1 (des segments portent le n° 42 : voir les constats)" in text


@pytest.mark.req("H-EXPORT", "H-FIRMWARE")
def test_the_firmware_is_named_by_its_version_and_digest_a_development_build_said_so(clean, tmp_path):
    from boards.sim.board import SimBoard
    from boards.sim.runner import run
    from boards.sim.scenario import parse
    from firmware.storage import FileStorage
    from firmware.version import VERSION

    page = tmp_path / "report.html"
    assert report([clean], page) == 0
    text = text_of(page)
    assert "Logiciel version %s, version de développement (carte « sim ») : logiciel non publié" % VERSION in text
    assert load_segments([clean])[0].firmware.hex(" ") not in text  # the header's bytes are no words
    digest = hashlib.sha256(b"an approved release").hexdigest()
    board = SimBoard(FileStorage(str(tmp_path / "release")))
    board.firmware = bytes.fromhex(digest)  # the release's identity: its manifest's digest, whole (format 5)
    run(parse("seance table=1\nshoe seed=1\nno_more_bets\ndraw 6\n"), board)
    board.close()
    assert report([tmp_path / "release"], page, force=True) == 0
    assert "Logiciel version publiée, empreinte sha256 %s (à rapprocher" % digest in text_of(page)
    for folder, named in ((tmp_path / "release", "version publiée, empreinte sha256 %s (à rapprocher" % digest),
                          (clean, "version %s, version de développement (carte « sim »)" % VERSION)):
        said = io.StringIO()  # sabot log verify's header names it as the report does
        verify([folder], None, False, out=said, allow_development_key=True)
        assert said.getvalue().startswith("journal : sabot 1, logiciel %s" % named), said.getvalue()
    bundle = tmp_path / ("rpi_pico-%s" % VERSION)
    bundle.mkdir()
    (bundle / "manifest.json").write_text(json.dumps({"version": VERSION, "board": "rpi_pico", "digest": digest,
                                                      "files": []}))
    assert report([tmp_path / "release"], page, force=True, bundles=[bundle]) == 0
    assert "Logiciel version %s (carte rpi_pico), empreinte sha256 %s" % (VERSION, digest) in text_of(page)
    assert report([tmp_path / "release"], page, force=True, bundles=[tmp_path]) == 2  # no manifest there


@pytest.mark.req("H-EXPORT")
def test_the_report_cites_no_file_of_the_repository(journal, tmp_path):
    page = tmp_path / "report.html"
    assert report([journal], page) == 0
    assert not re.search(r"\b(docs|host_tools|firmware)/|\.md\b", text_of(page))


@needs_chromium
@needs_poppler
@pytest.mark.req("H-EXPORT")
def test_a_clean_shoes_report_fills_its_first_page_and_short_tailles_share_a_page(clean, tmp_path):
    pdf = tmp_path / "report.pdf"
    assert report([clean], pdf) == 0
    pages = pdf_text(pdf, tmp_path).rstrip("\f").split("\f")
    assert len(pages) == 2, len(pages)  # the identity, the overview and the findings; then the annex and the visa
    assert "Vue d'ensemble" in pages[0] and "Visa de l'inspecteur" in pages[-1]
    scenario = tmp_path / "three.txt"
    scenario.write_text(THREE_SEANCES, encoding="utf-8")
    assert report([sim(scenario, tmp_path / "three")], pdf, force=True) == 0
    pages = pdf_text(pdf, tmp_path).split("\f")
    assert any("Taille 2 — Séance 2" in text and "Taille 3 — Séance 3" in text for text in pages)  # a coup each


@pytest.mark.req("S-IDENT", "H-VERIFY")
def test_every_s_ident_finding_is_as_specific_in_french_as_in_english():
    """verify --lang fr and the report say what the English says: the sabot, the table, how many séances."""
    from sabot.report.findings_fr import french

    said = {"sabot 1 assigned to table 3 in 3 consecutive séances":
            "sabot n° 1 affecté à la table 3 pendant 3 séances de suite",
            "a coup opened outside an open séance": "coup ouvert hors séance",
            "shoe loaded outside an open séance": "sabot chargé hors séance",
            "séance closed when none was open": "séance fermée alors qu'aucune n'était ouverte",
            "séance of table 4 closed as table 5": "la séance de la table 4 fermée comme celle de la table 5"}
    for english, words in said.items():
        assert french(Finding("S-IDENT", 9, english), None, 0).startswith(words), english
