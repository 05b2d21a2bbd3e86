"""The regulation's own words for each requirement the report cites, and each requirement in a few words."""

from sabot.rules import ARTICLES

# The regulation's own words for each requirement (docs/regulation/casino-games-articles-58-62.fr.txt):
# ID -> (article, French quotation, English gloss). A quotation is verbatim; " […] " joins two passages of
# the same article. The article is rules.ARTICLES' (tests/host/test_report.py checks both).
QUOTES = {
    "G-CF": ("Article 58", "Au baccara chemin de fer, il est fait usage de six jeux de cinquante-deux cartes, trois "
             "d'une couleur et trois de l'autre.",
             "At chemin de fer, six decks of fifty-two cards are used, three of one colour and three of the other."),
    "G-DTL": ("Article 58", "Au baccara à deux tableaux, il doit être obligatoirement fait usage de cartes neuves à "
              "chaque séance. On emploie trois jeux de cinquante-deux cartes, deux d'une couleur et un de l'autre "
              "pour la banque dite « limitée »",
              "At baccara à deux tableaux, new cards must be used at each séance. Three decks of fifty-two cards are "
              "used, two of one colour and one of the other, for the so-called “limited” bank"),
    "G-DTO": ("Article 61", "A chacune des séances, le nombre des tailles est de deux maximum.",
              "At each séance, there are at most two tailles."),
    "O-SEANCES": ("Article 61", "Le baccara à banque ouverte ne peut être pratiqué dans les casinos spécialement "
                  "autorisés qu'à une seule table, dont le fonctionnement est limité à deux séances par jour",
                  "Baccara à banque ouverte may only be played, in casinos specially authorised, at one table, "
                  "limited to two séances a day"),
    "O-BREAK": ("Article 61", "limité à deux séances par jour, séparées par le dîner.",
                "limited to two séances a day, separated by dinner."),
    "O-DRAW": ("Article 61", "En cas de concurrence, la banque est adjugée par tirage au sort.",
               "When several want it, the bank is adjudicated by lot."),
    "S-ONE": ("Article 58", "disposées de telle façon qu'elles descendent automatiquement vers l'orifice de "
              "l'appareil et qu'elles ne puissent en sortir qu'une à une.",
              "arranged so that they slide down to the mouth of the device by themselves and can only come out one "
              "at a time."),
    "S-LOCK": ("Article 58", "Il est interdit en toute circonstance de détacher des cartes (c'est-à-dire de les "
               "extraire des sabots) avant l'arrêt des enjeux par le croupier.",
               "It is forbidden in all circumstances to detach cards (that is, to take them out of the shoe) before "
               "the croupier has stopped the bets."),
    "S-FAILSAFE": ("Article 58", "Il est interdit en toute circonstance de détacher des cartes (c'est-à-dire de les "
                   "extraire des sabots) avant l'arrêt des enjeux par le croupier.",
                   "It is forbidden in all circumstances to detach cards (that is, to take them out of the shoe) "
                   "before the croupier has stopped the bets."),
    "S-FORCED": ("Article 58", "Les cartes détachées ne peuvent, sous quelque prétexte que ce soit, être réintégrées "
                 "dans le sabot […] la carte ou les cartes détachées doivent obligatoirement être « brûlées »",
                 "Detached cards may not, on any pretext, be put back into the shoe […] the detached card or cards "
                 "must be “burned”"),
    "S-BURN": ("Article 58", "la carte ou les cartes détachées doivent obligatoirement être « brûlées », le joueur "
               "prenant la suite n'étant pas admis à les utiliser.",
               "the detached card or cards must be “burned”, the next player not being allowed to use them."),
    "S-STOP": ("Article 58", "Lorsque cette carte apparaît, aucun autre coup ne doit être donné.",
               "When this card appears, no other coup may be dealt."),
    "S-STOPPOS": ("Article 58", "une carte d'arrêt est placée à la fin du jeu avant les sept dernières cartes au "
                  "baccara chemin de fer et avant les dix dernières cartes au baccara à deux tableaux.",
                  "a stop card is placed at the end of the pack, before the last seven cards at chemin de fer and "
                  "before the last ten cards at baccara à deux tableaux."),
    "S-COUNT": ("Article 58", "Au baccara chemin de fer, il est fait usage de six jeux de cinquante-deux cartes",
                "At chemin de fer, six decks of fifty-two cards are used (three at banque limitée): no card can "
                "come out more often than the decks loaded."),
    "S-IDENT": ("Article 58", "ils doivent être numérotés par l'établissement. […] L'affectation des sabots aux "
                "différentes tables est faite par le directeur ou un employé responsable au début de chaque séance",
                "they must be numbered by the establishment. […] The shoes are assigned to the tables by the "
                "director or a responsible employee at the start of each séance"),
    "T-CF": ("Article 60", "Aucune pénalité pécuniaire ne peut être appliquée aux joueurs qui ont fait un faux "
             "tirage ou commis une infraction à la règle du jeu",
             "No money penalty may be applied to players who drew against the rules (faux tirage) or broke the "
             "rules of the game"),
    "T-DT": ("Article 60", "Aucune pénalité pécuniaire ne peut être appliquée aux joueurs qui ont fait un faux "
             "tirage ou commis une infraction à la règle du jeu",
             "No money penalty may be applied to players who drew against the rules (faux tirage) or broke the "
             "rules of the game"),
}
_APPROVED_MODEL = ("Article 58", "Les cartes sont ensuite placées dans un distributeur ou sabot, d'un modèle agréé "
                   "par le ministre de l'intérieur",
                   "The cards are then placed in a dispenser or shoe of a model approved by the Minister of the "
                   "Interior")
