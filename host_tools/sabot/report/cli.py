"""`sabot report`: the inspector's report on a journal, one self-contained HTML file or its PDF (H-EXPORT,
H-VERIFY).

The shoe and its firmware, each séance and taille coup by coup with a chart, the stop card check, the verifier's
findings with the regulation's own words, the journal's integrity and the digest of every segment read, and a
signature block. French by default, the inspector's and the articles' language. The findings are verify.check's,
not re-derived here, so the report and `sabot log verify` never disagree: a first pass verifies, a second builds
the story with the findings known, record by record (report.model), the segments' bytes read once.
"""

import hashlib
import json
import sys
import time
from pathlib import Path

from firmware.identity import MANIFEST
from firmware.layout import EPOCH_2020
from sabot import checkpoints, options, progress, receipts
from sabot.journalfile import ALL_TYPES, Reader, Record, Unusable
from sabot.outputs import Exists, may_write
from sabot.registry_cli import SIGNER_HELP
from sabot.registry_signatures import error_line, trust_of
from sabot.report.model import Story
from sabot.report.page import render
from sabot.report.pdf import PdfError, print_pdf
from sabot.report.text import Words
from sabot.verify import SAME_TABLE, authenticity, check, conforms, journals_of, read_key


class Checked:
    """A journal verified and told: what render() needs."""

    def __init__(self, paths, key, key_file, lang, establishment=None, allow_development_key=False, bundles=(),
                 public_key=None, registry=None, registry_signers=()):
        self.paths, self.key, self.key_file, self.establishment = paths, key, key_file, establishment
        self.manifests = [_manifest(bundle) for bundle in bundles]
        given = [checkpoints.read_public_key(public_key)] if public_key else []
        self.trust = trust_of(registry, registry_signers) if registry else None  # refused, or who vouches for it
        signed_points = checkpoints.read(paths)
        self.segments, self.reader, self.findings = check(paths, key, same_table=SAME_TABLE,
                                                          wanted=checkpoints.wanted(signed_points))
        # the element's public keys, as `sabot log verify --public-key/--registry` takes them (sabot.checkpoints)
        keys = given + (checkpoints.registry_keys(registry, self.segments[0].sabot) if registry else [])
        self.element = ("public_key", public_key) if public_key else ("registry", registry) if registry else None
        self.points, signed = checkpoints.findings(paths, self.segments, self.reader.seq, keys, self.reader,
                                                   signed_points)
        self.receipt = receipts.found_in(paths)  # the shoe's signed head, pulled with the journal
        ends = receipts.findings(self.segments, self.reader.seq, key, self.receipt, [], keys, paths,
                                 self.points)
        missing = [f for f in ends if f.message == receipts.NO_RECEIPT]  # the first page says there is none
        self.receipt_findings = [f for f in ends if f not in missing]
        self.development, self.unsigned, other_element = authenticity(self.segments, key, keys)
        doubled = self.trust.findings(self.segments[0].sabot, self.segments[0].key_id,  # K-REGISTRY
                                      self.reader.last_time) if registry else []
        self.findings = sorted(self.findings + self.receipt_findings + signed + other_element + doubled,
                               key=lambda f: f.seq)
        self.intact = not any(f.id == "J-TAMPER" for f in self.findings)
        self.allowed = allow_development_key
        self.unvouched = bool(missing)  # verify counts a missing receipt as a finding: so does the verdict
        self.ok = conforms(self.findings + missing, self.development, allow_development_key) and not self.unsigned
        self.digests = [hashlib.sha256(s.data).hexdigest() for s in self.segments]
        lines = "".join("%s %s\n" % (s.path.name, d) for s, d in zip(self.segments, self.digests))
        self.digest = hashlib.sha256(lines.encode()).hexdigest()
        self.story = Story(self.findings, Words(lang))
        told = Reader(self.segments, key)
        for segment, rows, offsets in progress.over_segments(self.segments, told.scanned(ALL_TYPES), "report"):
            for fields, offset in zip(rows, offsets):
                self.story.feed(Record(fields, segment, offset))
        self.story.finish()


def _manifest(bundle):
    """An approved release bundle's manifest (sabot firmware dist): it names the version a digest stands for."""
    path = Path(bundle) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        return {key: str(manifest[key]) for key in ("version", "board", "digest")}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Unusable("--bundle %s: no release manifest %s (%s)" % (
            bundle, path, getattr(e, "strerror", None) or e)) from None


