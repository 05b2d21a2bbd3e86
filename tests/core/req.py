"""@covers("S-LOCK", ...): the requirement IDs a test covers, read by pytest (marker `req`) and by the
MicroPython runner alike, so the same test file runs on both runtimes. @known_issue(N, why): a test that shows a
bug an open issue lists, expected to fail until it is fixed (pytest's strict xfail, on both runtimes)."""

try:
    import pytest
except ImportError:  # MicroPython: functions take no attributes, so the runner reads these tables.
    pytest = None

COVERED = {}
KNOWN = {}


def covers(*ids):
    def mark(test):
        COVERED[test.__name__] = ids
        return pytest.mark.req(*ids)(test) if pytest else test

    return mark


def known_issue(number, why):
    def mark(test):
        KNOWN[test.__name__] = "issue %d: %s" % (number, why)
        return pytest.mark.xfail(strict=True, reason=KNOWN[test.__name__])(test) if pytest else test

    return mark
