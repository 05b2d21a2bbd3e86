"""The cagnotte: the levy due at each coup the bank wins (Articles 59, 60 and 62), from the shoe's journal and the
stakes the table records; `sabot cagnotte due` (docs/cagnotte.md)."""
