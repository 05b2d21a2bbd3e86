-- The inventory (carnet de prises en charge): every sabot that reported, its first and last record and séance,
-- and how many séances and distinct tables.
WITH r AS (SELECT casino, sabot, COUNT(*) AS records, MIN(time_ms) AS first_ms, MAX(time_ms) AS last_ms
           FROM records GROUP BY casino, sabot),
     s AS (SELECT casino, sabot, COUNT(*) AS seances, MIN(seance) AS first_seance, MAX(seance) AS last_seance,
                  MIN(time_ms) AS first_seance_ms, MAX(time_ms) AS last_seance_ms,
                  COUNT(DISTINCT table_no) AS tables
           FROM seances GROUP BY casino, sabot)
SELECT r.casino, r.sabot, r.records, r.first_ms, r.last_ms, COALESCE(s.seances, 0) AS seances, s.first_seance,
       s.last_seance, s.first_seance_ms, s.last_seance_ms, COALESCE(s.tables, 0) AS tables
FROM r LEFT JOIN s ON s.casino = r.casino AND s.sabot = r.sabot
