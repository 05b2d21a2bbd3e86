"""The segment files' littlefs blocks, as the write-ahead ring's drains fill them (firmware/ring.py): beside
firmware/storage.py, apart from it so that a shoe without the ring does not load it."""

from firmware.compat import const

_POINTER = const(4)  # bytes of a littlefs block pointer


def _ones(n):
    count = 0
    while n:
        count += n & 1
        n >>= 1
    return count


def _trailing_zeros(n):
    count = 0
    while not n & 1:
        count += 1
        n >>= 1
    return count


def block_room(size, block_size):
    """Bytes a littlefs file of that size takes before its last block is full: an append that fills it leaves
    nothing for the next one to copy (littlefs copies a partial last block into a new one, an erase). A file's
    block i > 0 starts with ctz(i) + 1 pointers back (littlefs v2's CTZ skip-list, lfs_ctz_index)."""
    index = 0
    if size:
        off = size - 1
        data = block_size - 2 * _POINTER
        index = off // data
        if index:
            index = (off - _POINTER * (_ones(index - 1) + 2)) // data
            off -= data * index + _POINTER * _ones(index)
        if off + 1 < block_size:
            return block_size - off - 1
        index += 1
    return block_size - _POINTER * (_trailing_zeros(index) + 1) if index else block_size
