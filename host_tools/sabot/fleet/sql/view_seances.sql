-- Each séance opened: the table the sabot was assigned to (S-IDENT, Article 58) and by whom.
SELECT casino, sabot, seance, code AS table_no, card AS game, disposition + 256 * condition AS employee,
       time_ms, month, seq
FROM records
WHERE type = {seance}
