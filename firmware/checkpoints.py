"""Signed checkpoints and the secure element's counter: how the shoe knows at power-up that its journal was not cut or
put back while it was off (J-TAMPER, docs/journal-format.md "Checkpoints", docs/keys.md).

Between coups (a coup's end, a séance, an alarm raised), at each power-up and before a pull, the shoe counts the
element's monotonic counter 0 up by one and appends to journal/checkpoints.sbc an entry naming that counter and the
journal's end (segment, sequence number, chain value), signed by the element's private key, which never leaves it.
At power-up the last entry's counter must be the element's, and the journal recovered must reach the entry's end:
otherwise the shell raises FAULT_ROLLBACK. Nothing here imports machine: the board passes its element's driver in
(boards/mcu/atecc.py, or the virtual board's link to its model); the sim board has none and writes no checkpoint.
"""

import os
import struct
from binascii import crc32
from hashlib import sha256

from firmware import layout
from firmware.events import EV_SEANCE, EV_SEANCE_CLOSE

_COUNTER = 0  # the element's counter 0 counts the checkpoints; counter 1 is left free


class Checkpoints:
    def __init__(self, folder, element, sabot):
        """folder: the journal's; element: the secure element's driver (counter, increment, sign), None when the
        board has none answering (every power-up is then a rollback: the shoe cannot tell)."""
        self.folder = folder
        self.path = folder + "/" + layout.CHECKPOINT_FILE
        self.element = element
        self.sabot = sabot
        self._last = None  # the last entry read at power-up, or None

    def last(self):
        """The last whole entry of the file (a torn one after it is not counted), b"" when there is none."""
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError:
            return b""
        whole = len(data) // layout.CHECKPOINT_SIZE
        if not whole:
            return b""
        return data[(whole - 1) * layout.CHECKPOINT_SIZE:whole * layout.CHECKPOINT_SIZE]

    def watch(self):
        """Read before the journal's recovery: [segment, seq, None, None] of the last entry, whose last items the
        recovery fills: the chain value it finds there, the last segment (Journal.recover); None without an entry."""
        entry = self._last = self.last()
        if len(entry) != layout.CHECKPOINT_SIZE:
            return None
        fields = struct.unpack_from(layout.CHECKPOINT, entry, 0)
        return [fields[4], fields[5], None, None]

    def rolled_back(self, journal, watch):
        """After recovery: whether the journal was cut, deleted or put back since the last checkpoint. The element's
        counter must be the last entry's (a power cut between its increment and the entry's write leaves it one
        above: a rollback too, the safe side), the entry intact, and the journal must reach the entry's end with its
        chain value when the recovery saw it. No entry while the counter is above 0: the journal was deleted."""
        try:
            if self.element is None:
                raise OSError(19)
            counter = self.element.counter(_COUNTER)
        except OSError:
            print("checkpoints: no secure element answers: the journal's end cannot be checked")
            return True
        entry = self._last
        if not entry:
            return counter > 0
        if crc32(entry) != layout.CRC_RESIDUE:
            return True  # an entry edited by hand; a torn append is never whole
        fields = struct.unpack_from(layout.CHECKPOINT, entry, 0)
        if fields[0] != layout.CHECKPOINT_VERSION or fields[3] != counter:
            return True
        if fields[4] > watch[3] or fields[5] > journal.seq:
            return True
        return watch[2] is not None and watch[2] != fields[6]

    def booted(self, shell, cut):
        """After the power-up's records: its checkpoint, a recovery's when it cut a torn tail."""
        self.write(shell.journal, layout.CHECKPOINT_RECOVERY if cut else layout.CHECKPOINT_BOOT)

    def stepped(self, shell, event, in_coup, alarms):
        """After a step that wrote records (in_coup and alarms: the controller's before it): a checkpoint when it
        raised an alarm or a fault (the dealing stops), opened or closed a séance, or ended a coup; never in a coup
        that deals on, so never on a card's path (a signature takes up to 115 ms on the element)."""
        ctl = shell.ctl
        if ctl.alarms & ~alarms:
            self.write(shell.journal, layout.CHECKPOINT_ALARM)
        elif event == EV_SEANCE or event == EV_SEANCE_CLOSE:
            self.write(shell.journal, layout.CHECKPOINT_SEANCE)
        elif in_coup and not ctl.in_coup:
            self.write(shell.journal, layout.CHECKPOINT_COUP_END)

    def write(self, journal, reason):
        """A new checkpoint at the journal's end, once its records are durable: the counter counted up first, then
        the entry appended and closed (durable on littlefs). Not written when the journal cannot be; a failure of
        the element or the file is not the shoe's to stop on (the gate is locked between coups): the next
        power-up's check decides, and a counter ahead of the file is a rollback fault there."""
        if journal.broken:
            return
        try:
            self.append(reason, journal.segment, journal.seq, journal.chain)
        except OSError as e:
            print("checkpoints: not written:", e)

    def begin(self, sabot):
        """The first checkpoint of a journal begun empty (the old one kept aside, firmware/remote.py): segment 0,
        seq 0, the chain of nothing, so that the next power-up finds its journal legitimately new."""
        self.sabot = sabot
        try:
            os.mkdir(self.folder)
        except OSError:
            pass  # there already
        self.append(layout.CHECKPOINT_BEGUN, 0, 0, bytes(layout.CHAIN_SIZE))

    def append(self, reason, segment, seq, chain):
        element = self.element
        if element is None:
            raise OSError(19)
        counter = element.increment(_COUNTER)
        entry = bytearray(layout.CHECKPOINT_SIZE)
        struct.pack_into(layout.CHECKPOINT, entry, 0, layout.CHECKPOINT_VERSION, reason, self.sabot, counter,
                         segment, seq, chain)
        digest = sha256(layout.CHECKPOINT_LABEL)
        digest.update(memoryview(entry)[:layout.CHECKPOINT_SIGNED])
        entry[layout.CHECKPOINT_SIGNATURE_AT:layout.CHECKPOINT_CRC_AT] = element.sign(digest.digest())
        struct.pack_into("<I", entry, layout.CHECKPOINT_CRC_AT, crc32(memoryview(entry)[:layout.CHECKPOINT_CRC_AT]))
        with open(self.path, "ab") as f:
            f.write(entry)
