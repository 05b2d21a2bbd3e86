-- The carnet de prises en charge, a sabot a row.
SELECT casino, sabot, records, first_ms, last_ms, seances, first_seance, last_seance, first_seance_ms,
       last_seance_ms, tables
FROM shoes
ORDER BY casino, sabot
