-- The cagnotte's ledgers (sabot fleet ingest-ledger): each coup of a sabot's journal with its ledger's line, the
-- table and the croupier (the employee who opened the séance, R_SEANCE), the stakes, the levy due on it
-- (sabot.cagnotte.levy), the levy taken and its tickets. Money is DECIMAL(12,2), never a binary float. Made in a
-- database of an older sabot too (IF NOT EXISTS): a table added, nothing rewritten.
CREATE TABLE IF NOT EXISTS levies (
    casino VARCHAR NOT NULL, sabot INTEGER NOT NULL, seance INTEGER NOT NULL, taille INTEGER NOT NULL,
    coup INTEGER NOT NULL, table_no INTEGER NOT NULL, employee INTEGER NOT NULL, game INTEGER NOT NULL,
    stake_1 DECIMAL(12,2) NOT NULL, stake_2 DECIMAL(12,2), due DECIMAL(12,2) NOT NULL,
    levied DECIMAL(12,2) NOT NULL, tickets DECIMAL(12,2) NOT NULL, ticket_items VARCHAR NOT NULL,
    PRIMARY KEY (casino, sabot, seance, taille, coup));
