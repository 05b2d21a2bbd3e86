-- What `sabot pit` raised live (docs/pit.md), each finding once, at the time the pit first raised it: a journal's
-- own findings (a forced card, an alarm, an out-of-rule draw) and the input the pit refused (a shoe not in the
-- registry, a journal that does not verify or diverges from the pit's copy, frames that failed their CRC). sabot,
-- table_no and seq are NULL where the finding has none. Made in a database of an older sabot too (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS pit_findings (
    raised TIMESTAMP NOT NULL, casino VARCHAR NOT NULL, sabot INTEGER, table_no INTEGER, seq BIGINT,
    id VARCHAR NOT NULL, article VARCHAR NOT NULL, message VARCHAR NOT NULL);
