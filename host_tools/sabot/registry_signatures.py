"""Who vouches for the casino's registry (issue 38; docs/registry-signatures.md): the registry (shoes.json) signed by
the casino that keeps it and countersigned by the approver who receives the commissioning declaration, each with an
Ed25519 key of its own (pyca/cryptography), the signatures in a file beside it (shoes.json.sig). The readers (`log
verify`, `report`, `fleet ingest` with --registry) check them against the signers the user trusts (check(), pure)
and refuse a registry whose signature fails, that changed after it was signed or that only untrusted keys signed
(RegistryRefused: one line, French first, exit 2); an unsigned registry, or one read with no trusted signer, is said
vouched for by nobody, never "signé". Trust.findings() adds, to a sabot held under two elements (K-REGISTRY), a
replacement recorded in a registry nobody vouches for: a key appended "as a replacement" would verify a forged
journal."""

import datetime
import hashlib
import json
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, load_pem_public_key

from sabot.element import key_id, public_key, replaced, two_keys
from sabot.journalfile import Finding, Unusable
from sabot.times import moment

SUFFIX = ".sig"  # shoes.json's signatures: shoes.json.sig
FORMAT = "sabot registry signatures 1"
CASINO, APPROVER = "casino", "approbateur"
ROLES = (CASINO, APPROVER)
LABEL = b"sabot registry signature v1\n"
ID_LABEL = b"sabot signer id "
RETIRED_LEEWAY = datetime.timedelta(days=1)  # a replaced element's journal may run this far past its replacement


class RegistryRefused(Unusable):
    """A registry the readers refuse: its words in French (fr) and English (str)."""

    def __init__(self, fr, en):
        super().__init__(en)
        self.fr = fr


def error_line(e, lang="fr"):
    """An Unusable as a command's one line says it: French first, its English after, for a refused registry."""
    if isinstance(e, RegistryRefused) and lang == "fr":
        return "erreur : %s (%s)" % (e.fr, e)
    return "error: %s" % e


def message(role, when, registry, casino_signature=b""):
    """The bytes a signature covers: the label, the role, when, the casino's signature (a countersignature's), and
    the registry file's exact bytes."""
    return LABEL + b"role %s\nsigned %s\n" % (role.encode(), when.encode()) + casino_signature + registry


def raw(key):
    """An Ed25519 public key's 32 bytes."""
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def signer_id(public):
    """A signer's key id: the first 8 bytes of SHA-256 of the label and its 32-byte public key, hexadecimal."""
    return hashlib.sha256(ID_LABEL + public).digest()[:8].hex()


def utc_now():
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()


def signature_path(registry):
    return Path(str(registry) + SUFFIX)


def signed(registry, private, role, signatures=(), when=None):
    """The signature entry of role (casino: over the registry's bytes; approbateur: over them and the casino's
    signature, which must be among signatures), by the Ed25519 private key."""
    when = when or utc_now()
    casino = _casino_signature(signatures) if role == APPROVER else b""
    return {"role": role, "public_key": raw(private.public_key()).hex(),
            "key_id": signer_id(raw(private.public_key())), "signed": when,
            "signature": private.sign(message(role, when, registry, casino)).hex()}


def document(registry, signatures):
    """The signature file's object: its format, the registry's SHA-256 (stale at a glance) and the signatures."""
    return {"format": FORMAT, "sha256": hashlib.sha256(registry).hexdigest(), "signatures": list(signatures)}


def _casino_signature(signatures):
    found = [bytes.fromhex(s["signature"]) for s in signatures if s.get("role") == CASINO]
    if len(found) != 1:
        raise ValueError("a countersignature covers the casino's signature: the file holds %d" % len(found))
    return found[0]


class Signer:
    """One signature of the file, checked: its role, key id, when, and whether a signer the user trusts made it."""

    def __init__(self, entry, trusted):
        self.role, self.key_id, self.when, self.trusted = entry["role"], entry["key_id"], entry["signed"], trusted

    def as_json(self):
        return {"role": self.role, "key_id": self.key_id, "signed": self.when, "trusted": self.trusted}


