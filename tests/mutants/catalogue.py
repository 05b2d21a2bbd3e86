"""Hand-made mutants of the controller and its tableau, each a rule broken as a faulty or dishonest build would
break it: (name, file, text, replacement). CI plays each on the bundled and a few random scenarios and requires
that it changes a journal and that verify flags it (tests/host/test_mutants.py); `make mutants` adds them to the
generated ones."""

MUTANTS = (
    ("the ponte stands on 4 (a wrong cell of the tableau)", "firmware/tableau.py",
     'PONTE = b"DDDDDOSS"', 'PONTE = b"DDDDSOSS"'),
    ("the banker on 3 draws against an 8", "firmware/tableau.py",
     'b"DDDDDDDDSOD"  # 3', 'b"DDDDDDDDDOD"  # 3'),
    ("the banker on 2 stands when the ponte stood", "firmware/tableau.py",
     'b"DDDDDDDDDDD"  # 2', 'b"DDDDDDDDDDS"  # 2'),
    ("a natural does not end the coup", "firmware/tableau.py",
     "            if self._natural(0) or self._natural(1):\n                return NONE",
     "            if self._natural(0) and self._natural(1):\n                return NONE"),
    ("burns allowed inside a coup", "firmware/controller.py",
     "        if kind == REL_BURN and self.in_coup:\n            return self._refuse(ev.REF_IN_COUP)  # S-BURN",
     "        if False:\n            return self._refuse(ev.REF_IN_COUP)  # S-BURN"),
    ("a coup opens under an alarm", "firmware/controller.py",
     "        if self.alarms:\n            return self._refuse(ev.REF_ALARM)\n        if self.phase == IDLE:\n"
     "            return self._refuse(ev.REF_NO_SHOE)\n        if self.phase == CLOSED:\n"
     "            return self._refuse(ev.REF_CLOSED)  # S-STOP",
     "        if self.phase == IDLE:\n            return self._refuse(ev.REF_NO_SHOE)\n"
     "        if self.phase == CLOSED:\n"
     "            return self._refuse(ev.REF_CLOSED)  # S-STOP"),
    ("the gate opens under an alarm", "firmware/controller.py",
     "        if self.alarms:\n            return self._refuse(ev.REF_ALARM)\n        if self.phase == IDLE:\n"
     "            return self._refuse(ev.REF_NO_SHOE)\n        if self.phase == CLOSED:\n"
     "            return self._refuse(ev.REF_CLOSED)\n        if kind",
     "        if self.phase == IDLE:\n            return self._refuse(ev.REF_NO_SHOE)\n"
     "        if self.phase == CLOSED:\n"
     "            return self._refuse(ev.REF_CLOSED)\n        if kind"),
    ("a double-fed card is dealt", "firmware/controller.py",
     "self._emit(R_CARD, card, STOP_CARD if card == STOP else BURNED, DOUBLE_FEED, 0)",
     "self._emit(R_CARD, card, STOP_CARD if card == STOP else DEALT, DOUBLE_FEED, 0)"),
    ("a forced card raises no alarm", "firmware/controller.py",
     "            self._emit(R_CARD, card, STOP_CARD if card == STOP else BURNED, FORCED, 0)\n"
     "            self._raise(ALARM_FORCED)",
     "            self._emit(R_CARD, card, STOP_CARD if card == STOP else BURNED, FORCED, 0)"),
    ("positions skip one", "firmware/controller.py",
     "        if rtype == R_CARD:\n            position += 1",
     "        if rtype == R_CARD:\n            position += 2"),
    ("the shoe stays open after the stop card's coup", "firmware/controller.py",
     "        if self.stop_seen:\n            self._emit(R_CLOSED, 0, 0, 0, 0)  # S-STOP: the coup in progress",
     "        if False:\n            self._emit(R_CLOSED, 0, 0, 0, 0)  # S-STOP: the coup in progress"),
    ("no recovery record for a release under way at a power cut", "firmware/controller.py",
     "        if torn or uncertain:", "        if torn:"),
    ("one card more than the coup's maximum", "firmware/controller.py",
     "elif self.coup_cards >= games.GAMES[self.game][games.COUP_MAX]:",
     "elif self.coup_cards > games.GAMES[self.game][games.COUP_MAX]:"),
    ("the misplaced stop card goes unrecorded", "firmware/controller.py",
     "                self._emit(R_FINDING, STOP, 0, 0, F_STOP_POSITION)  # S-STOPPOS", "                pass"),
    ("a stand accepted on a cell the tableau does not leave to choice", "firmware/controller.py",
     "                or hands.stood[hand] or hands.rule(hand) != OPTIONAL):",
     "                or hands.stood[hand]):"),
    ("the result counts the totals", "firmware/controller.py",
     "self._emit(R_RESULT, pack_counts(hands.counts),", "self._emit(R_RESULT, pack_counts(hands.totals),"),
    ("a jam takes ten times longer", "firmware/controller.py",
     "JAM_MS = const(3000)", "JAM_MS = const(30000)"),
    ("a fault replaces the alarm raised before it", "firmware/controller.py",
     "            self.alarms |= 1 << code - 1  # a fault never replaces an alarm",
     "            self.alarms = 1 << code - 1  # a fault never replaces an alarm"),
)
