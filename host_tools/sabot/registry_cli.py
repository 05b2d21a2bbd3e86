"""`sabot key signer`, `key sign` and `key countersign`: the casino's and the approver's signing keys and their
signatures of the casino's registry (sabot.registry_signatures, docs/registry-signatures.md); and the line the
commands that rewrite the registry (`key enrol`, `number set`) add when its signatures no longer cover it."""

import json
import os
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

from sabot import registry_signatures as rs
from sabot.journalfile import Unusable

SIGNER_HELP = ("a public key file (sabot key signer's .pub) of a signer of the registry the user trusts: the "
               "registry's signatures (REGISTRY.sig) are checked against it, and a registry signed by none of them "
               "refused; repeatable")


def public_path(private):
    """The public key file beside a private one: casino-signer.pem's is casino-signer.pub."""
    private = Path(private)
    return private.with_suffix(".pub") if private.suffix not in ("", ".pub") else Path(str(private) + ".pub")


def signer_command(path, out=sys.stdout):
    """A new Ed25519 signing key pair: path (PEM, PKCS8, only its owner reads it) and its public key beside (PEM);
    neither file is ever overwritten."""
    private = rs.new_private()
    public = public_path(path)
    try:
        taken = [name for name in (path, public) if os.path.lexists(name)]
        if taken:
            print("sabot key signer: erreur : %s existe déjà : un autre nom (une clé n'est jamais écrasée) (error: %s "
                  "exists: choose another name, a key is never overwritten)" % (taken[0], taken[0]), file=sys.stderr)
            return 2
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(private.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
        with open(public, "xb") as f:
            f.write(private.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo))
    except OSError as e:
        print("sabot key signer: erreur : %s ne peut être écrit (error: %s: %s)" % (
            e.filename or path, e.filename or path, e.strerror), file=sys.stderr)
        return 2
    out.write("clé de signature écrite dans %s (à garder, lisible de son seul propriétaire) ; sa clé publique, "
              "identifiant %s, dans %s (à donner à qui vérifie : --registry-signer %s) / signing key written to %s, "
              "its public key (key id %s) to %s\n" % (path, rs.signer_id(rs.raw(private.public_key())), public, public,
                                                      path, rs.signer_id(rs.raw(private.public_key())), public))
    return 0


def _private(path):
    try:
        key = load_pem_private_key(Path(path).read_bytes()[:4096], password=None)
    except FileNotFoundError:
        raise Unusable("%s: no such signing key file (sabot key signer makes one)" % path) from None
    except (OSError, ValueError, TypeError) as e:
        raise Unusable("%s: not a signing key (sabot key signer's PEM file): %s" % (
            path, getattr(e, "strerror", None) or e)) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise Unusable("%s: not an Ed25519 signing key (sabot key signer's PEM file)" % path)
    return key


def sign_command(registry, signing_key, role, signers=(), out=sys.stdout):
    """Sign the registry as the casino (its signature file written anew: earlier signatures covered other bytes or
    are superseded) or countersign it as the approver (the casino's signature must verify over the registry as it
    is, and be a trusted signer's when signers are given; an earlier countersignature of the same key replaced)."""
    command = "sabot key %s" % ("sign" if role == rs.CASINO else "countersign")
    try:
        private = _private(signing_key)
        data = Path(registry).read_bytes()
        sig = rs.signature_path(registry)
        held = json.loads(sig.read_text(encoding="utf-8")) if sig.exists() else None
        if role == rs.CASINO:
            entries = []
        else:
            if held is None:
                raise rs.RegistryRefused("le registre %s n'est pas signé par le casino : rien à contresigner (sabot "
                                         "key sign d'abord)" % registry, "registry %s is not signed by the casino: "
                                         "nothing to countersign (sabot key sign first)" % registry)
            _, found = rs.check(registry, data, held, {rs.read_public(f) for f in signers})
            casino = [s for s in found if s.role == rs.CASINO]
            if signers and not any(s.trusted for s in casino):
                raise rs.RegistryRefused("le registre %s : sa signature du casino (clé %s) n'est pas d'un "
                                         "--registry-signer donné" % (registry, casino[0].key_id), "registry %s: "
                                         "its casino signature (key id %s) is not a --registry-signer given" % (
                                             registry, casino[0].key_id))
            mine = rs.raw(private.public_key()).hex()
            entries = [e for e in held["signatures"] if not (e["role"] == role and e["public_key"] == mine)]
        entries.append(rs.signed(data, private, role, entries))
        partial = Path(str(sig) + ".new")
        partial.write_text(json.dumps(rs.document(data, entries), indent=1) + "\n", encoding="utf-8")
        partial.replace(sig)
    except FileNotFoundError as e:
        print("%s: erreur : %s : aucun registre de ce nom (error: no such registry)" % (command, e.filename),
              file=sys.stderr)
        return 2
    except (Unusable, OSError, ValueError, KeyError, TypeError) as e:
        print("%s: %s" % (command, rs.error_line(e) if isinstance(e, Unusable) else "error: %s: %s" % (sig, e)),
              file=sys.stderr)
        return 2
    entry = entries[-1]
    if role == rs.CASINO:
        out.write("registre %s signé par le casino (clé %s) dans %s ; à contresigner par l'approbateur : sabot key "
                  "countersign --registry %s --signing-key FICHIER / registry signed by the casino\n" % (
                      registry, entry["key_id"], sig, registry))
    else:
        out.write("registre %s contresigné par l'approbateur (clé %s) dans %s, sur la signature du casino (clé %s) "
                  "/ registry countersigned by the approver\n" % (registry, entry["key_id"], sig, casino[0].key_id))
    return 0


def after_rewrite(command, registry, status):
    """A command's status, and on stderr, when it rewrote a registry its signatures no longer cover, one line (French
    first) that it must be signed again."""
    if status == 0 and registry and rs.stale(registry):
        print("%s: registre %s modifié : ses signatures (%s) ne le couvrent plus, il doit être signé de nouveau "
              "(sabot key sign), puis contresigné / the registry changed: sign it again" % (
                  command, registry, rs.signature_path(registry).name), file=sys.stderr)
    return status
