-- Every card out of a shoe: dealt, burned or the stop card; hand -1 when the tableau did not place it.
SELECT casino, sabot, seance, taille, coup, position, card, disposition, condition, code - 1 AS hand, time_ms,
       month, seq
FROM records
WHERE type = {card}
