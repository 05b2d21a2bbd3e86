"""Scenario files: one command per line, '#' comments; a faulty file is refused whole, before anything runs.

docs/scenarios.md lists the vocabulary.
"""

from firmware import cards, games
from firmware.compat import const
from firmware.records import TABLE_MAX, TABLE_MIN, pack_seance

_COUNTED = ("draw", "burn", "force")  # optional count N, default 1
_PLAIN = ("no_more_bets", "coup_end", "double", "jam", "power_cut", "power_on", "clear_alarm", "seance_close",
          "adjudicate")
_NEED_SHOE = _COUNTED + ("no_more_bets", "coup_end", "double", "jam", "stand")
_HANDS = (("ponte", "banque"), ("tableau1", "tableau2", "banque"))  # chemin de fer, deux tableaux
_MAX_COUNT = 10000
_MAX_SEED = 1 << 30
_MAX_WAIT_MS = 20 * 365 * 86400 * 1000  # twenty years: from the sim's 2026, the wall clock stays before 2054
_MAX_LINE = const(4096)  # characters: a whole shoe's stack is under 1000
_DIGITS = "0123456789"


class ScenarioError(Exception):
    pass


def _number(text, what, low, high):
    """A number in ASCII digits from low to high (a long int on 32-bit VMs: wait). Not str.isdigit(): it lets in
    other scripts' digits, which CPython's int() reads and MicroPython's refuses."""
    plain = len(text) > 0
    for c in text:
        plain = plain and c in _DIGITS
    digits = text.lstrip("0") or "0"
    if plain and (len(digits) > len(str(high)) or int(digits) > high):
        raise ValueError("%s is over %d" % (what, high))
    if not plain or int(digits) < low:
        raise ValueError("%s must be a whole number of at least %d, not %r" % (what, low, text))
    return int(digits)


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


def _shoe(words, game):
    found = _options(words, ("seed", "cards", "stop_after"))
    if "seed" in found:
        if len(found) > 1:
            raise ValueError("shoe seed=N takes no other option")
        return "shoe_seed", _number(found["seed"], "seed", 0, _MAX_SEED), 0
    if "cards" not in found:
        raise ValueError("shoe needs seed=N or cards=AS,TH,... [stop_after=K]")
    size = games.GAMES[game][games.DECKS] * 52
    if len(found["cards"]) > 3 * size:  # before the split: a line of a million cards never fills the heap
        raise ValueError("a %s shoe holds at most %d cards" % (games.GAMES[game][games.NAME], size))
    stack = []
    for text in found["cards"].split(","):
        card = cards.parse(text)
        if card >= cards.STOP:
            raise ValueError("%s is not a playing card (place the stop card with stop_after=K)" % text)
        stack.append(card)
    if len(stack) > size:
        raise ValueError("a %s shoe holds at most %d cards" % (games.GAMES[game][games.NAME], size))
    stop_after = -1
    if "stop_after" in found:
        stop_after = _number(found["stop_after"], "stop_after", 0, size)
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
        return _shoe(rest, game)
    if name == "wait":
        if len(rest) != 1:
            raise ValueError("wait needs a time in milliseconds")
        return name, _number(rest[0], "wait", 0, _MAX_WAIT_MS), 0
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
        found = _options(rest, ("table", "game"))
        table = _number(found.get("table", "1"), "table", TABLE_MIN, TABLE_MAX)
        return name, pack_seance(table, games.by_name(found["game"]) if "game" in found else 0, 0), 0
    if name == "candidate":
        if len(rest) != 1:
            raise ValueError("candidate needs one player's number")
        return name, _number(rest[0], "the candidate", 1, 255), 0
    raise ValueError("unknown command %r" % name)


def _words(line):
    """The words before a comment, in ASCII: str.split() splits ASCII alike on CPython and MicroPython, other
    characters not (a no-break space, an information separator)."""
    if len(line) > _MAX_LINE:
        raise ValueError("the line is longer than %d characters" % _MAX_LINE)
    text = line.split("#", 1)[0]
    for c in text:
        if (c < " " and c not in "\t\r\n") or c > "~":
            raise ValueError("U+%04X is not allowed outside a comment: ASCII words, spaces and tabs" % ord(c))
    return text.split()


def commands(lines, path="<scenario>"):
    """Yield (line, command, a, b) for each command of an iterable of lines; ScenarioError('path:line: what
    is wrong') at the first fault. Streams, so a long scenario never has to fit in a small heap."""
    loaded = False
    number = 0
    game = games.CHEMIN_DE_FER
    for number, line in enumerate(lines, 1):
        try:
            words = _words(line)
            if not words:
                continue
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
    """The scenario checked whole and kept as compact bytes (boards.sim.steps), ScenarioError as commands(). The
    encoder is here, with the checker the runner lets go: only the decoder stays loaded while a shoe runs."""
    from boards.sim.steps import NAMES

    out = bytearray()
    for line, name, a, b in commands(lines, path):
        out.append(NAMES.index(name))
        _put(out, line)
        if name == "shoe_cards":
            _put(out, len(a))
            out.extend(bytes(a))
        else:
            _put(out, int(a))
        _put(out, b + 1)
    return out


def _put(out, n):
    """n as an unsigned varint."""
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
