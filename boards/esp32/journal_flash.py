"""The raw flash partition of the journal's write-ahead ring on the ESP32 (docs/journal-format.md): a data partition
labelled `sabot_ring` in the image's partition table (512 KB: 128 sectors of 4 KB; boards/esp32/partitions.csv).
Without one the journal goes straight to its files on littlefs, as before the ring."""

_LABEL = "sabot_ring"


def partition():
    """The ring's block device, or None when the image's partition table has none."""
    import esp32

    found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label=_LABEL)
    return found[0] if found else None
