"""The argparse types of the `sabot` commands' options, shared by cli.py and the subcommands' modules: a number in
its bounds, a line of free text without control characters. A value out of them is argparse's error: one line,
exit 2 (cli.Parser)."""

import argparse
import math
import unicodedata

SEANCE_MAX = 65535  # a journal's séance numbers are 16 bits


def number(low, high, what, kind=int):
    """An integer (or, kind=float, a finite decimal number) from low to high, checked before anything is done."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError("%s is not a %s from %s to %s" % (text, what, low, high))
        return value
    return parse


def text(what):
    """A line of free text (a casino's name, as a declaration or a report prints it): no control character, so that
    nothing it holds starts another line of what is printed or reads as a terminal's command."""
    def parse(value):
        bad = [c for c in value if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
        if bad:
            raise argparse.ArgumentTypeError("%r holds a control character (U+%04X): %s is one line of text" % (
                value, ord(bad[0]), what))
        if not value.strip():
            raise argparse.ArgumentTypeError("empty: give %s, or leave the option out" % what)
        return value
    return parse


ESTABLISHMENT = text("the casino's name")  # --establishment: as a declaration, a report or a carnet prints it
