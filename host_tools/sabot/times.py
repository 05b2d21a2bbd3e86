"""A record's time for people: UTC for the export and for English readers, Europe/Paris with its offset to UTC
for French readers (the casinos' and the inspectors' clock), so that a time reads the same on any machine."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from firmware.layout import EPOCH_2020

PARIS = ZoneInfo("Europe/Paris")  # the IANA database: Python's zoneinfo reads the system's (Debian's tzdata)
_EPOCH = datetime.fromtimestamp(EPOCH_2020, UTC)


def moment(time_ms):
    """A record's time (milliseconds since 2020-01-01 UTC) as an aware datetime in UTC."""
    return _EPOCH + timedelta(milliseconds=time_ms)


def iso(time_ms):
    """ISO 8601 in UTC to the millisecond, as the export writes it."""
    at = moment(time_ms)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (at.microsecond // 1000)


def paris(time_ms, seconds=True):
    """'2026-11-30 09:00:00 (UTC+01:00)': the local time in Paris, and its offset, which changes in summer."""
    at = moment(time_ms).astimezone(PARIS)
    offset = at.strftime("%z")
    return "%s (UTC%s:%s)" % (at.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M"), offset[:3],
                              offset[3:])


def utc(time_ms):
    """'2026-11-30 08:00:00 UTC'."""
    return moment(time_ms).strftime("%Y-%m-%d %H:%M:%S UTC")


def said(time_ms, french, seconds=True):
    """Paris time for a French reader, UTC for others."""
    if french:
        return paris(time_ms, seconds)
    return utc(time_ms) if seconds else moment(time_ms).strftime("%Y-%m-%d %H:%M UTC")


def now_paris():
    """This workstation's time now, in Paris, its zone said: '04/12/2026 à 15:30 (heure de Paris, UTC+01:00)'."""
    at = datetime.now(PARIS)
    offset = at.strftime("%z")
    return "%s (heure de Paris, UTC%s:%s)" % (at.strftime("%d/%m/%Y à %H:%M"), offset[:3], offset[3:])
