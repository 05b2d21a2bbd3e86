-- The fleet database (DuckDB): one table of records as the journals hold them, the segments they came from and
-- what the verifier found in each journal. The views (view_*.sql) and the checks read only these.
CREATE TABLE fleet_meta (name VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
CREATE TABLE records (
    casino VARCHAR NOT NULL, sabot INTEGER NOT NULL, segment INTEGER NOT NULL, seq BIGINT NOT NULL,
    type SMALLINT NOT NULL, time_ms BIGINT NOT NULL, month VARCHAR NOT NULL, seance INTEGER NOT NULL,
    taille INTEGER NOT NULL, coup INTEGER NOT NULL, position INTEGER NOT NULL, card SMALLINT NOT NULL,
    disposition SMALLINT NOT NULL, condition SMALLINT NOT NULL, code INTEGER NOT NULL);
CREATE TABLE segments (
    casino VARCHAR NOT NULL, sabot INTEGER NOT NULL, segment INTEGER NOT NULL, bytes BIGINT NOT NULL,
    sha256 VARCHAR NOT NULL, first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL, records BIGINT NOT NULL,
    key_id VARCHAR NOT NULL, firmware VARCHAR NOT NULL, path VARCHAR NOT NULL, ingested_ms BIGINT NOT NULL,
    receipt VARCHAR, PRIMARY KEY (casino, sabot, segment));
CREATE TABLE journal_findings (
    casino VARCHAR NOT NULL, sabot INTEGER NOT NULL, seq BIGINT NOT NULL, id VARCHAR NOT NULL,
    article VARCHAR NOT NULL, message VARCHAR NOT NULL);
CREATE TABLE games (game INTEGER, coup_min INTEGER, coup_max INTEGER);
CREATE TABLE card_weights (card INTEGER, w0 BIGINT, w1 BIGINT, w2 BIGINT);
