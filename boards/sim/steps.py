"""A checked scenario as compact bytes, read back step by step: the runner checks the file with boards.sim.scenario,
keeps these bytes (a few hundred for a whole shoe), and lets the checker's code go before the shoe runs, so a
65 KB heap holds the firmware and the shoe rather than the parser's messages (H-SIM). The encoder is the checker's
(boards.sim.scenario.compiled): only the decoder stays loaded while a shoe runs.

A step: its command's index in NAMES, its line, then a and b + 1 as unsigned varints; shoe_cards's a is its
count of cards and their codes, a byte each.
"""

NAMES = ("draw", "burn", "force", "no_more_bets", "coup_end", "double", "jam", "power_cut", "power_on",
         "clear_alarm", "seance_close", "game", "shoe_seed", "shoe_cards", "wait", "stand", "reader", "seance",
         "candidate", "adjudicate")
_CARDS = 13  # NAMES.index("shoe_cards")


def decode(data):
    """Yield the steps (line, command, a, b) encoded in data, in order."""
    at = 0
    end = len(data)
    while at < end:
        index = data[at]
        at += 1
        line, at = _get(data, at)
        if index == _CARDS:
            count, at = _get(data, at)
            a = data[at:at + count]
            at += count
        else:
            a, at = _get(data, at)
        b, at = _get(data, at)
        yield line, NAMES[index], a, b - 1


def _get(data, at):
    n = shift = 0
    while True:
        byte = data[at]
        at += 1
        n |= (byte & 0x7F) << shift
        if byte < 0x80:
            return n, at
        shift += 7
