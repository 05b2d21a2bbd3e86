-- Results over time for the report: each casino's chemin de fer coups and banker's wins a day.
SELECT casino, CAST(floor(time_ms / 86400000) AS INTEGER) AS day, COUNT(*) AS coups,
       SUM(CASE WHEN winner = 2 THEN 1 ELSE 0 END) AS banque
FROM coups
WHERE game = {chemin_de_fer} AND hands = 2
GROUP BY casino, CAST(floor(time_ms / 86400000) AS INTEGER)
ORDER BY casino, day
