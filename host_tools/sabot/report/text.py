"""The report's own words in French and English, and Words: them, a requirement's title and sabot.words' words
for a journal's codes, in the report's language."""

from sabot import words
from sabot.report.regulation import TITLES

# The report's own words, by language.
TEXT = {
    "fr": {
        "title": "Rapport d'agrément — journal du sabot n° %s",
        "lang": "fr",
        "identity": "Le sabot et son logiciel",
        "sabot": "Sabot n°",
        "firmware": "Logiciel (en-tête des segments)",
        "key": "Clé du journal",
        "key_dev": "clé de DÉVELOPPEMENT : elle signe les journaux du simulateur et des tests, jamais ceux "
                   "d'un sabot de casino",
        "key_given": "clé fournie (%s)",
        "key_id": "identifiant %s",
        "other_keys": "segments signés sous l'identifiant %s",
        "segments": "Segments",
        "period": "Période",
        "journal": "Journal lu",
        "integrity": "Intégrité du journal",
        "intact": "INTACT",
        "broken": "ROMPU",
        "intact_words": "trames, CRC, chaîne SHA-256, étiquettes HMAC, numéros de séquence et ordre du temps vérifiés",
        "broken_words": "le journal a été modifié, tronqué ou signé d'une autre clé : voir les constats J-TAMPER",
        "records": "Enregistrements",
        "seq": "n° de séquence %d à %d",
        "summary": "Vue d'ensemble",
        "findings": "Constats du vérificateur",
        "no_findings": "Aucun constat : le journal respecte toutes les règles qu'il permet de vérifier.",
        "finding_count": "%d constat(s)",
        "seance": "Séance %d",
        "table": "table %s",
        "by": "affecté par l'employé n° %d",
        "taille": "Taille %d",
        "game": "Jeu",
        "coups": "Coups",
        "dealt": "Cartes données",
        "burned": "Brûlées",
        "stop": "Carte d'arrêt",
        "col_coup": "Coup",
        "col_cards": "Cartes",
        "col_result": "Résultat",
        "col_notes": "Incidents",
        "col_seance": "Séance",
        "col_table": "Table",
        "col_taille": "Taille",
        "col_seq": "Séq.",
        "col_where": "Séance / taille / coup",
        "col_message": "Constat (mots du vérificateur)",
        "between": "entre les coups",
        "burn_row": "brûlées",
        "before": "avant la première taille",
        "stop_ok": "sortie en position %d : %d cartes derrière elle, %d attendues — conforme",
        "stop_bad": "sortie en position %d : %d cartes derrière elle, %d attendues — NON CONFORME",
        "stop_none": "pas encore sortie : %d cartes sorties, la taille s'arrête avant la carte d'arrêt",
        "stop_after": "coup donné après la carte d'arrêt (S-STOP)",
        "stop_short": "conforme",
        "stop_short_bad": "NON CONFORME",
        "stop_short_none": "non sortie",
        "winner": "gagnant : %s",
        "winners": "tableau1 : %s, tableau2 : %s",
        "chart": "Cartes données par coup",
        "chart_coups": "coups",
        "legend_bar": "cartes du coup",
        "legend_incident": "coup avec incident",
        "legend_alarm": "alarme",
        "legend_finding": "constat",
        "legend_forced": "carte forcée",
        "legend_double": "sortie double",
        "legend_power": "mise sous tension",
        "legend_stop": "carte d'arrêt",
        "legend_limits": "minimum et maximum du coup",
        "no_coup": "aucun coup",
        "gloss": "",
        "decks": "%d jeux, carte d'arrêt avant les %d dernières cartes, %d à %d cartes par coup",
        "footer": "Établi par sabot report à partir du journal du sabot. Les constats sont ceux de sabot log "
                  "verify ; chacun cite l'exigence (docs/requirements.md) et l'article du règlement des jeux "
                  "de cercle.",
        "card_n": "carte %d",
        "cards_n": "%d cartes",
        "utc": "UTC",
        "colon": " : ",
    },
    "en": {
        "title": "Approval report — journal of sabot no. %s",
        "lang": "en",
        "identity": "The shoe and its firmware",
        "sabot": "Sabot no.",
        "firmware": "Firmware (segment headers)",
        "key": "Journal key",
        "key_dev": "the DEVELOPMENT key: it signs the simulator's and the tests' journals, never a casino shoe's",
        "key_given": "provided key (%s)",
        "key_id": "key id %s",
        "other_keys": "segments signed under key id %s",
        "segments": "Segments",
        "period": "Period",
        "journal": "Journal read",
        "integrity": "Journal integrity",
        "intact": "INTACT",
        "broken": "BROKEN",
        "intact_words": "framing, CRCs, SHA-256 chain, HMAC tags, sequence numbers and time order checked",
        "broken_words": "the journal was altered, truncated or signed with another key: see the J-TAMPER findings",
        "records": "Records",
        "seq": "seq %d to %d",
        "summary": "Overview",
        "findings": "The verifier's findings",
        "no_findings": "No finding: the journal keeps every rule it can show.",
        "finding_count": "%d finding(s)",
        "seance": "Séance %d",
        "table": "table %s",
        "by": "assigned by employee no. %d",
        "taille": "Taille %d",
        "game": "Game",
        "coups": "Coups",
        "dealt": "Cards dealt",
        "burned": "Burned",
        "stop": "Stop card",
        "col_coup": "Coup",
        "col_cards": "Cards",
        "col_result": "Result",
        "col_notes": "Incidents",
        "col_seance": "Séance",
        "col_table": "Table",
        "col_taille": "Taille",
        "col_seq": "Seq",
        "col_where": "Séance / taille / coup",
        "col_message": "Finding (the verifier's words)",
        "between": "between coups",
        "burn_row": "burned",
        "before": "before the first taille",
        "stop_ok": "out at position %d: %d cards behind it, %d expected — conforms",
        "stop_bad": "out at position %d: %d cards behind it, %d expected — DOES NOT CONFORM",
        "stop_none": "not out yet: %d cards out, the taille ends before the stop card",
        "stop_after": "a coup dealt after the stop card (S-STOP)",
        "stop_short": "conforms",
        "stop_short_bad": "DOES NOT CONFORM",
        "stop_short_none": "not out",
        "winner": "winner: %s",
        "winners": "tableau1: %s, tableau2: %s",
        "chart": "Cards dealt per coup",
        "chart_coups": "coups",
        "legend_bar": "cards of the coup",
        "legend_incident": "coup with an incident",
        "legend_alarm": "alarm",
        "legend_finding": "finding",
        "legend_forced": "forced card",
        "legend_double": "double feed",
        "legend_power": "power-up",
        "legend_stop": "stop card",
        "legend_limits": "coup minimum and maximum",
        "no_coup": "no coup",
        "gloss": "English gloss: ",
        "decks": "%d decks, stop card before the last %d cards, %d to %d cards a coup",
        "footer": "Made by sabot report from the shoe's journal. The findings are sabot log verify's; each "
                  "cites its requirement (docs/requirements.md) and the article of the rules for circle "
                  "games.",
        "card_n": "card %d",
        "cards_n": "%d cards",
        "utc": "UTC",
        "colon": ": ",
    },
}


class Words:
    """The report's words in one language: its own (w["key"]), a code's (w.of(words.ALARMS, code)), a phrase's
    (w.phrase(words.STANDS)), a requirement's title."""

    def __init__(self, lang):
        self.lang = lang
        self.text = TEXT[lang]
        self.index = words.LANGUAGES[lang]

    def __getitem__(self, key):
        return self.text[key]

    def of(self, table, code):
        return words.said(table, code, self.index)

    def phrase(self, pair):
        return pair[self.index]

    def title(self, rid):
        pair = TITLES.get(rid)
        return pair[self.lang != "fr"] if pair else ""
