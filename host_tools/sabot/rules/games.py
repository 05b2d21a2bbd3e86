"""The games' figures a journal is held to (G-CF, G-DTL, G-DTO, as docs/requirements.md states them), read from
firmware/games.py's table as data rather than copied, indexed by R_LOAD's code; and the article each requirement
serves, for the inspector's report."""

from firmware import games

GAME_IDS = tuple(row[games.REQUIREMENT] for row in games.GAMES)
DECKS = tuple(row[games.DECKS] for row in games.GAMES)
STOP_BEFORE = tuple(row[games.STOP_BEFORE] for row in games.GAMES)  # cards behind the stop card
COUP_MIN = tuple(row[games.COUP_MIN] for row in games.GAMES)
COUP_MAX = tuple(row[games.COUP_MAX] for row in games.GAMES)
TAILLES = tuple(row[games.TAILLES_PER_SEANCE] for row in games.GAMES)  # per séance, 0: no limit
HANDS = tuple(row[games.HANDS] for row in games.GAMES)
LIMITEE = games.DEUX_TABLEAUX_LIMITEE  # new cards each séance: one taille
OUVERTE = games.DEUX_TABLEAUX_OUVERTE  # Article 61's séances and draw
# A tableau's requirement and its hands' names, by its count of hands (docs/tableau.md).
TABLEAU_IDS = {2: "T-CF", 3: "T-DT"}
HAND_NAMES = {2: ("ponte", "banque"), 3: ("tableau 1", "tableau 2", "banque")}
ARTICLES = {
    "G-CF": "Article 58", "G-DTL": "Article 58", "G-DTO": "Article 61", "S-ONE": "Article 58",
    "S-LOCK": "Article 58", "S-FAILSAFE": "Article 58", "S-FORCED": "Article 58", "S-BURN": "Article 58",
    "S-STOP": "Article 58", "S-STOPPOS": "Article 58", "S-COUNT": "Article 58", "S-IDENT": "Article 58",
    # The journal's own requirements serve the approval of the shoe's model (Article 58, "modèle agréé").
    "J-EVERY": "Article 58", "J-DURABLE": "Article 58", "J-TAMPER": "Article 58", "J-EVENTS": "Article 58",
    "J-TIME": "Article 58", "H-FIRMWARE": "Article 58", "H-VERIFY": "Article 58",
    # A card drawn against the tableau is a "faux tirage" (Article 60); the tableaux' results, Article 62.
    "T-CF": "Article 60", "T-DT": "Article 60",
    "O-SEANCES": "Article 61", "O-BREAK": "Article 61", "O-DRAW": "Article 61",
    "P-AUTHORITY": "Article 58", "K-REGISTRY": "Article 58",  # the sabots numbered by the establishment
    "P-FRAME": "Article 58",  # the protocol of the approved model: a frame that fails its CRC
}
