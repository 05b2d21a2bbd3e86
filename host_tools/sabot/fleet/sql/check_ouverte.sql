-- F-OUVERTE (Article 61): banque ouverte at more than one table of a casino in one casino day ({day_from_ms} ms
-- after midnight UTC to the same the next day, firmware.records.DAY_FROM): each séance of such a day, opened at
-- banque ouverte (a refused opening journals no séance).
WITH ouvertes AS (
    SELECT casino, sabot, seance, table_no, time_ms,
           CAST(FLOOR((time_ms - {day_from_ms}) / {day_ms}) AS BIGINT) AS day_no
    FROM seances
    WHERE game = {ouverte}),
crowded AS (
    SELECT casino, day_no
    FROM ouvertes
    GROUP BY casino, day_no
    HAVING COUNT(DISTINCT table_no) > 1)
SELECT o.casino, o.day_no, o.table_no, o.sabot, o.seance, o.time_ms
FROM ouvertes o JOIN crowded c ON o.casino = c.casino AND o.day_no = c.day_no
ORDER BY o.casino, o.day_no, o.time_ms, o.sabot, o.seance
