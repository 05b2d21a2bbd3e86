"""A registry someone vouches for (issue 38; docs/keys.md, docs/registry-signatures.md): the casino signs its
shoes.json (sabot key sign), the approver countersigns it (sabot key countersign), and `log verify`, `report` and
`fleet ingest` with --registry check the signatures against the signers the user trusts (--registry-signer): a
substituted or appended public key, a registry changed after signing, a signature that fails or a signer not trusted
is refused (one line, French first, exit 2, nothing said checked); an unsigned registry is said vouched for by nobody.
Host only: journals of the sim board with an element, the commands' own functions, a few `sabot` runs."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from boards.sim import p256
from boards.sim.board import SimBoard
from boards.sim.element import SimElement, journal_key
from boards.sim.runner import run
from boards.sim.scenario import parse
from firmware.storage import FileStorage
from sabot import keys, registry_cli, settings
from sabot import registry_signatures as rs
from sabot.cli import parser
from sabot.fleet.ingest import ingest
from sabot.journalfile import load_segments
from sabot.report.cli import report
from sabot.verify import verify
from tests.host.test_receipts_element import pulled
from tests.host.test_rollback import with_element

SABOT = str(Path(sys.executable).parent / "sabot")
GENUINE, FORGER = bytes(range(32)), b"\x07" * 32  # the shoe's element's seed, and another element's (a forger's)
DEALT = "seance table=1\nshoe seed=1\nno_more_bets\ndraw 4\ncoup_end"
REFUSED = "le registre %s est refusé : "


def sabot(*args, cwd=None):
    done = subprocess.run([SABOT, *map(str, args)], capture_output=True, text=True, timeout=120, cwd=cwd)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def journal(root, seed, name):
    """A journal signed by the element of seed, pulled into root/name; its element's public key, hexadecimal."""
    work = root / (name + ".work")
    work.mkdir()
    board = SimBoard(FileStorage(str(work / "journal")))
    with_element(board, work, SimElement(seed))
    run(parse(DEALT), board)
    pulled(board, root / name)
    board.close()
    return journal_key(seed).hex()  # slot 1's: the key that vouches for the journal


@pytest.fixture(scope="module")
def shoe(tmp_path_factory):
    """(the shoe's journal, a forged journal of the same sabot under another element, the sabot's number, the
    shoe's public key, the forger's, the casino's and the approver's signing keys and their public files)."""
    root = tmp_path_factory.mktemp("signed")
    own = journal(root, GENUINE, "pulled")
    forged = journal(root, FORGER, "forged")
    number = load_segments([root / "pulled"])[0].sabot
    assert load_segments([root / "forged"])[0].sabot == number
    signers = {}
    for who in ("casino", "approbateur", "forger"):
        assert registry_cli.signer_command(str(root / (who + ".pem")), out=io.StringIO()) == 0
        signers[who] = (root / (who + ".pem"), root / (who + ".pub"))
    return root / "pulled", root / "forged", number, own, forged, signers


def registry(folder, sabot, *publics, replaced=()):
    path = folder / "shoes.json"
    keys._write(str(path), {"shoes": [{"sabot": sabot, "public_key": p, "casino_key": None,
                                       "enrolled": "2026-12-01T00:00:00+00:00"} for p in publics],
                            **({"replaced": list(replaced)} if replaced else {})})
    return path


def signed(path, signers, roles=("casino", "approbateur")):
    for role in roles:
        status = registry_cli.sign_command(str(path), str(signers[role][0]), role, out=io.StringIO())
        assert status == 0
    return path


def verified(folder, shoes, *trusted, as_json=False, lang="fr"):
    out = io.StringIO()
    status = verify([str(folder)], None, as_json, out=out, registry=str(shoes), lang=lang,
                    registry_signers=[str(t) for t in trusted])
    return status, json.loads(out.getvalue()) if as_json and out.getvalue() else out.getvalue()


def reported(folder, shoes, tmp_path, *trusted):
    out = io.StringIO()
    status = report([str(folder)], tmp_path / "rapport.html", registry=str(shoes), out=out, force=True,
                    registry_signers=[str(t) for t in trusted])
    return status, (tmp_path / "rapport.html").read_text() if status == 0 else ""


