-- Each shoe of cards loaded (a taille): its séance, table and game, and the cards dealt and burned from it.
SELECT l.casino, l.sabot, l.seance, l.taille, l.code AS game, l.time_ms, l.month, s.table_no,
       COALESCE(c.dealt, 0) AS dealt, COALESCE(c.burned, 0) AS burned
FROM records l
LEFT JOIN seances s ON s.casino = l.casino AND s.sabot = l.sabot AND s.seance = l.seance
LEFT JOIN (SELECT casino, sabot, taille,
                  SUM(CASE WHEN disposition = {dealt} THEN 1 ELSE 0 END) AS dealt,
                  SUM(CASE WHEN disposition = {burned} THEN 1 ELSE 0 END) AS burned
           FROM records WHERE type = {card} GROUP BY casino, sabot, taille) c
       ON c.casino = l.casino AND c.sabot = l.sabot AND c.taille = l.taille
WHERE l.type = {load}
