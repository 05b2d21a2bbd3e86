"""Scenario files are refused whole, with file:line and what is wrong, before anything runs (H-SIM)."""

from boards.sim import bounds
from boards.sim.scenario import ScenarioError, parse
from firmware import cards
from tests.core.req import covers


def refusal(text):
    try:
        bounds.check(parse(text, "s.txt"), "s.txt")
    except ScenarioError as e:
        return str(e)
    return None


@covers("H-SIM")
def test_malformed_lines_are_refused_with_file_line_and_reason():
    cases = (
        ("shoe seed=1\ndraw two", "s.txt:2: the count must be a whole number of at least 1, not 'two'"),
        ("shoe seed=1\n\n# fine\ndraw 0", "s.txt:4: the count must be a whole number of at least 1, not '0'"),
        ("shoe seed=1\nshuffle", "s.txt:2: unknown command 'shuffle'"),
        ("game poker\nshoe seed=1",
         "s.txt:1: unknown game 'poker' (chemin_de_fer|deux_tableaux_limitee|deux_tableaux_ouverte)"),
        ("shoe seed=-3", "s.txt:1: seed must be a whole number of at least 0, not '-3'"),
        ("shoe seed=1\nno_more_bets now", "s.txt:2: no_more_bets takes no argument"),
        ("shoe seed=1\nwait", "s.txt:2: wait needs a time in milliseconds"),
        ("shoe seed=1 cards=AS", "s.txt:1: shoe seed=N takes no other option"),
        ("shoe", "s.txt:1: shoe needs seed=N or cards=AS,TH,... [stop_after=K]"),
        ("shoe cards=AS,2H stop_after=3", "s.txt:1: stop_after=3 is past the 2 cards given"),
        ("shoe cards=AS,STOP", "s.txt:1: STOP is not a playing card (place the stop card with stop_after=K)"),
        ("shoe deck=1", "s.txt:1: expected seed=... or cards=... or stop_after=..., not 'deck=1'"),
        ("shoe seed=1\ndraw 1 2", "s.txt:2: draw takes at most one count"),
    )
    for text, message in cases:
        assert refusal(text) == message, text


@covers("H-SIM")
def test_unknown_cards_are_named():
    assert refusal("shoe cards=AS,1H,KD") == "s.txt:1: unknown card '1H' (rank A 2-9 T J Q K, suit S H D C)"
    assert refusal("shoe cards=as") == "s.txt:1: unknown card 'as' (rank A 2-9 T J Q K, suit S H D C)"


@covers("H-SIM")
def test_a_scenario_that_loads_no_shoe_is_refused():
    no_shoe = "the scenario loads no shoe (add a 'shoe seed=N' line)"
    assert refusal("# nothing\ngame chemin_de_fer\n") == "s.txt:2: " + no_shoe
    assert refusal("") == "s.txt:1: " + no_shoe
    assert refusal("no_more_bets\nshoe seed=1") == (
        "s.txt:1: no_more_bets before any shoe is loaded (add a 'shoe seed=N' line first)")


@covers("H-SIM")
def test_the_vocabulary_parses_to_commands():
    text = "\n".join(("game deux_tableaux_ouverte  # comment", "seance table=5", "shoe seed=42",
                      "shoe cards=AS,TH,9C stop_after=2", "no_more_bets", "draw", "draw 3", "coup_end", "burn 2",
                      "force", "double", "jam", "power_cut", "power_on", "wait 250", "clear_alarm"))
    steps = parse(text)
    assert [s[1] for s in steps] == ["game", "seance", "shoe_seed", "shoe_cards", "no_more_bets", "draw", "draw",
                                     "coup_end", "burn", "force", "double", "jam", "power_cut", "power_on", "wait",
                                     "clear_alarm"]
    assert steps[0][:3] == (1, "game", 2)
    assert steps[3][2:] == ([cards.parse("AS"), cards.parse("TH"), cards.parse("9C")], 2)
    assert steps[6][2] == 3 and steps[14][2] == 250


