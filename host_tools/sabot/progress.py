"""Progress on long work, for people: a bar on stderr when it is a terminal (tqdm), nothing otherwise or with
--quiet, so that pipes and logs get the results alone."""

import contextlib
import sys
import threading

from tqdm import tqdm

QUIET = False  # set by the command line's --quiet
AFTER = 2.0  # seconds of work without a word after which waiting() speaks


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


@contextlib.contextmanager
def waiting(what, after=None):
    """Work of no known length (a shoe restarting, an emulated Pico starting or hashing its flash): once it has
    lasted `after` seconds (AFTER), a line on a terminal's stderr that says what it waits for and for how long,
    until it ends; nothing otherwise or with --quiet."""
    global _WAITING
    if QUIET or _WAITING or not sys.stderr.isatty():  # one line at a time: the outer wait's
        yield
        return
    _WAITING = True
    done = threading.Event()

    def tell():
        if done.wait(AFTER if after is None else after):
            return
        with tqdm(desc=what, bar_format="{desc} : {elapsed}", leave=False, file=sys.stderr,
                  dynamic_ncols=True) as shown:
            while not done.wait(0.5):
                shown.refresh()

    teller = threading.Thread(target=tell, daemon=True)
    teller.start()
    try:
        yield
    finally:
        done.set()
        teller.join()
        _WAITING = False


_WAITING = False
# The commands that wait on a shoe with no bar of their own (an emulated Pico restarts in 15-20 s), as cli.main
# names them: (command, action or None).
_ON_A_SHOE = {("key", "enrol"), ("key", "code"), ("number", "set"), ("clock", "set"), ("seance", None),
              ("firmware", "verify"), ("element", "provision"), ("deploy", None)}


def waiting_for(args):
    """waiting() for a command of _ON_A_SHOE, as it names itself; nothing for the others."""
    action = getattr(args, "action", None) if args.command != "seance" else None
    words = {"number": "set", "clock": "set"}.get(args.command, action)
    if (args.command, words) not in _ON_A_SHOE:
        return contextlib.nullcontext()
    return waiting("sabot %s%s : en attente du sabot" % (args.command, " " + words if words else ""))
