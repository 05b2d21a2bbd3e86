-- F-RESULTS (Article 59): each table's chemin de fer coups, whatever sabot dealt them, and who won them.
SELECT casino, table_no, COUNT(*) AS coups,
       SUM(CASE WHEN winner = 2 THEN 1 ELSE 0 END) AS banque,
       SUM(CASE WHEN winner = 1 THEN 1 ELSE 0 END) AS ponte,
       SUM(CASE WHEN winner = 3 THEN 1 ELSE 0 END) AS egalite
FROM coups
WHERE game = {chemin_de_fer} AND hands = 2
GROUP BY casino, table_no
ORDER BY casino, table_no
