"""The words for people of every code a journal carries, in English and French, keyed by the constants of
firmware/records.py (and firmware/games.py): `sabot log export` says the English, `log show` and the report their
reader's language. The identifiers of the export's event, disposition and condition columns are part of its format and
stay firmware/record_names.py's; these are words, free to improve. A code missing here (a newer or damaged
journal) reads "code N". A new code: its constant in records.py, its pair of words here."""

from firmware import games, records
from firmware.record_names import unpack_totals, unpack_winners

EN = 0  # a pair's index: (English, French)
FR = 1
LANGUAGES = {"en": EN, "fr": FR}

RECORDS = {
    records.R_BOOT: ("boot", "mise sous tension"),
    records.R_SEANCE: ("seance", "séance ouverte"),
    records.R_LOAD: ("load", "sabot chargé"),
    records.R_NO_MORE_BETS: ("no more bets", "rien ne va plus"),
    records.R_CARD: ("card", "carte"),
    records.R_COUP_END: ("coup end", "fin du coup"),
    records.R_ALARM: ("alarm", "alarme"),
    records.R_CLEAR: ("clear", "alarme levée par le superviseur"),
    records.R_FINDING: ("finding", "constat du sabot"),
    records.R_CLOSED: ("closed", "sabot fermé après le coup de la carte d'arrêt"),
    records.R_RELEASE: ("release", "libération d'une carte"),
    records.R_RECOVERY: ("recovery", "reprise après coupure"),
    records.R_STAND: ("stand", "annonce : la main reste"),
    records.R_RESULT: ("result", "résultat"),
    records.R_SEANCE_CLOSE: ("seance close", "séance close"),
}
BOOTS = {  # R_BOOT's code: why the shoe booted; only a power-up may follow a power cut
    records.BOOT_POWER: ("power-up", "mise sous tension"),
    records.BOOT_RESTART: ("restart, no power cut", "redémarrage, sans coupure de courant"),
    records.BOOT_WATCHDOG: ("restart by the watchdog, no power cut", "redémarrage par le chien de garde, sans coupure "
                            "de courant"),
}
DISPOSITIONS = {
    records.DEALT: ("dealt", "donnée"),
    records.BURNED: ("burned", "brûlée"),
    records.STOP_CARD: ("stop card", "carte d'arrêt"),
}
CONDITIONS = {
    records.NORMAL: ("normal", "normale"),
    records.FORCED: ("forced", "forcée"),
    records.DOUBLE_FEED: ("double feed", "sortie double"),
}
ALARMS = {  # alarms and faults
    records.ALARM_FORCED: ("forced extraction", "extraction forcée"),
    records.FAULT_DOUBLE_FEED: ("double feed", "sortie double"),
    records.FAULT_JAM: ("jam", "bourrage : aucune carte sortie"),
    records.FAULT_JOURNAL: ("journal cannot be written", "journal impossible à écrire"),
    records.FAULT_JOURNAL_FULL: ("journal flash nearly full", "mémoire du journal presque pleine"),
    records.FAULT_OVERRUN: ("interrupt events lost", "événements perdus"),
    records.FAULT_FIRMWARE: ("firmware differs from the approved release", "logiciel différent de la version agréée"),
    records.FAULT_ROLLBACK: ("journal shorter than the head kept beside it (rollback)",
                             "journal plus court que la tête conservée à part (retour en arrière)"),
    records.FAULT_DEVKEY: ("development key: the shoe has no key of its own",
                           "clé de développement : le sabot n'a pas de clé propre"),
}
FINDINGS = {  # the shoe's own findings (R_FINDING); the verifier's are sabot.rules'
    records.F_STOP_POSITION: ("stop card misplaced (S-STOPPOS)", "carte d'arrêt mal placée (S-STOPPOS)"),
    records.F_FOREIGN_CARD: ("identity over the deck count (S-COUNT)", "carte au-delà du nombre de jeux (S-COUNT)"),
    records.F_SHORT_COUP: ("coup under the game's minimum", "coup sous le minimum du jeu"),
    records.F_NO_STOP: ("no stop card where it must come out: the shoe closes after the coup (S-STOP)",
                        "pas de carte d'arrêt là où elle doit sortir : le sabot se ferme après le coup (S-STOP)"),
}
ENDS = {
    records.END_BUTTON: ("coup end pressed", "fin de coup annoncée"),
    records.END_MAXIMUM: ("maximum reached", "maximum atteint"),
    records.END_TABLEAU: ("no hand may draw", "aucune main ne peut tirer"),
}
RELEASES = {
    records.REL_DEAL: ("deal", "donne"),
    records.REL_BURN: ("burn", "brûlage"),
}
WINNERS = {  # the games' own words, the same in both languages
    records.WIN_PONTE: ("ponte", "ponte"),
    records.WIN_BANQUE: ("banque", "banque"),
    records.WIN_EGALITE: ("égalité", "égalité"),
}
GAMES = {  # the games' French names, the same in both languages
    games.CHEMIN_DE_FER: "chemin de fer",
    games.DEUX_TABLEAUX_LIMITEE: "baccara à deux tableaux, banque limitée",
    games.DEUX_TABLEAUX_OUVERTE: "baccara à deux tableaux, banque ouverte",
}
HANDS = (("ponte", "banque"), ("tableau1", "tableau2", "banque"))  # chemin de fer's, then deux tableaux'

# Words around a record's other fields: (English, French) formats.
STANDS = ("%s stands", "%s reste")  # R_STAND: the hand
TORN = ("%d torn bytes cut", "%d octets coupés")  # R_RECOVERY's code
POWER_CUT = ("power cut, then power back", "coupure de courant, puis remise sous tension")  # a power-up not the first
UNCERTAIN = ("release uncertain", "libération incertaine : on ne sait pas si une carte est sortie")  # its condition


def said(words, code, lang=EN):
    """A code's words in a language (EN or FR), or "code N" for one this version does not know."""
    pair = words.get(code)
    return pair[lang] if pair else "code %d" % code


def game(code):
    return GAMES.get(code, "game %d" % code)


def hand(game_code, number):
    """A hand's name in a game (pack_hand's number, unpacked)."""
    hands = HANDS[game_code != games.CHEMIN_DE_FER]
    return hands[number] if number < len(hands) else "hand %d" % number


def result(code, hands):
    """A result record as `sabot log show` says it (docs/journal-format.md): each hand's total, then who won
    each tableau."""
    names = HANDS[hands == 3]
    text = ", ".join("%s %d" % (names[h], total) for h, total in enumerate(unpack_totals(code, hands)))
    winners = [said(WINNERS, w) for w in unpack_winners(code, hands)]
    if hands == 2:
        return text + "; winner: " + winners[0]
    return text + "; tableau1: %s, tableau2: %s" % (winners[0], winners[1])
