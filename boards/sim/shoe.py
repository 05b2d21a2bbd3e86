"""The physical shoe: a stack of cards behind a gate, and a sensor at the mouth that sees what passes."""

from firmware import games
from firmware.cards import STOP

_DOUBLE_GAP_MS = 5  # the stuck second card crosses the sensor this long after the first


def shuffled_shoe(game, seed):
    """A full shoe of the game's decks in a seeded order, the stop card before the last ones (Article 58).

    xorshift32 rather than random, so CPython and MicroPython deal the very same shoe. One buffer, the stop card
    placed in it: the sim's run fits a 65 KB heap only when loading a shoe needs no second (H-SIM).
    """
    row = games.GAMES[game]
    count = row[games.DECKS] * 52
    stack = bytearray(count + 1)
    for i in range(count):
        stack[i] = i % 52
    state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1
    for i in range(count - 1, 0, -1):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        j = state % (i + 1)
        stack[i], stack[j] = stack[j], stack[i]
    after = count - row[games.STOP_BEFORE]
    for i in range(count, after, -1):
        stack[i] = stack[i - 1]
    stack[after] = STOP
    return stack


def with_stop_card(cards, after):
    """The stack (a bytearray: one byte a card) with the stop card right after its first `after` cards."""
    stack = bytearray(len(cards) + 1)
    for i in range(len(cards)):  # no slice copies: a whole shoe's run fits a 65 KB heap (H-SIM)
        stack[i if i < after else i + 1] = cards[i]
    stack[after] = STOP
    return stack


class PhysicalShoe:
    """What a hand at the mouth can get out: one card through an open gate, any card by force."""

    def __init__(self, gate, clock, sensor):
        self.gate = gate
        self.clock = clock
        self.sensor = sensor  # called with each card that crosses the mouth
        self.stack = []
        self.next = 0
        self.double = False
        self.jam = False
        self.out = 0

    def load(self, cards):
        self.stack = cards
        self.next = 0

    def remaining(self):
        return len(self.stack) - self.next

    def pull(self):
        """The dealer pulls at the mouth; returns how many cards came out."""
        if not self.gate.is_open:
            return 0
        if self.jam:
            self.jam = False
            return 0
        count = 2 if self.double else 1
        self.double = False
        for i in range(count):
            if i:
                self.clock.now += _DOUBLE_GAP_MS
            if not self._leave():
                return i
        return count

    def force(self):
        """A card pulled past the gate, open or not."""
        return self._leave()

    def _leave(self):
        if self.next >= len(self.stack):
            return False
        card = self.stack[self.next]
        self.next += 1
        self.out += 1
        self.sensor(card)
        return True
