-- F-INVENTORY (Article 58): a sabot of the inventory whose last record is more than {silent_ms} ms older than its
-- casino's latest record: it stopped reporting.
WITH latest AS (SELECT casino, MAX(last_ms) AS casino_ms FROM shoes GROUP BY casino)
SELECT s.casino, s.sabot, s.last_ms, l.casino_ms, s.last_seance, s.seances
FROM shoes s JOIN latest l ON l.casino = s.casino
WHERE l.casino_ms - s.last_ms > {silent_ms}
ORDER BY s.casino, s.sabot