def check(path, registry, held, trusted):
    """(state, [Signer]) of the registry's bytes and its signature file's object (held; None: no file), against
    the 32-byte public keys trusted: "unsigned" (no signature, no trusted signer given), "untrusted" (signed, but no
    trusted signer given: nothing says who signed) or "vouched" (a trusted signer's signature among them).
    RegistryRefused: no signature file though signers are trusted, a signature file that is not one, a signature
    that does not verify, a registry changed since, a signed registry no trusted signer signed."""
    if held is None:
        if trusted:  # the signers trusted vouch for nothing here: a signature file taken away must not read unsigned
            raise RegistryRefused(
                "le registre %s est refusé : il n'est pas signé (pas de %s), alors que des signataires de confiance "
                "sont donnés : sa signature a pu lui être ôtée" % (path, signature_path(path).name),
                "registry %s refused: it is not signed (no %s) though trusted signers are given: its signature may "
                "have been taken away" % (path, signature_path(path).name))
        return "unsigned", []
    name = signature_path(path).name
    try:
        entries = held["signatures"] if held.get("format") == FORMAT else None
        if not entries:
            raise ValueError("no format %r, or no signature" % FORMAT)
        keys = [Ed25519PublicKey.from_public_bytes(bytes.fromhex(e["public_key"])) for e in entries]
        checks = [(e["role"], e["signed"], bytes.fromhex(e["signature"])) for e in entries]
        if any(role not in ROLES or not isinstance(when, str) for role, when, _ in checks):
            raise ValueError("a role other than %s" % ", ".join(ROLES))
        casino = _casino_signature(entries) if any(role == APPROVER for role, _, _ in checks) else b""
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise RegistryRefused("le registre %s est refusé : %s n'est pas un fichier de signatures de registre (%s)" % (
            path, name, e), "registry %s refused: %s is not a registry signature file: %s" % (path, name, e)) from None
    changed = held.get("sha256") != hashlib.sha256(registry).hexdigest()
    for key, entry, (role, when, signature) in zip(keys, entries, checks):
        try:
            key.verify(signature, message(role, when, registry, casino if role == APPROVER else b""))
        except InvalidSignature:
            if changed:
                raise RegistryRefused(
                    "le registre %s est refusé : il a changé depuis sa signature (%s, clé %s, le %s) : il doit être "
                    "signé de nouveau (sabot key sign), puis contresigné" % (path, role, entry["key_id"], when),
                    "registry %s refused: it changed after it was signed (%s, key id %s, %s): sign it again" % (
                        path, role, entry["key_id"], when)) from None
            raise RegistryRefused(
                "le registre %s est refusé : la signature %s (clé %s) ne le vérifie pas : registre ou signature "
                "altérés" % (path, role, entry["key_id"]), "registry %s refused: the %s signature (key id %s) "
                "does not verify: the registry or its signature altered" % (path, role, entry["key_id"])) from None
    signers = [Signer(e, raw(k) in trusted) for k, e in zip(keys, entries)]
    if not trusted:
        return "untrusted", signers
    if not any(s.trusted for s in signers):
        ids = ", ".join("%s %s" % (s.role, s.key_id) for s in signers)
        raise RegistryRefused("le registre %s est refusé : signé par des clés qui ne sont pas de confiance (%s) : "
                              "aucune n'est un --registry-signer donné" % (path, ids),
                              "registry %s refused: signed by keys not trusted (%s), none of the --registry-signer "
                              "given" % (path, ids))
    return "vouched", signers


SAID = {
    "unsigned": ("registre non signé : les clés publiques qu'il tient ne sont garanties par personne (sabot key "
                 "sign, docs/keys.md)", "unsigned registry: the public keys it holds are vouched for by nobody "
                 "(sabot key sign, docs/keys.md)"),
    "untrusted": ("registre non garanti : aucun signataire de confiance n'est donné (--registry-signer FICHIER) : "
                  "les clés publiques qu'il tient ne sont garanties par personne", "registry not vouched for: no "
                  "trusted signer given (--registry-signer FILE): the public keys it holds are vouched for by nobody"),
    "vouched": ("registre signé, signatures vérifiées avec les signataires de confiance donnés : %s",
                "registry signed, its signatures checked against the trusted signers given: %s"),
    "by": ("%s (clé %s, le %s%s)", "%s (key id %s, %s%s)"),
    "stranger": (", clé qui n'est pas de confiance", ", a key not trusted"),
    "roles": ({CASINO: "le casino", APPROVER: "l'approbateur"}, {CASINO: "the casino", APPROVER: "the approver"}),
}


