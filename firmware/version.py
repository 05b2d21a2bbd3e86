"""The firmware's version, and the 16 bytes that name a build in every journal segment header."""

VERSION = "0.3.0"


def development_identity(board):
    """A development build's name: a release's is identity.release_identity, from its manifest."""
    text = ("sabot %s %s" % (VERSION, board)).encode()[:16]
    return text + bytes(16 - len(text))
