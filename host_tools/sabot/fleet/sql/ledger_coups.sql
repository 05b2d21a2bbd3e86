-- A sabot's coups as its ingested journal has them, for its ledger (sabot fleet ingest-ledger): the result record's
-- winners (code, hands), the taille's game, the séance's table and the employee who opened it.
SELECT r.seance, r.taille, r.coup, r.seq, r.code, r.disposition AS hands, t.game, s.table_no, s.employee
FROM records r
LEFT JOIN tailles t ON t.casino = r.casino AND t.sabot = r.sabot AND t.taille = r.taille
LEFT JOIN seances s ON s.casino = r.casino AND s.sabot = r.sabot AND s.seance = r.seance
WHERE r.type = {result} AND r.casino = $casino AND r.sabot = $sabot
ORDER BY r.seq