@covers("H-SIM")
def test_card_notation_round_trips():
    for code in range(52):
        assert cards.parse(cards.name(code)) == code
    assert cards.name(cards.parse("TH")) == "TH" and cards.rank(cards.parse("KC")) == 13
    assert cards.name(cards.STOP) == "STOP" and cards.name(cards.UNKNOWN) == "??"


@covers("H-SIM")
def test_only_ascii_digits_spaces_and_tabs_count_and_every_runtime_says_so_alike():
    """CPython's str.split() and int() take a no-break space and other scripts' digits, MicroPython's do not: both
    refuse them, with the same words, and keep French in comments (issue 26)."""
    assert refusal("shoe seed=\u0663") == (
        "s.txt:1: U+0663 is not allowed outside a comment: ASCII words, spaces and tabs")
    assert refusal("shoe seed=1\ndraw \u00b2") == (
        "s.txt:2: U+00B2 is not allowed outside a comment: ASCII words, spaces and tabs")
    assert refusal("shoe\u00a0seed=1") == (
        "s.txt:1: U+00A0 is not allowed outside a comment: ASCII words, spaces and tabs")
    assert refusal("shoe seed=1\ndraw\f2") == (
        "s.txt:2: U+000C is not allowed outside a comment: ASCII words, spaces and tabs")
    steps = parse("shoe\tseed=1  # sabot chargé, séance ouverte\r\ndraw \t 2\r\n")
    assert [s[1:] for s in steps] == [("shoe_seed", 1, 0), ("draw", 2, 0)]


@covers("H-SIM")
def test_numbers_past_what_the_journal_counts_are_refused_whole():
    """A count, a wait, a stack or a scenario so large that a shoe's byte or 16-bit counter would overflow (CPython
    stopped with "byte must be in range(0, 256)", MicroPython wrapped or ran out of memory): refused (issue 26)."""
    assert refusal("shoe seed=1\nwait " + "9" * 4000) == "s.txt:2: wait is over 630720000000"
    assert refusal("shoe seed=1 # " + "x" * 4083) == "s.txt:1: the line is longer than 4096 characters"
    assert parse("shoe seed=1 # " + "x" * 4082)[0][1] == "shoe_seed"
    assert refusal("shoe seed=1\ndraw 0010001") == "s.txt:2: the count is over 10000"
    assert refusal("shoe seed=1073741825") == "s.txt:1: seed is over 1073741824"
    assert parse("shoe seed=1\nwait 630720000000")[1][2] == 630720000000
    assert refusal("shoe seed=1\n" + "wait 630720000000\n" * 2) == (
        "s.txt:3: the scenario waits more than 630720000000 ms in all (twenty years): split it")
    assert refusal("shoe cards=" + ",".join(["AS"] * 300) + "\nforce 300") == (
        "s.txt:1: the scenario holds more than 255 of the card AS in its shoes: split it")
    assert refusal("seance table=1\n" + "shoe seed=1\n" * 43) == (
        "s.txt:44: the scenario holds more than 255 of the card AS in its shoes: split it")
    assert refusal("shoe cards=" + ",".join(["AS", "KH"] * 157)) == (
        "s.txt:1: a chemin_de_fer shoe holds at most 312 cards")
    assert refusal("game deux_tableaux_limitee\nshoe cards=" + "AS," * 200 + "AS") == (
        "s.txt:2: a deux_tableaux_limitee shoe holds at most 156 cards")
    assert refusal("shoe cards=AS\n" + "shoe cards=KH\n" * 255) == (
        "s.txt:256: the scenario loads more than 255 shoes: split it")
    assert refusal("shoe seed=1\n" + "draw 10000\n" * 6 + "burn 5534\nno_more_bets\ncoup_end") == (
        "s.txt:9: the scenario plays more than 65535 actions (a count N is N): split it")