def ingested(folder, shoes, tmp_path, *trusted):
    out, err = io.StringIO(), io.StringIO()
    status = ingest([str(folder)], str(tmp_path / "casino.duckdb"), "deauville", out=out, err=err,
                    registry=str(shoes), registry_signers=[str(t) for t in trusted])
    return status, out.getvalue(), err.getvalue()


def refused_by_every_reader(folder, shoes, tmp_path, capsys, trusted, why):
    """verify, report and fleet ingest each refuse the registry: exit 2, one line on stderr, French first (why),
    nothing on stdout said checked, no report, no database."""
    for name, reader in (("log verify", verified), ("report", lambda *a: reported(a[0], a[1], tmp_path, *a[2:]))):
        status = reader(folder, shoes, *trusted)[0]
        said = capsys.readouterr()
        assert status == 2 and said.out == "", (name, said)
        assert said.err.startswith("sabot %s: erreur : %s%s" % (name, REFUSED % shoes, why)), said.err
        assert len(said.err.splitlines()) == 1 and "(registry %s refused: " % shoes in said.err
    status, out, err = ingested(folder, shoes, tmp_path, *trusted)
    assert status == 2 and out == "" and err.startswith("sabot fleet ingest: erreur : " + REFUSED % shoes + why)
    assert not (tmp_path / "rapport.html").exists() and not (tmp_path / "casino.duckdb").exists()


@pytest.mark.req("K-REGISTRY", "H-VERIFY", "H-EXPORT", "F-INGEST")
def test_a_registry_signed_by_the_casino_and_countersigned_by_the_approver_verifies_clean(shoe, tmp_path):
    folder, _, number, own, _, signers = shoe
    shoes = signed(registry(tmp_path, number, own), signers)
    trusted = (signers["casino"][1], signers["approbateur"][1])
    status, said = verified(folder, shoes, *trusted)
    assert status == 0 and "résultat : conforme" in said, said
    casino_id, approver_id = (rs.signer_id(rs.read_public(p)) for p in trusted)
    assert ("registre signé, signatures vérifiées avec les signataires de confiance donnés : le casino (clé %s, le "
            % casino_id) in said and "l'approbateur (clé %s, le " % approver_id in said, said
    status, data = verified(folder, shoes, *trusted, as_json=True)
    assert status == 0 and data["ok"] and data["registry"]["vouched"] and data["registry"]["state"] == "vouched"
    assert [(s["role"], s["trusted"]) for s in data["registry"]["signatures"]] == [("casino", True),
                                                                                  ("approbateur", True)]
    status, said = verified(folder, shoes, trusted[0])  # the casino's own key alone: the countersignature said so
    assert status == 0 and "l'approbateur (clé %s, le " % approver_id in said and "pas de confiance)" in said, said
    status, page = reported(folder, shoes, tmp_path, *trusted)
    assert status == 0 and 'class="verdict ok"' in page and "Registre signé, signatures vérifiées" in page
    status, out, err = ingested(folder, shoes, tmp_path, *trusted)
    assert status == 0 and err == "" and out.startswith("registre signé, signatures vérifiées"), (out, err)


@pytest.mark.req("K-REGISTRY", "H-VERIFY", "F-INGEST")
def test_a_key_substituted_or_appended_after_signing_is_refused_by_verify_report_and_ingest(shoe, tmp_path,
                                                                                          capsys):
    """Issue 38: the forger's public key put in for the sabot's, appended as a second one, or appended as a
    replacement (the shoe's moved to "replaced", as `number set --replace` writes): the signatures no longer cover
    the registry; a forged journal verifies under none of them."""
    folder, forged, number, own, stranger, signers = shoe
    trusted = (signers["casino"][1], signers["approbateur"][1])
    edits = {"substituted": ([stranger], ()), "appended": ([own, stranger], ()),
             "a replacement": ([stranger], [{"sabot": number, "public_key": own, "replaced": "2026-12-02T00:00:00",
                                             "by": stranger}])}
    for name, (publics, replaced) in edits.items():
        shoes = signed(registry(tmp_path, number, own), signers)
        registry(tmp_path, number, *publics, replaced=replaced)  # rewritten after the signatures, as a forger would
        refused_by_every_reader(forged, shoes, tmp_path, capsys, trusted, "il a changé depuis sa signature")
        assert verified(folder, shoes, *trusted)[0] == 2, name  # the genuine journal too: the registry is refused
        assert "il a changé depuis sa signature" in capsys.readouterr().err


