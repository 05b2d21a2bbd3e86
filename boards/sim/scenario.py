"""Scenario files: one command per line, '#' comments; a faulty file is refused whole, before anything runs.

docs/scenarios.md lists the vocabulary.
"""

from firmware import cards, games
from firmware.records import TABLE_MAX, TABLE_MIN

_COUNTED = ("draw", "burn", "force")  # optional count N, default 1
_PLAIN = ("no_more_bets", "coup_end", "double", "jam", "power_cut", "power_on", "clear_alarm", "seance_close")
_NEED_SHOE = _COUNTED + ("no_more_bets", "coup_end", "double", "jam", "stand")
_HANDS = (("ponte", "banque"), ("tableau1", "tableau2", "banque"))  # chemin de fer, deux tableaux
_MAX_COUNT = 10000
_MAX_SEED = 1 << 30


class ScenarioError(Exception):
    pass


def _number(text, what, low=0, high=None):
    """A decimal number of at least low and, when high is given, at most high (a long int on 32-bit VMs: wait)."""
    if not text.isdigit():
        raise ValueError("%s must be a whole number of at least %d, not %r" % (what, low, text))
    value = int(text)
    if value < low:
        raise ValueError("%s must be a whole number of at least %d, not %r" % (what, low, text))
    if high is not None and value > high:
        raise ValueError("%s %s is over %d" % (what, text, high))
    return value


def _options(words, allowed):
    found = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in allowed:
            raise ValueError("expected %s, not %r" % (" or ".join(k + "=..." for k in allowed), word))
        if key in found:
            raise ValueError("%s= given twice" % key)
        found[key] = value
    return found


def _shoe(words):
    found = _options(words, ("seed", "cards", "stop_after"))
    if "seed" in found:
        if len(found) > 1:
            raise ValueError("shoe seed=N takes no other option")
        return "shoe_seed", _number(found["seed"], "seed", 0, _MAX_SEED), 0
    if "cards" not in found:
        raise ValueError("shoe needs seed=N or cards=AS,TH,... [stop_after=K]")
    stack = []
    for text in found["cards"].split(","):
        card = cards.parse(text)
        if card >= cards.STOP:
            raise ValueError("%s is not a playing card (place the stop card with stop_after=K)" % text)
        stack.append(card)
    stop_after = -1
    if "stop_after" in found:
        stop_after = _number(found["stop_after"], "stop_after")
        if stop_after > len(stack):
            raise ValueError("stop_after=%d is past the %d cards given" % (stop_after, len(stack)))
    return "shoe_cards", stack, stop_after


def _command(words, game):
    name, rest = words[0], words[1:]
    if name in _COUNTED:
        if len(rest) > 1:
            raise ValueError("%s takes at most one count" % name)
        return name, _number(rest[0], "the count", 1, _MAX_COUNT) if rest else 1, 0
    if name in _PLAIN:
        if rest:
            raise ValueError("%s takes no argument" % name)
        return name, 0, 0
    if name == "game":
        if len(rest) != 1:
            raise ValueError("game needs one name")
        return name, games.by_name(rest[0]), 0
    if name == "shoe":
        return _shoe(rest)
    if name == "wait":
        if len(rest) != 1:
            raise ValueError("wait needs a time in milliseconds")
        return name, _number(rest[0], "wait"), 0
    if name == "stand":
        hands = _HANDS[game != games.CHEMIN_DE_FER]
        if len(rest) != 1 or rest[0] not in hands:
            raise ValueError("stand needs one hand of %s: %s" % (games.GAMES[game][games.NAME], " ".join(hands)))
        return name, hands.index(rest[0]), 0
    if name == "reader":
        if rest not in (["on"], ["off"]):
            raise ValueError("reader needs on or off")
        return name, rest[0] == "on", 0
    if name == "seance":
        return name, _number(_options(rest, ("table",)).get("table", "1"), "table", TABLE_MIN, TABLE_MAX), 0
    raise ValueError("unknown command %r" % name)


def commands(lines, path="<scenario>"):
    """Yield (line, command, a, b) for each command of an iterable of lines; ScenarioError('path:line: what
    is wrong') at the first fault. Streams, so a long scenario never has to fit in a small heap."""
    loaded = False
    number = 0
    game = games.CHEMIN_DE_FER
    for number, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            command = _command(words, game)
            if command[0] == "game":
                game = command[1]
            if command[0] in _NEED_SHOE and not loaded:
                raise ValueError("%s before any shoe is loaded (add a 'shoe seed=N' line first)" % words[0])
        except ValueError as e:
            raise ScenarioError("%s:%d: %s" % (path, number, e.args[0])) from None
        loaded = loaded or command[0].startswith("shoe")
        yield (number,) + command
    if not loaded:
        raise ScenarioError("%s:%d: the scenario loads no shoe (add a 'shoe seed=N' line)" % (path, max(number, 1)))


def parse(text, path="<scenario>"):
    """All the commands of a scenario's text, checked; lines counted as a file's lines are."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return list(commands(lines, path))


def compiled(lines, path="<scenario>"):
    """The scenario checked whole and kept as compact bytes (boards.sim.steps), ScenarioError as commands()."""
    from boards.sim.steps import encode

    out = bytearray()
    for step in commands(lines, path):
        encode(out, step)
    return out
