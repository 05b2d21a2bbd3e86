"""Progress on long work, for people: a bar on stderr when it is a terminal (tqdm), nothing otherwise or with
--quiet, so that pipes and logs get the results alone."""

import sys

from tqdm import tqdm

QUIET = False  # set by the command line's --quiet


def bar(total, what, unit="B"):
    """A progress bar over total units of work (bytes by default), or a silent one."""
    return tqdm(total=total, desc=what, unit=unit, unit_scale=unit == "B", leave=False, file=sys.stderr,
                disable=QUIET or not sys.stderr.isatty(), dynamic_ncols=True)


def over_segments(segments, items, what):
    """items, one a segment in order (Reader.picked, Reader.scanned), counted as the segments' bytes; every
    item of items, to its end (the reader's last checks run there)."""
    sizes = iter([len(s.data) for s in segments])
    with bar(sum(len(s.data) for s in segments), what) as shown:
        for item in items:
            yield item
            shown.update(next(sizes, 0))


def line(text):
    """One line of progress on stderr for work that goes step by step (sabot nuit: a line a shoe), a terminal's
    or a log's (a night run by cron keeps them); nothing with --quiet."""
    if not QUIET:
        print(text, file=sys.stderr, flush=True)
