-- F-REPEAT (Article 58, cards shuffled as Article 40 says): {window} consecutive playing cards of a taille
-- identical to {window} of an earlier taille, of any sabot and casino. Each window of cards gets a hash of
-- three weighted sums (card_weights: pseudo-random weights of each card, times its rank in the window to the
-- powers 0, 1 and 2, expanded into window sums); windows join on the hash, never pairwise. A repeat is reported
-- once, on the later taille, with the number of windows matched ({window} - 1 fewer than the cards repeated).
WITH dealt AS (
    SELECT c.casino, c.sabot, c.taille, c.position, w.w0, w.w1, w.w2,
           ROW_NUMBER() OVER (PARTITION BY c.casino, c.sabot, c.taille ORDER BY c.position) AS k
    FROM cards c JOIN card_weights w ON w.card = c.card),
sums AS (
    SELECT casino, sabot, taille, k,
           COUNT(*) OVER win AS n,
           SUM(w0) OVER win AS a0,
           SUM(w1) OVER win AS b1, SUM(w1 * k) OVER win AS c1,
           SUM(w2) OVER win AS b2, SUM(w2 * k) OVER win AS c2, SUM(w2 * k * k) OVER win AS d2
    FROM dealt
    WINDOW win AS (PARTITION BY casino, sabot, taille ORDER BY k ROWS BETWEEN CURRENT ROW AND {following} FOLLOWING)),
windows AS (
    SELECT casino, sabot, taille, k, a0 AS h0, c1 - k * b1 AS h1, d2 - 2 * k * c2 + k * k * b2 AS h2
    FROM sums WHERE n = {window}),
matched AS (
    SELECT b.casino, b.sabot, b.taille, a.casino AS first_casino, a.sabot AS first_sabot, a.taille AS first_taille,
           b.k, a.k AS first_k
    FROM windows a
    JOIN windows b ON a.h0 = b.h0 AND a.h1 = b.h1 AND a.h2 = b.h2
    JOIN tailles ta ON ta.casino = a.casino AND ta.sabot = a.sabot AND ta.taille = a.taille
    JOIN tailles tb ON tb.casino = b.casino AND tb.sabot = b.sabot AND tb.taille = b.taille
    WHERE ta.time_ms < tb.time_ms
       OR (ta.time_ms = tb.time_ms AND (a.casino < b.casino OR (a.casino = b.casino AND
           (a.sabot < b.sabot OR (a.sabot = b.sabot AND a.taille < b.taille))))))
SELECT m.casino, m.sabot, m.taille, t.seance, m.first_casino, m.first_sabot, m.first_taille, f.seance AS first_seance,
       COUNT(*) AS windows, MIN(m.k) AS at_card, MIN(m.first_k) AS first_at_card
FROM matched m
JOIN tailles t ON t.casino = m.casino AND t.sabot = m.sabot AND t.taille = m.taille
JOIN tailles f ON f.casino = m.first_casino AND f.sabot = m.first_sabot AND f.taille = m.first_taille
GROUP BY m.casino, m.sabot, m.taille, t.seance, m.first_casino, m.first_sabot, m.first_taille, f.seance
ORDER BY m.casino, m.sabot, m.taille, m.first_casino, m.first_sabot, m.first_taille
