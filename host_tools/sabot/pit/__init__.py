"""`sabot pit`: the casino's shoes followed live, the tables' screens and a coup recalled (docs/pit.md)."""
