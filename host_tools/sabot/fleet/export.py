"""`sabot fleet export`: the database's tables as Parquet, partitioned by casino (and the records by month), with
a manifest of every partition written, so that a reader can tell a folder with a partition missing (DuckDB and
Spark read the same files: sabot.fleet.engines)."""

import json
import shutil
from pathlib import Path

from sabot.fleet import schema, store
from sabot.fleet.engines import MANIFEST
from sabot.fleet.store import Unusable
from sabot.outputs import Exists, may_write


def export(db, folder, force=False):
    """The manifest written; Unusable for a database it cannot read or a folder it would overwrite."""
    folder = Path(folder)
    con = store.open_database(db, create=False)
    try:
        for (casino,) in con.execute("SELECT DISTINCT casino FROM segments ORDER BY ALL").fetchall():
            store.casino_name(casino)  # a database of an older sabot may hold one that would break the folders
        try:
            may_write(folder, force, folder=True)
        except Exists as e:
            raise Unusable(str(e)) from None
        if folder.exists() and any(folder.iterdir()):
            if not (folder / MANIFEST).exists():
                raise Unusable("%s: not an earlier export (no %s); not replaced, even with --force" % (
                    folder, MANIFEST))
            for table in list(schema.PARTITIONS) + [MANIFEST]:
                target = folder / table
                shutil.rmtree(target) if target.is_dir() else target.unlink(missing_ok=True)
        folder.mkdir(parents=True, exist_ok=True)
        written = {"schema_version": schema.SCHEMA_VERSION, "partitions": {}, "rows": {}}
        for table, columns in schema.PARTITIONS.items():
            rows = con.execute("SELECT COUNT(*) FROM %s" % table).fetchone()[0]
            target = folder / table
            if rows:
                con.execute("COPY (SELECT * FROM %s) TO '%s' (FORMAT parquet, PARTITION_BY (%s))" % (
                    table, str(target).replace("'", "''"), ", ".join(columns)))
                parts = con.execute("SELECT DISTINCT %s FROM %s ORDER BY ALL" % (", ".join(columns), table)).fetchall()
                written["partitions"][table] = ["/".join("%s=%s" % pair for pair in zip(columns, part))
                                                for part in parts]
            else:  # no partition to hold the columns: one empty file
                target.mkdir()
                con.execute("COPY (SELECT * FROM %s) TO '%s' (FORMAT parquet)" % (
                    table, str(target / "empty.parquet").replace("'", "''")))
                written["partitions"][table] = [""]
            written["rows"][table] = rows
        (folder / MANIFEST).write_text(json.dumps(written, indent=1) + "\n", encoding="utf-8")
        return written
    finally:
        con.close()
