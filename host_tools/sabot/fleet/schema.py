"""The fleet database's layout: its version, its tables, the views the checks read (SQL files of sql/, run by DuckDB
and Spark alike) and the small tables of constants both engines are given. The journal's record numbers are
imported here and nowhere else in the package."""

from decimal import Decimal
from importlib import resources

from firmware import games
from firmware.article61 import DAY, DAY_FROM
from firmware.layout import EPOCH_2020
from firmware.records import (  # the record types and dispositions (docs/journal-format.md)
    BURNED,
    DEALT,
    R_CARD,
    R_CLOSED,
    R_COUP_END,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RELEASE,
    R_RESULT,
    R_SEANCE,
    R_SEANCE_CLOSE,
    R_STAND,
    STOP_CARD,
)
from sabot.fleet.stats import FALSE_ALARM

EPOCH_MS = EPOCH_2020 * 1000  # a record's time_ms counts from 2020-01-01 UTC
DAY_MS = DAY * 1000
DAY_FROM_MS = DAY_FROM * 1000  # Article 61's casino day begins this long after midnight UTC (F-OUVERTE)
OUVERTE = games.DEUX_TABLEAUX_OUVERTE  # a séance's game at banque ouverte
SCHEMA_VERSION = 1  # a database of a newer version is refused, never rewritten
TYPES = {"card": R_CARD, "seance": R_SEANCE, "load": R_LOAD, "result": R_RESULT}
VIEWS = ("seances", "tailles", "cards", "coups", "shoes")  # in dependency order
SEGMENT_COLUMNS = ("casino", "sabot", "segment", "bytes", "sha256", "first_seq", "last_seq", "records", "key_id",
                   "firmware", "path", "ingested_ms", "receipt")
FINDING_COLUMNS = ("casino", "sabot", "seq", "id", "article", "message")
# The checks' parameters (docs/fleet.md): séances in a row at one table, days without records, cards in a row
# repeated, cards burned in a taille, the results tests' fleet-wide false-alarm rate.
# The levies' rule (F-LEVY): a table's or croupier's levied / due under this share of its casino's, over at least
# this many coups the bank won.
DEFAULTS = {"same_table": 3, "silent_days": 7, "window": 20, "max_burns": 10, "alarm": FALSE_ALARM,
            "levy_ratio": Decimal("0.98"), "levy_coups": 10}
# The tables each kept as Parquet by `sabot fleet export`, and the columns each is partitioned by.
PARTITIONS = {"records": ("casino", "month"), "segments": ("casino",), "journal_findings": ("casino",),
              "levies": ("casino",)}
OPTIONAL = {"levies": "empty_levies"}  # a table an older export lacks: the SQL of its empty stand-in

__all__ = ["BURNED", "DEALT", "R_CLOSED", "R_COUP_END", "R_NO_MORE_BETS", "R_RELEASE", "R_SEANCE_CLOSE", "R_STAND",
           "STOP_CARD"]


def sql(name):
    """A statement kept as data in sql/NAME.sql."""
    return resources.files(__package__).joinpath("sql", name + ".sql").read_text(encoding="utf-8")


def game_rows():
    """(game, coup_min, coup_max) for each game of firmware.games: the checks' bounds on cards per coup."""
    return [(index, row[games.COUP_MIN], row[games.COUP_MAX]) for index, row in enumerate(games.GAMES)]


def card_weight_rows():
    """(card, w0, w1, w2): three pseudo-random 24-bit weights a card, the fixed coefficients of the window hash of
    repeated card sequences (sql/repeats.sql). A linear congruential sequence, so both engines get the same."""
    rows = []
    state = 0x5AB07
    for card in range(52):
        weights = []
        for _ in range(3):
            state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
            weights.append(state >> 40)
        rows.append((card,) + tuple(weights))
    return rows


def constants():
    """{view name: (columns, rows)}: the constant tables both engines register before the views."""
    return {"games": (("game", "coup_min", "coup_max"), game_rows()),
            "card_weights": (("card", "w0", "w1", "w2"), card_weight_rows())}
