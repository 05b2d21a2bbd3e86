"""A pull's receipt kept beside the journal it covers: receipt.json (the last), pull.json (the nonce this pull issued,
its time and port, which `sabot log verify` checks it against) and every receipt by its pull's UTC time
(receipt-20261201T030000Z.json), never overwritten, for the next day's `sabot log verify --receipt`."""

import datetime
import json

from sabot.device import DeviceError


def keep_receipt(dest, port, nonce, receipt):
    """The shoe's receipt written beside the segments (receipt.json), with the nonce this pull issued for it, its
    time and port (pull.json, which `sabot log verify` checks it against); a DeviceError, and neither written, when
    it answers another nonce (an older receipt played back)."""
    if not isinstance(receipt, dict) or receipt.get("nonce") != nonce.hex():
        raise DeviceError("the shoe's receipt answers nonce %s, not the one this pull sent (%s): refused, no receipt "
                          "written" % (receipt.get("nonce") if isinstance(receipt, dict) else None, nonce.hex()))
    now = datetime.datetime.now(datetime.UTC)
    issued = {"nonce": nonce.hex(), "port": str(port), "time": now.strftime("%Y-%m-%dT%H:%M:%SZ")}
    _keep_earlier(dest)
    (dest / "pull.json").write_text(json.dumps(issued) + "\n")
    (dest / "receipt.json").write_text(json.dumps(receipt) + "\n")
    receipt["kept"] = _dated(dest, now, json.dumps(receipt) + "\n")
    return receipt


def _dated(dest, when, text):
    """The receipt kept under its pull's UTC time (receipt-20261201T030000Z.json), never overwritten: the file
    a later `sabot log verify --receipt` needs, whatever pull replaces receipt.json. Its name."""
    stem = "receipt-" + when.strftime("%Y%m%dT%H%M%SZ")
    for n in range(1, 1000):
        path = dest / ("%s%s.json" % (stem, "" if n == 1 else "-%d" % n))
        try:
            with open(path, "x") as kept:
                kept.write(text)
            return path.name
        except FileExistsError:
            if path.read_text() == text:
                return path.name
    raise DeviceError("%s holds too many receipts of %s" % (dest, stem))


def _keep_earlier(dest):
    """An earlier pull's receipt.json (one pulled before receipts were kept by date), kept under its pull's time
    before a new pull replaces it."""
    old = dest / "receipt.json"
    if not old.is_file():
        return
    try:
        when = datetime.datetime.strptime(json.loads((dest / "pull.json").read_text())["time"], "%Y-%m-%dT%H:%M:%SZ")
    except (OSError, ValueError, KeyError, TypeError):
        when = datetime.datetime.fromtimestamp(old.stat().st_mtime, datetime.UTC)
    text = old.read_text()
    if not any(p.read_text() == text for p in dest.glob("receipt-*.json")):
        _dated(dest, when, text)