@pytest.mark.req("K-REGISTRY", "H-VERIFY", "F-INGEST")
def test_a_registry_re_signed_by_a_key_not_trusted_or_with_a_bad_signature_is_refused(shoe, tmp_path, capsys):
    folder, forged, number, _, stranger, signers = shoe
    trusted = (signers["casino"][1], signers["approbateur"][1])
    shoes = registry(tmp_path, number, stranger)  # the forger's key, signed by him as "the casino"
    assert registry_cli.sign_command(str(shoes), str(signers["forger"][0]), "casino", out=io.StringIO()) == 0
    refused_by_every_reader(forged, shoes, tmp_path, capsys, trusted, "signé par des clés qui ne sont pas de "
                            "confiance (casino %s)" % rs.signer_id(rs.read_public(signers["forger"][1])))
    held = json.loads(rs.signature_path(shoes).read_text())
    held["signatures"][0]["public_key"] = rs.read_public(signers["casino"][1]).hex()  # the casino's key named,
    held["signatures"][0]["key_id"] = rs.signer_id(rs.read_public(signers["casino"][1]))  # the forger's signature
    rs.signature_path(shoes).write_text(json.dumps(held))
    refused_by_every_reader(forged, shoes, tmp_path, capsys, trusted, "la signature casino (clé ")
    rs.signature_path(shoes).write_text("{\"format\": \"sabot registry signatures 1\", \"signatures\": []}")
    refused_by_every_reader(forged, shoes, tmp_path, capsys, trusted, "shoes.json.sig n'est pas un fichier de "
                            "signatures de registre")


@pytest.mark.req("K-REGISTRY", "H-VERIFY", "H-EXPORT", "F-INGEST")
def test_an_unsigned_registry_or_one_read_with_no_trusted_signer_is_said_vouched_for_by_nobody(shoe, tmp_path,
                                                                                                capsys):
    folder, _, number, own, _, signers = shoe
    shoes = registry(tmp_path, number, own)
    nobody = "registre non signé : les clés publiques qu'il tient ne sont garanties par personne"
    status, said = verified(folder, shoes)  # no signature file, no signer trusted: unsigned, said
    assert status == 0 and nobody in said and "registre signé" not in said, said
    refused_by_every_reader(folder, shoes, tmp_path, capsys, (signers["casino"][1],),  # its signature taken away
                            "il n'est pas signé (pas de shoes.json.sig), alors que des signataires de confiance")
    status, data = verified(folder, shoes, as_json=True)
    assert data["registry"]["vouched"] is False and data["registry"]["state"] == "unsigned"
    assert data["registry"]["said"].startswith("unsigned registry: the public keys it holds are vouched for by nobody")
    assert "unsigned registry" in verified(folder, shoes, lang="en")[1]
    status, page = reported(folder, shoes, tmp_path)
    assert status == 0 and "Registre non signé : les clés publiques qu&#x27;il tient ne sont garanties par " \
                           "personne" in page, page
    status, out, _ = ingested(folder, shoes, tmp_path)
    assert status == 0 and out.startswith(nobody)
    signed(shoes, signers)  # signed, but read with no trusted signer: nothing says who signed
    status, said = verified(folder, shoes)
    assert status == 0 and "registre non garanti : aucun signataire de confiance n'est donné (--registry-signer " \
                           "FICHIER) : les clés publiques qu'il tient ne sont garanties par personne" in said
    assert "registre signé" not in said and "vérifiées avec les signataires" not in said
    assert verified(folder, shoes, as_json=True)[1]["registry"]["state"] == "untrusted"


