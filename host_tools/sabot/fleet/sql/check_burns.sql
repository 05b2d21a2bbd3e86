-- F-DEAL (Article 58): tailles with more than {max_burns} cards burned.
SELECT casino, sabot, taille, seance, burned, dealt
FROM tailles
WHERE burned > {max_burns}
ORDER BY casino, sabot, taille
