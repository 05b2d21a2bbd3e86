-- F-DEAL (Article 58): coups dealt more or fewer cards than their game allows, counted a taille.
WITH per_coup AS (
    SELECT casino, sabot, taille, coup, COUNT(*) AS dealt
    FROM cards WHERE disposition = {dealt} AND coup > 0
    GROUP BY casino, sabot, taille, coup)
SELECT p.casino, p.sabot, p.taille, t.seance, COUNT(*) AS coups, MIN(p.coup) AS first_coup, MIN(p.dealt) AS fewest,
       MAX(p.dealt) AS most, MIN(g.coup_min) AS coup_min, MIN(g.coup_max) AS coup_max
FROM per_coup p
JOIN tailles t ON t.casino = p.casino AND t.sabot = p.sabot AND t.taille = p.taille
JOIN games g ON g.game = t.game
WHERE p.dealt < g.coup_min OR p.dealt > g.coup_max
GROUP BY p.casino, p.sabot, p.taille, t.seance
ORDER BY p.casino, p.sabot, p.taille
