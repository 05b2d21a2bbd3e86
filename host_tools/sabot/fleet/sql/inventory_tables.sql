-- The tables of each sabot, with the séances it spent at each: the shoe x table matrix of the report.
SELECT casino, sabot, table_no, COUNT(*) AS seances
FROM seances
GROUP BY casino, sabot, table_no
ORDER BY casino, sabot, table_no
