-- Each coup with its result record: the winner (1 ponte, 2 banque, 3 égalité; a second tableau's in winner2)
-- and the cards of its hands, decoded from the record's code and card fields (docs/journal-format.md).
SELECT r.casino, r.sabot, r.seance, r.taille, r.coup, r.time_ms, r.month, t.table_no, t.game,
       r.disposition AS hands,
       CAST(floor(r.code / 4096) AS INTEGER) % 4 AS winner,
       CAST(floor(r.code / 16384) AS INTEGER) % 4 AS winner2,
       r.card % 4 + CAST(floor(r.card / 4) AS INTEGER) % 4 + CAST(floor(r.card / 16) AS INTEGER) % 4 AS cards
FROM records r
LEFT JOIN tailles t ON t.casino = r.casino AND t.sabot = r.sabot AND t.taille = r.taille
WHERE r.type = {result}
