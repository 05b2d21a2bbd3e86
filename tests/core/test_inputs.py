"""Numbers refused where they enter the shoe, with the same limits and the same message on CPython and both VMs: the
device's /config.json (firmware/startup.py), a technician's séance (firmware/remote.py) and a scenario's. Before
these checks, "sabot": 70000 was journalled as 4464 on MicroPython and crashed CPython's struct."""

from boards.sim.scenario import ScenarioError, parse
from firmware.records import EMPLOYEE_MAX, R_SEANCE, SABOT_MAX, TABLE_MAX, TABLE_MIN
from firmware.remote import seance
from firmware.runtime import EventQueue, Runtime
from firmware.startup import check_config
from tests.core.play import play
from tests.core.req import covers

GOOD = {"board": "rpi_pico", "sabot": 42, "table": 7, "game": "chemin_de_fer", "reader": True, "stop_detector": False}


def _refused(call, *args):
    """The one-line message of the ValueError call(*args) raises; AssertionError when it takes the input."""
    try:
        call(*args)
    except ValueError as e:
        return e.args[0]
    raise AssertionError("%r taken" % (args,))


def _config(**changes):
    config = dict(GOOD)
    config.update(changes)
    return config


@covers("S-IDENT")
def test_the_config_takes_every_value_within_its_limits():
    for sabot in (0, SABOT_MAX):
        for table in (TABLE_MIN, TABLE_MAX):
            assert check_config(_config(sabot=sabot, table=table)) == _config(sabot=sabot, table=table)
    assert check_config({"board": "sim", "sabot": 1}) == {"board": "sim", "sabot": 1}  # the rest is optional


@covers("S-IDENT")
def test_a_config_number_out_of_range_is_refused_naming_the_key_and_its_limits():
    assert _refused(check_config, _config(sabot=70000)) == 'config.json: "sabot" 70000: a whole number from 0 to 65535'
    assert _refused(check_config, _config(sabot=-1)) == 'config.json: "sabot" -1: a whole number from 0 to 65535'
    assert _refused(check_config, _config(sabot=2**40)).startswith('config.json: "sabot" 1099511627776:')
    assert _refused(check_config, _config(table=0)) == 'config.json: "table" 0: a whole number from 1 to 4095'
    assert _refused(check_config, _config(table=4096)) == 'config.json: "table" 4096: a whole number from 1 to 4095'


@covers("S-IDENT")
def test_a_config_value_of_the_wrong_kind_is_refused():
    assert "a whole number" in _refused(check_config, _config(sabot="42"))
    assert "a whole number" in _refused(check_config, _config(sabot=True))  # JSON's true is no sabot number
    assert "a whole number" in _refused(check_config, _config(table=7.0))
    assert _refused(check_config, _config(reader="yes")) == 'config.json: "reader" \'yes\': true or false'
    assert _refused(check_config, _config(stop_detector=1)) == 'config.json: "stop_detector" 1: true or false'
    assert "unknown game 'poker'" in _refused(check_config, _config(game="poker"))
    assert "needs \"board\"" in _refused(check_config, {"sabot": 42})
    assert "needs \"board\"" in _refused(check_config, {"board": "rpi_pico"})
    assert "needs \"board\"" in _refused(check_config, [42])


@covers("S-IDENT")
def test_a_technicians_seance_out_of_range_is_refused_before_the_shoe_hears_of_it():
    assert _refused(seance, 4096, "chemin_de_fer", 1) == "table 4096: a whole number from 1 to 4095"
    assert _refused(seance, 0, "chemin_de_fer", 1) == "table 0: a whole number from 1 to 4095"
    assert _refused(seance, 12, "chemin_de_fer", 65536) == "employee 65536: a whole number from 0 to 65535"
    assert _refused(seance, 12, "chemin_de_fer", -1) == "employee -1: a whole number from 0 to 65535"
    assert _refused(seance, 12, "chemin_de_fer", "7") == "employee '7': a whole number from 0 to 65535"
    assert "unknown game 'poker'" in _refused(seance, 12, "poker", 7)
    Runtime.current = None  # no shoe runs in this process (a test before may have served one)
    try:
        seance(0, "", 0, close=True)  # closing names no table: the host sends zeros, and the shoe's own is closed
    except RuntimeError as e:
        assert "not running" in e.args[0]


@covers("S-IDENT", "J-EVENTS")
def test_a_technicians_seance_at_the_limits_is_journalled_as_given():
    played = play("shoe seed=3")
    board = played.board
    runtime = Runtime(board.shell, EventQueue(), board.clock.ticks, board.clock.ticks, board.clock.ticks)
    Runtime.current = runtime
    try:
        seance(TABLE_MAX, "chemin_de_fer", EMPLOYEE_MAX)
    finally:
        Runtime.current = None
    opened = played.of_type(R_SEANCE)[-1]
    assert opened["code"] == TABLE_MAX and opened["disposition"] | opened["condition"] << 8 == EMPLOYEE_MAX


@covers("S-IDENT")
def test_a_scenarios_table_out_of_range_is_refused_with_its_line():
    assert parse("seance table=4095\nshoe seed=3")[0][2] == TABLE_MAX
    for table in ("0", "4096", "70000"):
        try:
            parse("seance table=%s\nshoe seed=3" % table, "s.txt")
        except ScenarioError as e:
            assert e.args[0].startswith("s.txt:1: table"), e.args[0]
        else:
            raise AssertionError("table=%s taken" % table)
