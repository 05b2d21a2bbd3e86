"""A shoe's journal copied as it grows (`sabot pit`'s feed, docs/pit.md): the shoe's own reads over its production
protocol (status, segments, chunks: docs/protocol.md), asked from where the copy ends. The copy on disk is the
acknowledgment: the shoe keeps nothing for the pit, waits for nothing, and after a cable pulled, a restart of either
side or a power cut the next read goes on from the copy's end, so nothing is lost and nothing comes twice. What a
read brings is taken off again when the copy then fails its verification (rollback): the copy holds verified bytes
alone. Each read begins a few bytes before the copy's end and those bytes must be the shoe's again: a journal
rewritten or cut under the copy is said (Diverged), never mended."""

import os
import struct
from pathlib import Path

from firmware.format.checkpoint import FILE as CHECKPOINT_FILE
from firmware.format.commands import C_CHUNK
from firmware.storage import segment_name

OVERLAP = 8  # bytes the copy already holds, read again at each read of a segment: they must not have changed
_CHUNK = 508  # the most a chunk answers (firmware/protocol.py)


class Diverged(Exception):
    """The shoe's journal is not the continuation of the copy (rewritten, cut, another journal)."""


class Mirror:
    """The copy of one shoe's journal in folder: its segment files and its checkpoint file, as pull-log writes
    them, so that `sabot log verify FOLDER` reads it as a pull."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.seq = None  # the shoe's last record number when last read
        self.before = {}  # the sizes of the files the last read grew, before it (rollback)

    def size(self, name):
        path = self.folder / name
        return path.stat().st_size if path.exists() else 0

    def append(self, name, data):
        """data at the end of the copy's file name, made durable before the next read asks from its new end."""
        with open(self.folder / name, "ab") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    def follow(self, client):
        """One read of the shoe through client (sabot.protocol.Client): what it wrote since the copy's end, appended.
        The bytes added (0: nothing new); Diverged when the shoe's journal no longer continues the copy. The
        checkpoint file is read first and written last: a checkpoint names records already journalled, so the
        copy's segments always hold every record its checkpoints name (read the other way round, a checkpoint
        written between the two reads named a record the copy lacked: a cut, to the verifier)."""
        status = client.status()
        if status["seq"] == self.seq:
            return 0
        points = self._read(client, 0, CHECKPOINT_FILE, self.size(CHECKPOINT_FILE), None)
        grown = []
        for segment, size in client.segments():
            name = segment_name(segment)
            held = self.size(name)
            if size < held:
                raise Diverged("le segment %d du sabot a %d octets, la copie du pit %d : le journal a été coupé "
                               "(segment %d shrank on the shoe)" % (segment, size, held, segment))
            if size > held:
                grown.append((name, self._read(client, segment, name, held, size)))
        self.before = {name: self.size(name) for name, data in grown + [(CHECKPOINT_FILE, points)] if data}
        for name, data in grown + [(CHECKPOINT_FILE, points)]:
            if data:
                self.append(name, data)
        self.seq = status["seq"]
        return sum(len(data) for _, data in grown) + len(points)

    def rollback(self):
        """The last read's bytes taken off the copy again (they did not verify: pit/service.py), its files as they
        were before it; the next read asks for them again once the shoe has written more."""
        for name, size in self.before.items():
            if size:
                os.truncate(self.folder / name, size)
            else:
                (self.folder / name).unlink()
        self.before = {}

    def _read(self, client, segment, name, held, size):
        """The shoe's bytes of segment past the copy's held (to size, or to its end when None), the overlap
        checked first."""
        from sabot.protocol import Refused

        start = max(0, held - OVERLAP)
        expected = b""
        if held:
            with open(self.folder / name, "rb") as f:
                f.seek(start)
                expected = f.read(held - start)
        data = b""
        while size is None or start + len(data) < size:
            try:
                chunk = client.request(C_CHUNK, struct.pack("<IIH", segment, start + len(data), _CHUNK))
            except Refused:  # no checkpoint file (yet), or none on a shoe without an element
                return b""
            if not chunk:
                break
            data += chunk
        if data[:len(expected)] != expected:
            raise Diverged("les octets %d à %d de %s ne sont plus ceux que le pit a copiés : le journal a été réécrit "
                           "(rewritten under the copy)" % (start, held, name))
        return data[len(expected):]
