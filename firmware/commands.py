"""The shoe's side of each protocol command, one handler a command (firmware/format/commands.py holds their codes,
arguments' sizes and statuses): HANDLERS maps a command's code to it. A handler takes the link (firmware/protocol.py's
Protocol: the shell, the element or None, the casino's key, the board, its clock and random source, as attributes),
the command's code, its arguments (their size checked), the request's sequence number and the key that authenticated
it (None for a read), and returns (status, payload), or (None, b"") when the answer is worked on passes later
(link.job). A new command: one row of firmware/format/commands.py's ARGS, its handler here, its row of HANDLERS."""

import json
import struct

from firmware.compat import const
from firmware.format.commands import (
    C_CASINO_KEY,
    C_CHALLENGE,
    C_CHUNK,
    C_CLOCK_FORCE,
    C_CLOCK_SET,
    C_ENROL,
    C_FIRMWARE,
    C_NUMBER_SET,
    C_RECEIPT,
    C_SEANCE_CLOSE,
    C_SEANCE_OPEN,
    C_SEGMENTS,
    C_STATUS,
    E_ARGUMENT,
    E_BEHIND,
    E_FAULT,
    E_NO_ELEMENT,
    E_NO_MANIFEST,
    E_NOT_FOUND,
    E_REFUSED,
    OK,
)
from firmware.frames import NONCE_SIZE, TAG_SIZE, VERSION, WRAP
from firmware.mac import Key

_SEGMENTS_PAGE = const(63)  # (4 + 4)-byte entries after the status and the count: 1 + 2 + 63 * 8 = 507 bytes
_CHUNK_MAX = const(508)  # a chunk's bytes after the status, a payload within frames.PAYLOAD_MAX


def _status(link, command, args, seq, key):
    from firmware import remote

    files = link.files
    if files is None:  # the flash's directories, read once: only a restart changes what they say
        files = link.files = (remote.other_journal(), remote.kept_journals())
    answer = remote.status(link.shell, files[0])
    answer["protocol"] = VERSION
    answer["casino"] = key_id(link.casino)
    answer["code"] = link.enrolment is not None and link.casino is None  # a first enrolment awaits its code
    answer["kept"] = files[1]
    answer.update(link.counters())
    return OK, _json(answer)


def _challenge(link, command, args, seq, key):
    link.nonce = link.random(NONCE_SIZE)
    link.nonce_at = link.now()
    return OK, link.nonce


def _segments(link, command, args, seq, key):
    storage = _storage(link, _kept(args, 2))
    if storage is None:
        return E_NOT_FOUND, b""
    start = args[0] | args[1] << 8
    segments = storage.segments()
    data = struct.pack("<H", len(segments))
    for segment in segments[start:start + _SEGMENTS_PAGE]:
        data += struct.pack("<II", segment, storage.size(segment))
    return OK, data


def _chunk(link, command, args, seq, key):
    segment, offset, count = struct.unpack("<IIH", args[:10])
    kept = _kept(args, 10)
    if segment == 0:
        return _checkpoints(link, offset, count, kept)
    storage = _storage(link, kept)
    if storage is None or segment not in storage.segments():
        return E_NOT_FOUND, b""
    if count > _CHUNK_MAX:
        return E_ARGUMENT, b""
    size = storage.size(segment)
    if offset > size:
        return E_ARGUMENT, b""
    with storage.reader(segment) as stream:
        stream.seek(offset)  # the ring's reader too (firmware/ring_reader.py): no copy of the bytes before it
        return OK, stream.read(min(count, size - offset))


def _checkpoints(link, offset, count, kept):
    """Segment 0: the journal's checkpoint file (firmware/checkpoints.py), or a kept journal's, read as a segment is."""
    points = link.shell.checkpoints
    if points is None or count > _CHUNK_MAX:
        return (E_NOT_FOUND if points is None else E_ARGUMENT), b""
    path = points.path
    if kept:
        path = "%s.%d/%s" % (points.folder, kept, path.rpartition("/")[2])
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            return OK, f.read(count)
    except OSError:
        return E_NOT_FOUND, b""


def _storage(link, kept):
    """The journal's store, or a kept journal's files (journal.N, set aside by a new number: no ring's); None when
    there is no such kept journal."""
    if not kept:
        return link.shell.journal.storage
    from firmware import remote

    return remote.kept_storage(kept)


def _receipt(link, command, args, seq, key):
    from firmware import receipt

    points = link.shell.checkpoints
    if points is None or points.element is None:
        return OK, receipt.receipt(link.shell.journal, args).encode()
    link.job = [_signed, command, seq, receipt.Signing(link.shell.journal, args, points)]
    return None, b""  # answered by link.work(), once the element has signed


def _signed(link, signing):
    """A receipt's element polled (a pass counts as 1 ms): its line once signed."""
    line = signing.step(1)
    return None if line is None else (OK, line.encode())


