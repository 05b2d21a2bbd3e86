"""The two engines the checks run on, behind one method, query(sql) -> rows: DuckDB (the fleet database, or the
Parquet files) for a casino, Spark (the Parquet files, local or on a cluster) for the country. Both see the same
tables, constants and views (sql/view_*.sql), so every check's SQL is written once."""

import json
import os
from pathlib import Path

import duckdb

from sabot.fleet import schema, store
from sabot.fleet.store import Unusable

MANIFEST = "fleet-manifest.json"


def manifest(folder):
    """The export's manifest, every partition it lists checked to be there: a folder with a partition missing is
    refused, not read short."""
    folder = Path(folder)
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise Unusable("%s: no %s: not a folder written by sabot fleet export" % (folder, MANIFEST)) from None
    except ValueError as e:
        raise Unusable("%s: damaged (%s)" % (path, e)) from None
    if data.get("schema_version", 0) > schema.SCHEMA_VERSION:
        raise Unusable("%s: fleet schema version %s; this sabot reads version %d or older" % (
            path, data.get("schema_version"), schema.SCHEMA_VERSION))
    for table in schema.PARTITIONS:
        if table not in data["partitions"] and table not in schema.OPTIONAL:
            raise Unusable("%s: the manifest lists no %s" % (path, table))
    for table, partitions in data["partitions"].items():
        for partition in partitions:
            where = folder / table / partition
            if not where.is_dir() or not any(where.glob("*.parquet")):
                raise Unusable("%s: partition missing (the manifest lists it): %s/%s" % (folder, table, partition))
    return data


class DuckDB:
    def __init__(self, con):
        self.con = con

    @classmethod
    def database(cls, path):
        return cls(store.open_database(path, create=False))

    @classmethod
    def parquet(cls, folder):
        listed = manifest(folder)["partitions"]
        con = duckdb.connect()
        for table in schema.PARTITIONS:
            if table not in listed:
                con.execute("CREATE VIEW %s AS %s" % (table, schema.sql(schema.OPTIONAL[table])))
                continue
            files = str(Path(folder) / table / "**" / "*.parquet").replace("'", "''")
            con.execute("CREATE VIEW %s AS SELECT * FROM read_parquet('%s', hive_partitioning = true, "
                        "hive_types_autocast = false)" % (table, files))
        for name, (columns, _rows) in schema.constants().items():
            con.execute("CREATE TABLE %s (%s)" % (name, ", ".join(c + " BIGINT" for c in columns)))
        store.fill_constants(con)
        store.create_views(con, temporary=True)
        return cls(con)

    def query(self, sql):
        return [tuple(row) for row in self.con.execute(sql).fetchall()]

    def close(self):
        self.con.close()


class Spark:
    """pyspark over the Parquet files: local[2] by default; under spark-submit, the cluster's session."""

    def __init__(self, session, own):
        self.session = session
        self.own = own

    @classmethod
    def parquet(cls, folder, session=None):
        listed = manifest(folder)["partitions"]
        own = session is None
        if own:
            session = local_session()
        for table in schema.PARTITIONS:
            if table in listed:
                session.read.parquet(str(Path(folder) / table)).createOrReplaceTempView(table)
            else:
                session.sql(schema.sql(schema.OPTIONAL[table])).createOrReplaceTempView(table)
        for name, (columns, rows) in schema.constants().items():
            session.createDataFrame(rows, list(columns)).createOrReplaceTempView(name)
        for name in schema.VIEWS:
            session.sql("CREATE OR REPLACE TEMP VIEW %s AS %s" % (
                name, schema.sql("view_" + name).format(**store.params())))
        return cls(session, own)

    def query(self, sql):
        return [tuple(row) for row in self.session.sql(sql).collect()]

    def close(self):
        if self.own:
            self.session.stop()


def local_session(cores=2):
    """A Spark session: on this machine, or under spark-submit (which starts the JVM and names it in
    PYSPARK_GATEWAY_PORT) the cluster's; partition columns kept as the strings they were written as."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        builder = builder.master("local[%d]" % cores)
    session = (builder.appName("sabot-fleet")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", str(2 * cores))
               .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
               .config("spark.sql.session.timeZone", "UTC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    return session