@pytest.mark.req("K-REGISTRY", "H-VERIFY", "F-INGEST")
def test_two_keys_for_one_sabot_are_a_finding_unless_a_replacement_the_signed_registry_records(shoe, tmp_path):
    """Signed or not, a sabot under two elements is a K-REGISTRY finding; a replacement recorded in the "replaced"
    list stands only in a registry a trusted signer vouches for: appended "as a replacement" in an unsigned one, the
    forger's key verifies his journal, but never clean."""
    folder, forged, number, own, stranger, signers = shoe
    trusted = (signers["casino"][1],)
    shoes = signed(registry(tmp_path, number, own, stranger), signers, roles=("casino",))
    status, data = verified(forged, shoes, *trusted, as_json=True)
    assert status == 1 and [f["id"] for f in data["findings"]] == ["K-REGISTRY"] and data["registry"]["vouched"]
    assert ingested(forged, shoes, tmp_path, *trusted)[0] == 1
    replacement = [{"sabot": number, "public_key": own, "replaced": "2026-12-02T00:00:00", "by": stranger}]
    rs.signature_path(shoes).unlink()
    shoes = registry(tmp_path, number, stranger, replaced=replacement)  # unsigned
    status, said = verified(forged, shoes)
    assert status == 1 and "K-REGISTRY" in said and "résultat : 1 constat(s)" in said, said
    assert "consigne le remplacement" in said and "personne ne le garantit" in said, said
    status, out, err = ingested(forged, shoes, tmp_path)
    assert status == 1 and "K-REGISTRY" in err, err
    assert reported(forged, shoes, tmp_path)[0] == 0 and "K-REGISTRY" in (tmp_path / "rapport.html").read_text()
    signed(shoes, signers, roles=("casino",))  # the casino vouches for the replacement: the new element's journal
    assert verified(forged, shoes, *trusted)[0] == 0


@pytest.mark.req("K-REGISTRY", "P-ENROL")
def test_the_signing_commands_and_a_rewritten_registry_said_to_need_signing_again(tmp_path, capsys):
    """sabot key signer writes a private key only its owner reads and never overwrites one; countersign needs the
    casino's signature over the registry as it is (and by a trusted casino key when given); a command that rewrites
    a signed registry (enrol, number set: keys.record) says in one line, French first, that it must be signed again."""
    done = sabot("key", "signer", "casino.pem", cwd=tmp_path)
    assert done.returncode == 0 and "casino.pub" in done.stdout, done.stderr
    assert (tmp_path / "casino.pem").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "casino.pem").read_text().startswith("-----BEGIN PRIVATE KEY-----")
    assert (tmp_path / "casino.pub").read_text().startswith("-----BEGIN PUBLIC KEY-----")
    again = sabot("key", "signer", "casino.pem", cwd=tmp_path)
    assert again.returncode == 2 and again.stderr.startswith("sabot key signer: erreur : casino.pem existe déjà")
    assert sabot("key", "signer", "approbateur.pem", cwd=tmp_path).returncode == 0
    shoes = registry(tmp_path, 42, p256.public_key(p256.scalar(GENUINE)).hex())
    early = sabot("key", "countersign", "--signing-key", "approbateur.pem", cwd=tmp_path)
    assert early.returncode == 2 and early.stderr.startswith("sabot key countersign: erreur : le registre shoes.json "
                                                             "n'est pas signé par le casino"), early.stderr
    assert sabot("key", "sign", "--signing-key", "casino.pem", cwd=tmp_path).returncode == 0
    wrong = sabot("key", "countersign", "--signing-key", "approbateur.pem", "--registry-signer", "approbateur.pub",
                  cwd=tmp_path)
    assert wrong.returncode == 2 and "refusé : signé par des clés qui ne sont pas de confiance" in wrong.stderr
    done = sabot("key", "countersign", "--signing-key", "approbateur.pem", "--registry-signer", "casino.pub",
                 cwd=tmp_path)
    assert done.returncode == 0 and "contresigné par l'approbateur" in done.stdout, done.stderr
    held = json.loads((tmp_path / "shoes.json.sig").read_text())
    assert [s["role"] for s in held["signatures"]] == ["casino", "approbateur"]
    assert registry_cli.after_rewrite("sabot key enrol", str(shoes), 0) == 0 and capsys.readouterr().err == ""
    keys.record(str(shoes), {"sabot": 43, "public_key": p256.public_key(p256.scalar(FORGER)).hex()})
    assert registry_cli.after_rewrite("sabot key enrol", str(shoes), 0) == 0
    said = capsys.readouterr().err
    assert said.startswith("sabot key enrol: registre %s modifié : ses signatures (shoes.json.sig) ne le couvrent "
                           "plus, il doit être signé de nouveau" % shoes) and len(said.splitlines()) == 1, said
    refused = sabot("log", "verify", tmp_path, "--registry", "shoes.json", "--registry-signer", "casino.pub",
                    cwd=tmp_path)
    assert refused.returncode == 2 and refused.stdout == "", refused
    assert refused.stderr.startswith("sabot log verify: erreur : le registre shoes.json est refusé : il a changé "
                                     "depuis sa signature (casino, clé "), refused.stderr


