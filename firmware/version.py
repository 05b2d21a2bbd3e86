"""The firmware's version, and the 32 bytes that name a build in every journal segment header (format 5)."""

VERSION = "0.3.0"
DEVELOPMENT = "dev"  # a development build: its code is whatever the filesystem holds (mpremote's REPL open)
IMAGE = "image"  # a production image: its code frozen in it, no REPL (a production Pico's)


def development_identity(board, kind=DEVELOPMENT):
    """A build's name when it has no release manifest: "sabot VERSION BOARD KIND", zero-padded to 32 bytes; kind
    IMAGE for a production image, which says so, where a development build says DEVELOPMENT. A release's identity is
    identity.release_identity, its manifest's digest."""
    text = ("sabot %s %s %s" % (VERSION, board, kind)).encode()
    if len(text) > 32:
        raise ValueError("a build's name holds 32 bytes")
    return text + bytes(32 - len(text))