for _rid in ("J-EVERY", "J-DURABLE", "J-TAMPER", "J-TIME", "J-EVENTS", "H-SIM", "H-VERIFY", "H-EXPORT", "H-FIRMWARE",
             "P-FRAME"):  # the shoe's protocol is the approved model's
    QUOTES[_rid] = _APPROVED_MODEL
# The casino's authority on its shoes (their numbers, its key, their clocks) and its registry of them: the numbering
# by the establishment and the assignment Article 58 asks for.
QUOTES["P-AUTHORITY"] = QUOTES["K-REGISTRY"] = QUOTES["S-IDENT"]

# What each requirement is about, in a few words: (French, English).
TITLES = {
    "G-CF": ("chemin de fer", "chemin de fer"),
    "G-DTL": ("deux tableaux, banque limitée", "deux tableaux, banque limitée"),
    "G-DTO": ("deux tableaux, banque ouverte", "deux tableaux, banque ouverte"),
    "S-ONE": ("une carte à la fois", "one card at a time"),
    "S-LOCK": ("sabot verrouillé pendant les enjeux", "shoe locked while bets are open"),
    "S-FAILSAFE": ("verrouillage en cas de défaut", "locked on any failure"),
    "S-FORCED": ("extraction forcée", "forced extraction"),
    "S-BURN": ("cartes brûlées", "burned cards"),
    "S-STOP": ("carte d'arrêt : aucun autre coup", "stop card: no other coup"),
    "S-STOPPOS": ("position de la carte d'arrêt", "stop card position"),
    "S-COUNT": ("carte étrangère", "foreign card"),
    "S-IDENT": ("numéro et affectation du sabot", "shoe number and assignment"),
    "T-CF": ("tableau du chemin de fer", "chemin de fer tableau"),
    "T-DT": ("tableau des deux tableaux", "deux tableaux tableau"),
    "J-EVERY": ("chaque carte au journal", "every card journalled"),
    "J-DURABLE": ("journal durable", "durable journal"),
    "J-TAMPER": ("intégrité du journal", "journal integrity"),
    "J-TIME": ("horloge du sabot", "the shoe's clock"),
    "J-EVENTS": ("événements au journal", "events journalled"),
    "P-AUTHORITY": ("autorité du casino sur le sabot", "the casino's authority on the shoe"),
    "K-REGISTRY": ("un numéro, un élément au registre", "one number, one element in the registry"),
    "P-FRAME": ("trames du câble contrôlées", "the cable's frames checked"),
}


def quote(rid):
    """(article, French quotation, English gloss) for a requirement; the article alone for one not quoted."""
    return QUOTES.get(rid, (ARTICLES.get(rid, ""), "", ""))
