"""@covers("S-LOCK", ...): the requirement IDs a test covers, read by pytest (marker `req`) and by the
MicroPython runner alike, so the same test file runs on both runtimes."""

try:
    import pytest
except ImportError:  # MicroPython: functions take no attributes, so the runner reads this table.
    pytest = None

COVERED = {}


def covers(*ids):
    def mark(test):
        COVERED[test.__name__] = ids
        return pytest.mark.req(*ids)(test) if pytest else test

    return mark
