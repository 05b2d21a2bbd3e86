-- F-LEVY (Articles 59, 60): each table's and each croupier's coups in the ledgers, the levy due on those the bank
-- won, what was levied on them and how many of them have no levy; sabot.fleet.checks compares each with its casino.
SELECT casino, kind, grp, COUNT(*) AS coups,
       SUM(CASE WHEN due > 0 THEN 1 ELSE 0 END) AS won,
       SUM(due) AS due, SUM(CASE WHEN due > 0 THEN levied ELSE 0 END) AS levied,
       SUM(CASE WHEN due > 0 AND levied = 0 THEN 1 ELSE 0 END) AS missing
FROM (SELECT casino, 'table' AS kind, table_no AS grp, due, levied FROM levies
      UNION ALL
      SELECT casino, 'croupier' AS kind, employee AS grp, due, levied FROM levies) g
GROUP BY casino, kind, grp
ORDER BY casino, kind, grp
