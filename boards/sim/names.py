"""The sim's words for the controller's numbers, for its timeline and trace; indexed by the constants' values.
The journal's identifiers (record types, dispositions, conditions, releases) are firmware/record_names.py's."""

EVENTS = ("", "power_up", "seance", "load", "no_more_bets", "coup_end", "burn", "draw", "card", "tick",
          "clear_alarm", "fault", "stand", "firmware", "seance_close")
COMMANDS = ("", "gate_open", "gate_close", "indicator", "buzzer")
INDICATOR = ("locked", "dealing", "alarm", "closed")
ALARMS = ("", "forced extraction", "double feed", "jam", "journal cannot be written", "journal flash nearly full",
          "interrupt events lost", "firmware differs from the approved release",
          "journal shorter than the head kept beside it (rollback)", "development key: this shoe has no key of its own")
FINDINGS = ("", "stop card misplaced (S-STOPPOS)", "identity over the deck count (S-COUNT)",
            "coup under the game's minimum", "no stop card where it must come out (S-STOP)")
REFUSALS = ("", "no shoe loaded", "shoe locked", "shoe closed after the stop card", "alarm raised",
            "a release is under way", "a coup is under way", "no coup under way",
            "two tailles already in this séance", "no alarm to clear", "unknown game",
            "the tableau leaves this hand no choice",
            "a firmware fault clears only when the approved release is deployed", "no such fault",
            "no séance open")
ENDS = ("coup end pressed", "maximum reached", "no hand may draw")
HANDS = (("ponte", "banque"), ("tableau1", "tableau2", "banque"))  # chemin de fer, deux tableaux
WINNERS = ("", "ponte", "banque", "égalité")


def result(code, hands):
    """A result record as people say it (docs/journal-format.md): each hand's total, then who won each tableau."""
    names = HANDS[hands == 3]
    text = ", ".join("%s %d" % (names[h], code >> 4 * h & 15) for h in range(hands))
    winners = [WINNERS[code >> 12 + 2 * t & 3] for t in range(hands - 1)]
    if hands == 2:
        return text + "; winner: " + winners[0]
    return text + "; tableau1: %s, tableau2: %s" % (winners[0], winners[1])
