"""Which build wrote each segment of a journal, read from its header's firmware name (docs/journal-format.md):
a release by its manifest's digest, a production image ("sabot VERSION BOARD image", a production Pico's), a
development build ("sabot VERSION BOARD dev": code from the filesystem, mpremote's REPL open). Format 4's headers held
16 bytes, "sabot 0.3.0 rpi_" for both of a Pico's images: such a journal cannot say which (H-FIRMWARE)."""

from sabot.journalfile import Finding

RELEASE = "release"  # a manifest's digest
IMAGE = "image"  # a production image: its code frozen, no REPL
DEVELOPMENT = "dev"  # a development build
EITHER = "either"  # format 4's cut name of a Pico: the production image or the development one, unsaid
PRODUCTION = (RELEASE, IMAGE)


def named(identity):
    """(kind, version, board) of a header's firmware bytes; version and board None for a release's digest."""
    text = identity.rstrip(b"\0")
    if not (text and all(32 <= b < 127 for b in text)):  # firmware/version.py's names are ASCII, a digest is not
        return RELEASE, None, None
    words = text.decode().split(" ")
    if len(words) == 4 and words[0] == "sabot" and words[3] in (IMAGE, DEVELOPMENT):
        return words[3], words[1], words[2]
    if len(words) == 3 and words[0] == "sabot":  # format 4: "sabot VERSION BOARD", the board's name cut at 16 bytes
        return (EITHER if words[2] == "rpi_" else DEVELOPMENT), words[1], words[2]
    return DEVELOPMENT, None, text.decode()


def spans(segments):
    """[(firmware bytes, first segment, last segment)]: the journal's runs of segments under one build, in order."""
    runs = []
    for s in segments:
        if runs and runs[-1][0] == s.firmware:
            runs[-1][2] = s
        else:
            runs.append([s.firmware, s, s])
    return [tuple(run) for run in runs]


def development_findings(segments):
    """An H-FIRMWARE finding for each run of segments a development build wrote after a production build's: the
    development image loaded over the approved one (as BOOTSEL lets anyone with the board in hand), whose code can
    read and write the flash and drive the secure element. A factory's development boots before the first
    production segment are no finding: the shoe was not yet in service."""
    found = []
    seen = False
    for identity, first, last in spans(segments):
        kind, version, board = named(identity)
        if kind in PRODUCTION:
            seen = True
        elif kind == DEVELOPMENT and seen:
            name = identity.rstrip(b"\0").decode()
            where = first.path.name if first is last else "%s to %s" % (first.path.name, last.path.name)
            found.append(Finding("H-FIRMWARE", first.seq_before + 1, "%s written by a development build (%s) after "
                                 "the approved image: its code, not the approved one, ran the shoe, with its flash and "
                                 "its secure element in reach" % (where, name)))
    return found
