"""The fleet database file (DuckDB): created with the schema of this version, refused when it is not a fleet
database or is of a newer version, so nothing is ever written into a layout this code does not know."""

import re
import time
from contextlib import contextmanager
from pathlib import Path

import duckdb

from sabot.fleet import schema

_CASINO_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")


class Unusable(Exception):
    """A database, journal or Parquet folder this tool cannot use: one line, exit status 2."""


def casino_name(name):
    """The name, or Unusable: 1 to 64 ASCII letters, digits, '-' and '_', so that a page's file name and a Parquet
    partition's folder take it as it is (a '/' or '..' would reach outside them)."""
    if not _CASINO_NAME.match(name):
        raise Unusable("casino name %r: 1 to 64 ASCII letters, digits, '-' and '_', starting with a letter or digit"
                       % name)
    return name


def params():
    """The names the SQL files are formatted with: record types and dispositions, from one place."""
    return {"card": schema.TYPES["card"], "seance": schema.TYPES["seance"], "load": schema.TYPES["load"],
            "result": schema.TYPES["result"], "dealt": schema.DEALT, "burned": schema.BURNED}


def create_views(con, temporary=False):
    for name in schema.VIEWS:
        con.execute("CREATE OR REPLACE %sVIEW %s AS %s" % (
            "TEMP " if temporary else "", name, schema.sql("view_" + name).format(**params())))


def fill_constants(con):
    for name, (columns, rows) in schema.constants().items():
        con.executemany("INSERT INTO %s (%s) VALUES (%s)" % (name, ", ".join(columns), ", ".join("?" * len(columns))),
                        rows)


@contextmanager
def transaction(con):
    """BEGIN, then COMMIT, or ROLLBACK on any exception: all of it written or none."""
    con.execute("BEGIN")
    try:
        yield con
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


_HELD = "Conflicting lock is held in "  # DuckDB's words when another process has the file open
HELD_WAIT_S = 5.0  # how long a command waits for a database another program holds (the pit's writes: a moment)


def _connect(path, wait):
    """duckdb.connect, tried again for wait seconds while another program holds the file."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return duckdb.connect(str(path))
        except duckdb.Error as e:
            said = str(e)
            if _HELD not in said:
                raise Unusable("%s: not a DuckDB database (%s)" % (path, said.splitlines()[0])) from None
            if time.monotonic() >= deadline:  # DuckDB's file lock: one program at a time opens a database
                raise Unusable("%s is open in another program (a `sabot pit follow`, `sabot nuit` or `sabot fleet`: "
                               "%s); stop it first / la base est ouverte par un autre programme" % (
                                   path, said.split(_HELD)[1].split(". See")[0])) from None
        time.sleep(0.05)


def open_database(path, create=True, wait=HELD_WAIT_S):
    """A connection to the fleet database at path, made with this version's schema if it does not exist (when
    `create`). Held by another program (DuckDB lets one process open it; `sabot pit follow` holds it a moment every
    half second), tried again for wait seconds."""
    path = Path(path)
    exists = path.exists()
    if not exists and not create:
        raise Unusable("%s: no such fleet database" % path)
    con = _connect(path, wait)
    if not exists:
        con.execute("BEGIN")
        con.execute(schema.sql("tables"))
        con.execute(schema.sql("table_levies"))
        con.execute(schema.sql("pit_findings"))
        fill_constants(con)
        create_views(con)
        con.execute("INSERT INTO fleet_meta VALUES ('schema_version', ?)", [str(schema.SCHEMA_VERSION)])
        con.execute("COMMIT")
        return con
    try:
        version = con.execute("SELECT value FROM fleet_meta WHERE name = 'schema_version'").fetchone()
    except duckdb.Error:
        con.close()
        raise Unusable("%s: a DuckDB database, but not a fleet database (no fleet_meta table)" % path) from None
    if version is None or not version[0].isdigit() or int(version[0]) > schema.SCHEMA_VERSION:
        con.close()
        raise Unusable("%s: fleet database schema version %s; this sabot reads version %d or older" % (
            path, version[0] if version else "unknown", schema.SCHEMA_VERSION))
    con.execute(schema.sql("table_levies"))  # a database of a sabot before the ledgers: the table added
    con.execute(schema.sql("pit_findings"))  # and before the pit
    return con
