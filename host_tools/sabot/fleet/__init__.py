"""A casino's and a country's shoes together (docs/fleet.md): verified journals into DuckDB, checks across shoes
that no single journal can show, the same checks on Spark over Parquet, and a French page per casino."""
