-- The levies of a Parquet export written before the ledgers were: none, with the columns the checks read.
SELECT CAST(NULL AS VARCHAR) AS casino, CAST(NULL AS INTEGER) AS sabot, CAST(NULL AS INTEGER) AS seance,
       CAST(NULL AS INTEGER) AS taille, CAST(NULL AS INTEGER) AS coup, CAST(NULL AS INTEGER) AS table_no,
       CAST(NULL AS INTEGER) AS employee, CAST(NULL AS INTEGER) AS game, CAST(NULL AS DECIMAL(12,2)) AS stake_1,
       CAST(NULL AS DECIMAL(12,2)) AS stake_2, CAST(NULL AS DECIMAL(12,2)) AS due,
       CAST(NULL AS DECIMAL(12,2)) AS levied, CAST(NULL AS DECIMAL(12,2)) AS tickets,
       CAST(NULL AS VARCHAR) AS ticket_items
WHERE 1 = 0
