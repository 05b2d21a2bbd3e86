"""A checked scenario kept as compact bytes gives back the very steps the parser yields (H-SIM): the runner plays
those bytes, the parser's code let go, so a whole shoe fits the small heap."""

from boards.sim.scenario import compiled, parse
from boards.sim.steps import decode
from tests.core.req import covers

_SCENARIOS = __file__.rsplit("/", 3)[0] + "/boards/sim/scenarios/"
_BUNDLED = ("full_shoe_chemin_de_fer.txt", "deux_tableaux_ouverte.txt", "incidents.txt", "long_uptime.txt")


def _same(text):
    expected = [(line, name, list(a) if name == "shoe_cards" else int(a), b) for line, name, a, b in parse(text)]
    got = [(line, name, list(a) if name == "shoe_cards" else a, b) for line, name, a, b in
           decode(compiled(text.split("\n")))]
    assert got == expected, (got[:3], expected[:3])
    return got


@covers("H-SIM")
def test_every_bundled_scenario_comes_back_from_its_bytes_step_for_step():
    for name in _BUNDLED:
        with open(_SCENARIOS + name) as f:
            assert len(_same(f.read())) > 5, name


@covers("H-SIM")
def test_large_numbers_a_card_stack_and_its_stop_card_come_back_whole():
    steps = _same("shoe cards=AS,KH,2C stop_after=1\nwait 315360000000\nshoe cards=QD\nseance table=4095\n"
                  "reader off\nshoe seed=1073741824\ndraw 10000")
    assert len(steps[0][2]) == 3 and steps[0][3] == 1
    assert steps[1][2] == 315360000000 and steps[2][3] == -1 and steps[3][2] == 4095
