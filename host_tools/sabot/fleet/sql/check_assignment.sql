-- F-ASSIGN (Article 58): a sabot assigned to the same table in {same_table} or more consecutive séances of its
-- own (runs found as gaps and islands: a séance's rank among the sabot's less its rank at that table).
WITH ranked AS (
    SELECT casino, sabot, seance, table_no, time_ms,
           ROW_NUMBER() OVER (PARTITION BY casino, sabot ORDER BY time_ms, seance)
           - ROW_NUMBER() OVER (PARTITION BY casino, sabot, table_no ORDER BY time_ms, seance) AS run
    FROM seances)
SELECT casino, sabot, table_no, COUNT(*) AS seances, MIN(seance) AS first_seance, MAX(seance) AS last_seance,
       MIN(time_ms) AS first_ms, MAX(time_ms) AS last_ms
FROM ranked
GROUP BY casino, sabot, table_no, run
HAVING COUNT(*) >= {same_table}
ORDER BY casino, sabot, first_seance
