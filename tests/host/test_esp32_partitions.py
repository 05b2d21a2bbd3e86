"""boards/esp32/partitions.csv: the partition table an ESP32 image needs for the journal's write-ahead ring, the
raw data partition boards/esp32/journal_flash.py finds by its label; without it the journal waits on littlefs
erases (issue 15)."""

import csv
import re

import pytest

from tests.conftest import ROOT

TABLE = ROOT / "boards" / "esp32" / "partitions.csv"
FLASH = 4 * 1024 * 1024  # the ESP32-WROOM-32E's (boards/esp32/README.md)
SECTOR = 4096
APP_ALIGN = 0x10000
FIRST = 0x9000  # after the bootloader and the partition table at 0x8000


def _rows():
    lines = [line for line in TABLE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return [[cell.strip() for cell in row][:5] for row in csv.reader(lines)]


@pytest.mark.req("J-DURABLE")
def test_the_esp32_table_holds_the_ring_partition_journal_flash_looks_for():
    rows = {row[0]: row for row in _rows()}
    label = re.search(r'_LABEL = "(\w+)"', (ROOT / "boards" / "esp32" / "journal_flash.py").read_text()).group(1)
    ring = rows[label]
    assert ring[1] == "data" and int(ring[4], 0) == 128 * SECTOR  # 128 sectors, as the bench's life figure has
    assert rows["vfs"][1] == "data" and rows["factory"][1] == "app"  # MicroPython's littlefs and its image


@pytest.mark.req("J-DURABLE")
def test_the_esp32_partitions_are_aligned_and_fit_the_flash_without_overlapping():
    end = FIRST
    for name, kind, _, offset, size in _rows():
        offset, size = int(offset, 0), int(size, 0)
        assert offset >= end, name  # in order, none over the one before
        assert offset % (APP_ALIGN if kind == "app" else SECTOR) == 0 and size % SECTOR == 0, name
        end = offset + size
    assert end <= FLASH
