"""The journal's head kept outside its folder: the last sequence number the shoe wrote, in a small file replaced
whole by a rename after each step that wrote records between coups or under an alarm (never while a coup deals:
the rename costs an erase). Sequence numbers only grow, so a journal that ends before
it at boot was cut or rolled back (J-TAMPER): the shell raises FAULT_ROLLBACK. Neither the DS3231 (it has no
battery-backed memory) nor the RP2040 or the ESP32 keeps anything across a power cut: a file on the same flash
it is; docs/keys.md says what a technician with the REPL can still do, and what catches it (the receipts)."""

import os
import struct


class FileHead:
    def __init__(self, path):
        self.path = path
        self._buf = bytearray(4)
        self._temporary = path + ".tmp"

    def behind(self, journal):
        """Whether the journal recovered ends before the head last written; no head beside a journal that holds
        records (the file deleted) is the same."""
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError:
            return journal.seq > 0
        return len(data) != 4 or journal.seq < struct.unpack("<I", data)[0]

    def write(self, journal):
        struct.pack_into("<I", self._buf, 0, journal.seq)
        with open(self._temporary, "wb") as f:
            f.write(self._buf)
        os.rename(self._temporary, self.path)  # atomic on littlefs and POSIX: the old head or the new, whole