def report(paths, output, lang="fr", key_file=None, force=False, out=sys.stdout, establishment=None,
           allow_development_key=False, bundles=(), public_key=None, registry=None, as_json=False,
           registry_signers=()):
    """Write the report (PDF when output ends in .pdf); 0 when written, 2 when the journal cannot be read or the
    file written. A file already there is replaced only with force. Its verdict
    is verify's with the same allow_development_key; bundles: approved releases, to name the firmware's version;
    public_key (a file) or registry (the casino's shoes.json): the shoe's element's public key, as verify takes it,
    and registry_signers, the registry's signers the user trusts."""
    output = Path(output)
    try:
        if len(journals_of(paths)) > 1:
            raise Unusable("one journal per report: give one journal folder, or segment files of one journal "
                           "(sabot log verify checks several journals together)")
        try:
            may_write(output, force)  # one rule (sabot.outputs): refused without --force, replaced with it
        except Exists as e:
            raise Unusable(str(e)) from None
        if not output.parent.is_dir():
            raise Unusable("cannot write %s: no folder %s" % (output, output.parent))
        journal = Checked(paths, read_key(key_file), key_file, lang, establishment, allow_development_key, bundles,
                          public_key, registry, registry_signers)
    except Unusable as e:
        print("sabot report: %s" % error_line(e, lang), file=sys.stderr)
        return 2
    w = Words(lang)
    page = render(journal, w, int((time.time() - EPOCH_2020) * 1000))
    try:
        if output.suffix.lower() == ".pdf":
            print_pdf(page, output)
        else:
            partial = output.with_name(output.name + ".partial")
            partial.write_text(page, encoding="utf-8")
            partial.replace(output)
    except OSError as e:
        print("sabot report: error: cannot write %s: %s" % (output, e.strerror), file=sys.stderr)
        return 2
    except PdfError as e:
        print("sabot report: error: %s" % e, file=sys.stderr)
        return 2
    if as_json:
        from sabot.json_out import said

        return said(out, "report", output=str(output), format="pdf" if output.suffix.lower() == ".pdf" else "html",
                    lang=lang, sabot=journal.segments[0].sabot, conforme=journal.ok, records=journal.reader.records,
                    findings=[{"id": f.id, "seq": f.seq, "message": f.message} for f in journal.findings],
                    **({"registry": journal.trust.as_json()} if journal.trust else {}))
    verdict = w["verdict"] + w["colon"] + w["conforme" if journal.ok else "non_conforme"]  # as the first page
    out.write(w["written"] % (verdict, output, lang, journal.reader.records, len(journal.findings)) + "\n")
    return 0


def add_arguments(parser):
    """`sabot report`'s arguments, for cli.py."""
    parser.add_argument("paths", nargs="+", metavar="JOURNAL", help="a journal folder, or segment files of one journal")
    parser.add_argument("-o", "--output", required=True, help="the file to write: HTML, or a PDF when it ends in .pdf "
                        "(printed by headless Chromium)")
    parser.add_argument("--lang", choices=("fr", "en"), default="fr", help="the report's language (default fr)")
    parser.add_argument("--key", help="a format 3 journal's key file (HMAC tags, hexadecimal); a format 4 journal, "
                        "signed by the shoe's element, needs none: --registry or --public-key")
    parser.add_argument("--public-key", metavar="FILE", help="as for sabot log verify: the shoe's secure element's "
                        "public key (hexadecimal X || Y), with which its checkpoints and receipt are checked")
    parser.add_argument("--registry", metavar="FILE", help="as for sabot log verify: the casino's registry "
                        "(shoes.json, sabot key enrol), which gives the public key by the journal's sabot number")
    parser.add_argument("--registry-signer", action="append", default=[], metavar="FILE", help="as for sabot log "
                        "verify: " + SIGNER_HELP)
    parser.add_argument("--establishment", metavar="NAME", type=options.ESTABLISHMENT, help="the casino the shoe "
                        "serves, for the first page (\"Casino de Deauville\"); without it the report says it was "
                        "not given")
    parser.add_argument("--allow-development-key", action="store_true", help="as for sabot log verify: a "
                        "simulator's or a test's journal may conform; without it such a journal never does")
    parser.add_argument("--bundle", action="append", default=[], metavar="DIR", help="an approved release bundle "
                        "(sabot firmware dist): names the version of the firmware whose digest it holds; repeatable")
    parser.add_argument("--force", action="store_true", help="replace an existing -o file")
    parser.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a "
                        "terminal)")


def main(args):
    return report(args.paths, args.output, args.lang, args.key, args.force, establishment=args.establishment,
                  allow_development_key=args.allow_development_key, bundles=args.bundle,
                  public_key=args.public_key, registry=args.registry, as_json=getattr(args, "json", False),
                  registry_signers=args.registry_signer)
