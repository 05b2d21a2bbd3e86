-- F-RESULTS (Article 59): each sabot's chemin de fer coups and how many the banker, the ponte and égalité won.
SELECT casino, sabot, COUNT(*) AS coups,
       SUM(CASE WHEN winner = 2 THEN 1 ELSE 0 END) AS banque,
       SUM(CASE WHEN winner = 1 THEN 1 ELSE 0 END) AS ponte,
       SUM(CASE WHEN winner = 3 THEN 1 ELSE 0 END) AS egalite
FROM coups
WHERE game = {chemin_de_fer} AND hands = 2
GROUP BY casino, sabot
ORDER BY casino, sabot