@pytest.mark.req("K-REGISTRY")
def test_the_trusted_signers_come_from_the_settings_too(tmp_path, monkeypatch):
    """registry_signer in sabot.toml (one path or a list), SABOT_REGISTRY_SIGNER (paths split by ':'): the default of
    every --registry-signer, to which the command line's add."""
    (tmp_path / "sabot.toml").write_text('registry = "shoes.json"\nregistry_signer = ["casino.pub", "appro.pub"]\n')
    found = settings.load(environ={}, cwd=tmp_path, home=tmp_path)
    assert found["registry_signer"][0] == ["casino.pub", "appro.pub"]
    top = settings.apply(parser(), found)
    assert top.parse_args(["log", "verify", "j"]).registry_signer == ["casino.pub", "appro.pub"]
    assert top.parse_args(["fleet", "ingest", "j", "--db", "d", "--casino", "c"]).registry_signer == [
        "casino.pub", "appro.pub"]
    found = settings.load(environ={"SABOT_REGISTRY_SIGNER": "a.pub" + os.pathsep + "b.pub"}, cwd=tmp_path,
                          home=tmp_path)
    assert settings.apply(parser(), found).parse_args(["report", "j", "-o", "r.html"]).registry_signer == [
        "a.pub", "b.pub"]
    (tmp_path / "sabot.toml").write_text("registry_signer = 3\n")
    with pytest.raises(settings.BadSettings, match="registry_signer must be a non-empty string"):
        settings.load(environ={}, cwd=tmp_path, home=tmp_path)


@pytest.mark.req("K-REGISTRY")
def test_a_signature_covers_the_registrys_bytes_its_role_its_time_and_a_countersignature_the_casinos_too():
    """sabot.registry_signatures.check, the pure core: each field a signature covers, changed, fails it."""
    data = b'{"shoes": []}\n'
    casino, approver = rs.new_private(), rs.new_private()
    trusted = {rs.raw(casino.public_key()), rs.raw(approver.public_key())}
    first = rs.signed(data, casino, rs.CASINO, when="2026-12-01T09:00:00+00:00")
    both = [first, rs.signed(data, approver, rs.APPROVER, [first])]
    state, signers = rs.check("shoes.json", data, rs.document(data, both), trusted)
    assert state == "vouched" and [s.role for s in signers] == ["casino", "approbateur"]
    assert rs.check("shoes.json", data, None, set()) == ("unsigned", [])
    with pytest.raises(rs.RegistryRefused, match="its signature may have been taken away"):
        rs.check("shoes.json", data, None, trusted)  # a signature file taken away, signers trusted: refused
    assert rs.check("shoes.json", data, rs.document(data, both), set())[0] == "untrusted"
    other = rs.signed(data + b" ", casino, rs.CASINO)  # the casino's signature of other bytes
    forged = [dict(first, role=rs.APPROVER), dict(first, signed="2026-12-02T09:00:00+00:00"),
              dict(both[1], signature=both[1]["signature"][:-2] + ("01" if both[1]["signature"].endswith("00")
                                                                  else "00"))]  # its last byte changed, whatever it was
    for signatures in ([first, forged[0]], [forged[1]], [first, forged[2]], [other, both[1]]):
        with pytest.raises(rs.RegistryRefused, match="does not verify"):
            rs.check("shoes.json", data, rs.document(data, signatures), trusted)
    with pytest.raises(rs.RegistryRefused, match="changed after it was signed"):
        rs.check("shoes.json", data + b"\n", rs.document(data, both), trusted)
    with pytest.raises(rs.RegistryRefused, match="signed by keys not trusted"):
        rs.check("shoes.json", data, rs.document(data, both), {bytes(32)})
    with pytest.raises(rs.RegistryRefused, match="not a registry signature file"):
        rs.check("shoes.json", data, rs.document(data, [both[1]]), trusted)  # a countersignature of nothing