class Trust:
    """What the readers know of a registry: its path, its shoes and replacements, and who vouches for it."""

    def __init__(self, path, held, state, signers):
        self.path, self.held, self.state, self.signers = path, held, state, signers

    @property
    def vouched(self):
        return self.state == "vouched"

    def said(self, lang="fr"):
        """One line for people: vouched for by whom, or by nobody (never "signé" unless checked)."""
        at = 0 if lang == "fr" else 1
        if not self.vouched:
            return SAID[self.state][at]
        by = "; ".join(SAID["by"][at] % (SAID["roles"][at][s.role], s.key_id, s.when, "" if s.trusted else
                                         SAID["stranger"][at]) for s in self.signers)
        return SAID["vouched"][at] % by

    def as_json(self):
        return {"path": str(self.path), "vouched": self.vouched, "state": self.state,
                "signatures": [s.as_json() for s in self.signers], "said": self.said("en")}

    def findings(self, sabot, key_id=None, last_ms=None):
        """K-REGISTRY: the sabot held under two elements (sabot.element.two_keys), its element's replacement
        recorded in a registry nobody vouches for, or a journal of the element it replaced (its headers' key_id)
        whose last record (last_ms, the journal's time) came more than a day after the replacement: a retired
        element still signing (the day is the shoe's clock's leeway, as `clock set` allows it)."""
        found = two_keys(self.path, sabot)
        if found:
            return found
        if self.vouched:
            return self._retired(sabot, key_id, last_ms)
        for gone in replaced(self.held, sabot):
            found.append(Finding("K-REGISTRY", 0, "the registry %s records sabot %d's element (key id %s) replaced "
                                 "by key id %s, and nobody vouches for it (%s): a key appended as a replacement "
                                 "would verify any journal" % (self.path, sabot, _element_id(gone.get("public_key")),
                                                               _element_id(gone.get("by")), self.state)))
        return found

    def _retired(self, sabot, key_id, last_ms):
        if key_id is None or last_ms is None:
            return []  # no journal's key or end given: a registry checked alone
        for gone in replaced(self.held, sabot):
            if _element_id(gone.get("public_key")) != key_id.hex():
                continue
            when = _utc(gone.get("replaced"))
            if when is None:  # vouched for, yet no date to hold the journal against: said, never passed over
                return [Finding("K-REGISTRY", 0, "the registry %s records sabot %d's element key id %s replaced "
                                "with no readable date (%r): whether its journal runs past the replacement cannot be "
                                "said" % (self.path, sabot, key_id.hex(), gone.get("replaced")))]
            if moment(last_ms) <= when + RETIRED_LEEWAY:
                continue
            return [Finding("K-REGISTRY", 0, "a journal of sabot %d's element key id %s, which the registry %s records "
                            "replaced on %s by key id %s, runs to %s: a retired element still signing" % (
                                sabot, key_id.hex(), self.path, when.isoformat(), _element_id(gone.get("by")),
                                moment(last_ms).replace(microsecond=0).isoformat()))]
        return []


def _utc(text):
    """A registry's time (ISO 8601; without an offset, UTC), None when it is not one."""
    try:
        at = datetime.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return at if at.tzinfo else at.replace(tzinfo=datetime.UTC)


def _element_id(hexadecimal):
    try:
        return key_id(public_key(bytes.fromhex(hexadecimal))).hex()
    except (TypeError, ValueError):
        return "?"


def read_public(path):
    """A trusted signer's public key file (sabot key signer's .pub: PEM, or its 32 bytes in hexadecimal): 32 bytes."""
    try:
        text = Path(path).read_bytes()[:4096]
        if text.lstrip().startswith(b"-----BEGIN"):
            key = load_pem_public_key(text)
            if not isinstance(key, Ed25519PublicKey):
                raise ValueError("not an Ed25519 key")
            return raw(key)
        return raw(Ed25519PublicKey.from_public_bytes(bytes.fromhex(text.decode("ascii").strip())))
    except FileNotFoundError:
        raise Unusable("%s: no such signer's public key file" % path) from None
    except (OSError, UnicodeError, ValueError) as e:
        raise Unusable("%s: not a signer's public key (sabot key signer's .pub): %s" % (
            path, getattr(e, "strerror", None) or e)) from None


def trust_of(path, signer_files=()):
    """The Trust of the registry at path with the signers trusted (their public key files); Unusable when the
    registry or a signer's file cannot be read, RegistryRefused when the registry's signatures fail."""
    trusted = {read_public(f) for f in signer_files}
    try:
        data = Path(path).read_bytes()
        held = json.loads(data.decode("utf-8"))
        held["shoes"]  # noqa: B018 (registry_keys says it when not)
    except FileNotFoundError:
        raise Unusable("%s: no such registry" % path) from None
    except (OSError, UnicodeError, ValueError, KeyError, TypeError) as e:
        raise Unusable("%s: not a registry of shoes (sabot key enrol): %s" % (path, e)) from None
    sig = signature_path(path)
    try:
        signatures = json.loads(sig.read_text(encoding="utf-8")) if sig.exists() else None
    except (OSError, UnicodeError, ValueError) as e:
        raise RegistryRefused("le registre %s est refusé : %s illisible (%s)" % (path, sig.name, e),
                              "registry %s refused: %s unreadable: %s" % (path, sig.name, e)) from None
    state, signers = check(path, data, signatures if isinstance(signatures, dict) or signatures is None else {},
                           trusted)
    return Trust(path, held, state, signers)


def stale(path):
    """Whether the registry has a signature file that no longer covers its bytes (a command rewrote it)."""
    sig = signature_path(path)
    try:
        held = json.loads(sig.read_text(encoding="utf-8"))
        return held.get("sha256") != hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except (OSError, ValueError, AttributeError):
        return sig.exists()


def new_private():
    return Ed25519PrivateKey.generate()