def _enrol(link, command, args, seq, key):
    if link.element is None:
        return E_NO_ELEMENT, b""
    from firmware.checkpoints import journal_key

    try:  # X || Y, the chip's own signing key when it has one, whatever the flash's files say: the registry's
        return OK, journal_key(link.element)[1]
    except OSError:  # the element did not answer
        return E_NO_ELEMENT, b""


def _firmware(link, command, args, seq, key):
    """From the last answer when the seed is its; a production Pico's region a slice a pass (link.work(): the answer
    then, no answer now); else the image's files at once, the answer kept for the next index."""
    from firmware import identity

    seed = args[:32]
    index = args[32] | args[33] << 8
    cached = link.cached
    if cached is None or cached[0] != seed:
        if identity.REGION is not None:
            link.job = [_hashed, command, seq, (identity.RegionMac(seed), index)]
            return None, b""
        try:
            cached = link.cached = (bytes(seed), identity.answer(seed))
        except (OSError, ValueError):
            return E_NO_MANIFEST, b""
    return _page(cached[1], index)


def _hashed(link, state):
    """A challenge's next slice hashed: its page once the region is."""
    mac, index = state
    mac.step()
    if not mac.done():
        return None
    link.cached = (mac.seed, mac.answer())
    return _page(link.cached[1], index)


def _page(answer, index):
    files = answer["files"]
    if index < len(files):
        return OK, _json({"count": len(files), "file": files[index]})
    return OK, _json({"count": len(files), "overall": answer["overall"], "unlisted": len(answer["unlisted"]),
                      "configuration": "production"})


def _casino_key(link, command, args, seq, key):
    """The new key unwrapped under the current one (the code's, first): never in clear."""
    from firmware import remote

    first = link.casino is None
    args = bytes(a ^ b for a, b in zip(args, key.tag(WRAP + link.used_nonce, TAG_SIZE)))
    refused = remote.enrol_casino(args, link.shell, key.id, link.casino and link.casino.id, first)
    if refused:
        return _refused(refused)
    if first:
        link.enrolment = None  # spent: one first enrolment per code
    link.casino = Key(args)
    return OK, _json({"casino": key_id(link.casino), "by_key": key_id(key)})


def _number_set(link, command, args, seq, key):
    from firmware import remote

    sabot = args[0] | args[1] << 8
    answer = remote.renumber(sabot, link.shell, key.id)
    if "was" not in answer:
        return _refused(answer)
    answer["by_key"] = key_id(key)
    link.restart = answer["was"] != sabot or answer["kept"] is not None
    return OK, _json(answer)


def _clock_set(link, command, args, seq, key):
    from firmware import remote

    fields = struct.unpack("<IHBBBBB", args)
    year, month, day, hour, minute, second = fields[1:]
    if not (2020 <= year <= 2099 and 1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60
            and second < 60):
        return E_ARGUMENT, b""
    answer = remote.clock(link.shell, fields[0], fields[1:], link.board, key.id, command == C_CLOCK_FORCE)
    link.restart = "set" in answer
    if "behind" in answer:
        return E_BEHIND, _json(answer)
    return (OK, _json(answer)) if link.restart else _refused(answer)


def _seance(link, command, args, seq, key):
    from firmware import remote

    table, by, length = struct.unpack("<HHB", args[:5])
    try:
        answer = remote.open_seance(link.shell, link.now(), table, bytes(args[5:5 + length]).decode(), by,
                                    command == C_SEANCE_CLOSE)
    except (ValueError, UnicodeError):
        return E_ARGUMENT, b""
    answer["by_key"] = key_id(link.casino)
    if "seq" in answer:
        return OK, _json(answer)
    return (E_REFUSED if "refused" in answer else E_FAULT), _json(answer)


HANDLERS = {
    C_STATUS: _status,
    C_CHALLENGE: _challenge,
    C_SEGMENTS: _segments,
    C_CHUNK: _chunk,
    C_RECEIPT: _receipt,
    C_ENROL: _enrol,
    C_FIRMWARE: _firmware,
    C_SEANCE_OPEN: _seance,
    C_SEANCE_CLOSE: _seance,
    C_CLOCK_SET: _clock_set,
    C_CASINO_KEY: _casino_key,
    C_NUMBER_SET: _number_set,
    C_CLOCK_FORCE: _clock_set,
}


def _refused(answer):
    """A state-changing command the shoe did not carry out: refused (the controller's reason, or a clock too far
    ahead), or in fault (nothing could be journalled)."""
    return (E_REFUSED if "refused" in answer or "ahead" in answer else E_FAULT), _json(answer)


def _kept(args, at):
    """The kept journal a read names after its fields (journal.N), 0 for the journal."""
    return args[at] | args[at + 1] << 8 if len(args) > at else 0


def key_id(key):
    if key is None:
        return None
    return "".join("%02x" % b for b in key.id)


def _json(answer):
    return json.dumps(answer).encode()
