"""The one table of words for the shoe's numbers, keyed by their constants: (English, French, identifier).

The identifier is a name for machines, part of a format (`sabot log export`'s columns, the sim's trace); English
and French are words for people, free to improve: the sim's timeline says the English, `sabot log show` and the
report their reader's language (host_tools/sabot/words.py), the web page both (its words.js is written from this
table by `sabot web`, host_tools/sabot/web/build.py). Refusals, games and phases have no identifier. A new code:
its constant (firmware/records.py, firmware/events.py), its line here; tests/host/test_export.py fails without it.
Plain tuples and dicts, so that the sim's observer loads it on the MicroPython VM too.
"""

from firmware import article61 as a61
from firmware import events as e
from firmware import games
from firmware import records as r
from firmware.record_names import R_BURST, unpack_totals, unpack_winners

EN = 0
FR = 1
ID = 2

RECORDS = {
    r.R_BOOT: ("boot", "mise sous tension", "boot"),
    r.R_SEANCE: ("seance", "séance ouverte", "seance"),
    r.R_LOAD: ("load", "sabot chargé", "load"),
    r.R_NO_MORE_BETS: ("no more bets", "rien ne va plus", "no_more_bets"),
    r.R_CARD: ("card", "carte", "card"),
    r.R_COUP_END: ("coup end", "fin du coup", "coup_end"),
    r.R_ALARM: ("alarm", "alarme", "alarm"),
    r.R_CLEAR: ("clear", "alarme levée par le superviseur", "clear"),
    r.R_FINDING: ("finding", "constat du sabot", "finding"),
    r.R_CLOSED: ("closed", "sabot fermé après le coup de la carte d'arrêt", "closed"),
    r.R_RELEASE: ("release", "libération d'une carte", "release"),
    r.R_RECOVERY: ("recovery", "reprise après coupure", "recovery"),
    r.R_STAND: ("stand", "annonce : la main reste", "stand"),
    r.R_RESULT: ("result", "résultat", "result"),
    r.R_SEANCE_CLOSE: ("seance close", "séance close", "seance_close"),
    r.R_OUVERTE: ("banque ouverte seance", "séance de banque ouverte", "ouverte"),
    r.R_REFUSAL: ("seance refused", "ouverture de séance refusée", "refusal"),
    r.R_CANDIDATE: ("candidate for the bank", "candidat à la banque", "candidate"),
    r.R_DRAW: ("bank drawn by lot", "banque adjugée par tirage au sort", "draw"),
    r.R_OUVERTE_DAY: ("banque ouverte day restated", "journée de banque ouverte rappelée", "ouverte_day"),
    r.R_ELEMENT: ("secure element counter with no checkpoint", "compteur de l'élément sécurisé sans point de contrôle",
                  "element"),
    r.R_AUTHORITY: ("the casino's authority changed", "changement d'autorité du casino", "authority"),
    R_BURST: ("requests answered busy on the cable", "rafale de requêtes sur le câble, répondues « occupé »",
                "burst"),
}
BURSTS = ("burst %d since power-up (requests answered busy; a record a minute at most)",
          "rafale n° %d depuis la mise sous tension (requêtes répondues « occupé » ; un enregistrement par minute "
          "au plus)")
BOOTS = {  # R_BOOT's code: why the shoe booted; only a power-up may follow a power cut
    r.BOOT_POWER: ("power-up", "mise sous tension", "power"),
    r.BOOT_RESTART: ("restart, no power cut", "redémarrage, sans coupure de courant", "restart"),
    r.BOOT_WATCHDOG: ("restart by the watchdog, no power cut", "redémarrage par le chien de garde, sans coupure de "
                      "courant", "watchdog"),
}
DISPOSITIONS = {
    r.DEALT: ("dealt", "donnée", "dealt"),
    r.BURNED: ("burned", "brûlée", "burned"),
    r.STOP_CARD: ("stop card", "carte d'arrêt", "stop"),
}
CONDITIONS = {
    r.NORMAL: ("normal", "normale", "normal"),
    r.FORCED: ("forced", "forcée", "forced"),
    r.DOUBLE_FEED: ("double feed", "sortie double", "double_feed"),
}
ALARMS = {  # alarms and faults
    r.ALARM_FORCED: ("forced extraction", "extraction forcée", "forced"),
    r.FAULT_DOUBLE_FEED: ("double feed", "sortie double", "double_feed"),
    r.FAULT_JAM: ("jam", "bourrage : aucune carte sortie", "jam"),
    r.FAULT_JOURNAL: ("journal cannot be written", "journal impossible à écrire", "journal"),
    r.FAULT_JOURNAL_FULL: ("journal flash nearly full", "mémoire du journal presque pleine", "journal_full"),
    r.FAULT_OVERRUN: ("interrupt events lost", "événements perdus", "overrun"),
    r.FAULT_FIRMWARE: ("firmware differs from the approved release", "logiciel différent de la version agréée",
                       "firmware"),
    r.FAULT_ROLLBACK: ("journal behind its last signed checkpoint (rollback)",
                       "journal en deçà de son dernier point de contrôle signé (retour en arrière)", "rollback"),
    r.FAULT_DEVKEY: ("no secure element answers: the shoe has no key of its own",
                     "aucun élément sécurisé ne répond : le sabot n'a pas de clé propre", "development_key"),
    r.FAULT_ELEMENT: ("secure element failed: a checkpoint not signed",
                      "élément sécurisé défaillant : un point de contrôle non signé", "element"),
}
FINDINGS = {  # the shoe's own findings (R_FINDING); the verifier's are sabot.rules'
    r.F_STOP_POSITION: ("stop card misplaced (S-STOPPOS)", "carte d'arrêt mal placée (S-STOPPOS)", "stop_position"),
    r.F_FOREIGN_CARD: ("identity over the deck count (S-COUNT)", "carte au-delà du nombre de jeux (S-COUNT)",
                       "foreign_card"),
    r.F_SHORT_COUP: ("coup under the game's minimum", "coup sous le minimum du jeu", "short_coup"),
    r.F_NO_STOP: ("no stop card where it must come out: the shoe closes after the coup (S-STOP)",
                  "pas de carte d'arrêt là où elle doit sortir : le sabot se ferme après le coup (S-STOP)", "no_stop"),
}
ENDS = {
    r.END_BUTTON: ("coup end pressed", "fin de coup annoncée", "button"),
    r.END_MAXIMUM: ("maximum reached", "maximum atteint", "maximum"),
    r.END_TABLEAU: ("no hand may draw", "aucune main ne peut tirer", "tableau"),
}
RELEASES = {
    r.REL_DEAL: ("deal", "donne", "deal"),
    r.REL_BURN: ("burn", "brûlage", "burn"),
}
WINNERS = {  # the games' own words, the same in both languages
    r.WIN_PONTE: ("ponte", "ponte", "ponte"),
    r.WIN_BANQUE: ("banque", "banque", "banque"),
    r.WIN_EGALITE: ("égalité", "égalité", "egalite"),
}
BANK = {  # the bank's result on a tableau as the croupier announces it (Article 62), in French in both languages
    r.WIN_BANQUE: ("gagnant", "gagnant", "gagnant"),
    r.WIN_PONTE: ("perdant", "perdant", "perdant"),
    r.WIN_EGALITE: ("égalité", "égalité", "egalite"),
}
EVENTS = {
    e.EV_POWER_UP: ("power up", "mise sous tension", "power_up"),
    e.EV_SEANCE: ("seance", "séance", "seance"),
    e.EV_LOAD: ("load", "chargement", "load"),
    e.EV_NO_MORE_BETS: ("no more bets", "rien ne va plus", "no_more_bets"),
    e.EV_COUP_END: ("coup end", "fin du coup", "coup_end"),
    e.EV_BURN: ("burn", "brûlage", "burn"),
    e.EV_DRAW: ("draw", "carte", "draw"),
    e.EV_CARD: ("card", "carte", "card"),
    e.EV_TICK: ("tick", "minuterie", "tick"),
    e.EV_CLEAR: ("clear alarm", "clé du superviseur", "clear_alarm"),
    e.EV_FAULT: ("fault", "défaut", "fault"),
    e.EV_STAND: ("stand", "annonce", "stand"),
    e.EV_FIRMWARE: ("firmware", "firmware", "firmware"),
    e.EV_SEANCE_CLOSE: ("seance close", "clôture de séance", "seance_close"),
    e.EV_CANDIDATE: ("candidate", "candidat", "candidate"),
    e.EV_ADJUDICATE: ("draw the bank", "tirage de la banque", "adjudicate"),
    e.EV_ELEMENT: ("element counter spent", "compteur de l'élément consommé", "element"),
    e.EV_AUTHORITY: ("authority change", "changement d'autorité", "authority"),
}
COMMANDS = {
    e.CMD_GATE_OPEN: ("gate open", "porte ouverte", "gate_open"),
    e.CMD_GATE_CLOSE: ("gate close", "porte fermée", "gate_close"),
    e.CMD_INDICATOR: ("indicator", "voyant", "indicator"),
    e.CMD_BUZZER: ("buzzer", "avertisseur", "buzzer"),
}
INDICATORS = {
    e.IND_LOCKED: ("locked", "verrouillé", "locked"),
    e.IND_DEALING: ("dealing", "distribution", "dealing"),
    e.IND_ALARM: ("alarm", "alarme", "alarm"),
    e.IND_CLOSED: ("closed", "fermé", "closed"),
}
REFUSALS = {  # why the controller refused an input (Controller.refused)
    e.REF_NO_SHOE: ("no shoe loaded", "pas de sabot chargé"),
    e.REF_LOCKED: ("shoe locked", "sabot verrouillé"),
    e.REF_CLOSED: ("shoe closed after the stop card", "sabot fermé après la carte d'arrêt"),
    e.REF_ALARM: ("alarm raised", "alarme en cours"),
    e.REF_BUSY: ("a release is under way", "une libération est en cours"),
    e.REF_IN_COUP: ("a coup is under way", "un coup est en cours"),
    e.REF_NOT_IN_COUP: ("no coup under way", "aucun coup en cours"),
    e.REF_TAILLES: ("two tailles already in this séance", "déjà deux tailles dans cette séance"),
    e.REF_NO_ALARM: ("no alarm to clear", "aucune alarme à lever"),
    e.REF_BAD_GAME: ("unknown game", "jeu inconnu"),
    e.REF_NOT_OPTIONAL: ("the tableau leaves this hand no choice", "le tableau ne laisse pas le choix à cette main"),
    e.REF_FIRMWARE: ("a firmware fault clears only when the approved release is deployed",
                     "un défaut de firmware ne se lève qu'en déployant la version approuvée"),
    e.REF_BAD_FAULT: ("no such fault", "aucun défaut de ce code"),
    e.REF_NO_SEANCE: ("no séance open", "aucune séance ouverte"),
    e.REF_SEANCES: ("two banque ouverte séances already this day (Article 61)",
                    "déjà deux séances de banque ouverte dans la journée (article 61)"),
    e.REF_BREAK: ("the break after the day's first séance is not over (Article 61)",
                  "la pause (le dîner) après la première séance du jour n'est pas finie (article 61)"),
    e.REF_CANDIDATES: ("a draw needs 2 to 8 candidates, each once", "un tirage demande de 2 à 8 candidats, chacun une "
                       "fois"),
    e.REF_NOT_OUVERTE: ("not a banque ouverte séance", "pas une séance de banque ouverte"),
    e.REF_SEANCE_OPEN: ("a séance is open: close it first", "une séance est ouverte : la fermer d'abord"),
}
PHASES = {  # firmware/controller.py's IDLE, BETS, DEALING, CLOSED (not imported: readers load no controller)
    0: ("no shoe", "pas de sabot"),
    1: ("bets open", "mises ouvertes"),
    2: ("coup under way", "coup en cours"),
    3: ("closed after the stop card", "fermé après la carte d'arrêt"),
}
GAMES = {  # the games' French names, the same in both languages
    games.CHEMIN_DE_FER: ("chemin de fer", "chemin de fer"),
    games.DEUX_TABLEAUX_LIMITEE: ("baccara à deux tableaux, banque limitée", "baccara à deux tableaux, banque limitée"),
    games.DEUX_TABLEAUX_OUVERTE: ("baccara à deux tableaux, banque ouverte", "baccara à deux tableaux, banque ouverte"),
}
HANDS = (("ponte", "banque"), ("tableau1", "tableau2", "banque"))  # chemin de fer's, then deux tableaux'

# Words around a record's other fields: (English, French) formats.
STANDS = ("%s stands", "%s reste")  # R_STAND: the hand
_OUVERTE = ("rank %d in the casino day, break %d min", "séance n° %d du jour, pause de %d min")
_DRAW = ("%d candidates, random value %d: the bank to player %d",
         "%d candidats, valeur tirée %d : banque au joueur n° %d")
_CANDIDATE = ("player %d", "joueur n° %d")
_DAY = ("%d séance(s) in the casino day, the last %s", "%d séance(s) du jour, la dernière %s")
_DAY_LAST = (("open", "closed at %s UTC", "ended unclosed"), ("ouverte", "close à %s UTC", "finie sans clôture"))
POWER_CUT = ("power cut, then power back", "coupure de courant, puis remise sous tension")  # a power-up not the first
TORN = ("%d torn bytes cut", "%d octets coupés")  # R_RECOVERY's code
# R_ELEMENT: why (its condition, EL_*), then the values spent and the counter (docs/journal-format.md).
_ELEMENT = {
    r.EL_CUT: ("at power-up, the element's counter %d is %d ahead of the last checkpoint's %d: the power was cut "
               "during a checkpoint", "à la mise sous tension, le compteur de l'élément, %d, dépasse de %d celui du "
               "dernier point de contrôle, %d : courant coupé pendant un point de contrôle"),
    r.EL_FAULT: ("the element failed to sign a checkpoint: counter %d, %d value(s) spent after %d with no checkpoint",
                 "l'élément n'a pas pu signer un point de contrôle : compteur %d, %d valeur(s) consommée(s) après %d "
                 "sans point de contrôle"),
}
# R_AUTHORITY: what changed (its condition's bits 0-3, AU_*), with its values before and after (P-AUTHORITY).
AUTHORITY = {
    r.AU_NUMBER: ("sabot number %d → %d", "numéro du sabot %d → %d"),
    r.AU_KEY: ("casino key %s → %s", "clé du casino %s → %s"),
    r.AU_CLOCK: ("clock %s → %s UTC", "horloge %s → %s UTC"),
    r.AU_CLOCK_FORCED: ("clock %s → %s UTC, FORCED more than a day ahead (--force)",
                        "horloge %s → %s UTC, FORCÉE plus d'un jour en avant (--force)"),
}
_ASKED = (("; asked under casino key %s…", "; over mpremote, no casino key"),
          (" ; demandé sous la clé du casino %s…", " ; par mpremote, sans clé du casino"))
UNCERTAIN = ("release uncertain", "libération incertaine : on ne sait pas si une carte est sortie")  # its condition
_RESULT = (("; winner: ", "; tableau1: %s, tableau2: %s"), (" ; gagnant : ", " ; tableau1 : %s, tableau2 : %s"))
_BANK = (("; bank: %s", "; bank: tableau1 %s, tableau2 %s"), (" ; banque : %s", " ; banque : tableau1 %s, tableau2 %s"))
LANGUAGES = {"en": EN, "fr": FR}


def said(table, code, lang=EN):
    """A code's words (EN, FR) or identifier (ID), or "code N" for one this version does not know (a newer or
    damaged journal)."""
    entry = table.get(code)
    return entry[lang] if entry and lang < len(entry) else "code %d" % code


def article61(rtype, card, disposition, code, lang=EN, condition=0):
    """What a banque ouverte record says beyond its type (Article 61), or None for another record."""
    if rtype == r.R_OUVERTE_DAY:
        last = 0 if card & a61.DAY_OPEN else 2 if card & a61.DAY_UNCLOSED else 1
        words = _DAY_LAST[lang][last]
        if last == 1:
            at = (code | disposition << 16 | condition << 24) % 86400
            words %= "%02d:%02d:%02d" % (at // 3600, at // 60 % 60, at % 60)
        return _DAY[lang] % (card & 3, words)
    if rtype == r.R_OUVERTE:
        return _OUVERTE[lang] % (code, disposition)
    if rtype == r.R_REFUSAL:
        return said(REFUSALS, code, lang)
    if rtype == r.R_CANDIDATE:
        return _CANDIDATE[lang] % code
    if rtype == r.R_DRAW:
        return _DRAW[lang] % (card, code, disposition)
    return None


def element(card, disposition, condition, code, lang=EN):
    """What an R_ELEMENT record says: why, the element's counter, the values spent and the counter before them."""
    counter = code | disposition << 16
    form = _ELEMENT.get(condition)
    if form is None:
        return "code %d, counter %d, %d value(s)" % (condition, counter, card)
    return form[lang] % (counter, card, counter - card)


def authority(what, who, before, after, lang=EN):
    """What a change of the casino's authority says (R_AUTHORITY's three records, their values joined: who asked,
    before, after; key ids' first 4 bytes as little-endian values)."""
    form = AUTHORITY.get(what)
    if form is None:
        return "code %d: %d → %d" % (what, before, after)
    if what == r.AU_KEY:
        before, after = key32(before) or ("none", "aucune")[lang], key32(after)
    elif what != r.AU_NUMBER:
        before, after = _utc(before), _utc(after)
    asked = _ASKED[lang][0] % key32(who) if who else _ASKED[lang][1]
    return form[lang] % (before, after) + asked


def authority_part(what, part, value, lang=EN):
    """One R_AUTHORITY record alone (log show, log export): what changed, and who asked, or the value before or
    after."""
    head = AUTHORITY.get(what, ("code %d", "code %d"))[lang].split(" %")[0]
    if what == r.AU_CLOCK_FORCED:
        head += (" FORCED (--force)", " FORCÉE (--force)")[lang]
    if part == 0:
        return head + (_ASKED[lang][0] % key32(value) if value else _ASKED[lang][1])
    if what == r.AU_KEY:
        value = key32(value) or ("none", "aucune")[lang]
    elif what != r.AU_NUMBER:
        value = _utc(value) + " UTC"
    return "%s%s%s" % (head, (", before: ", ", after: ", " ; avant : ", " ; après : ")[2 * lang + part - 1], value)


def key32(value):
    """An R_AUTHORITY key value as the key id's first 4 bytes in hexadecimal ("" for none)."""
    return value.to_bytes(4, "little").hex() if value else ""


def _utc(seconds):
    import time

    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds + 1577836800))


def game(code):
    return said(GAMES, code) if code in GAMES else "game %d" % code


def hand(game_code, number):
    """A hand's name in a game (pack_hand's number, unpacked)."""
    hands = HANDS[game_code != games.CHEMIN_DE_FER]
    return hands[number] if number < len(hands) else "hand %d" % number


def result(code, hands, lang=EN):
    """A result record as people say it (docs/journal-format.md): each hand's total, who won each tableau, then the
    bank's result on each as the croupier announces it (Article 62: gagnant, perdant, égalité)."""
    names = HANDS[hands == 3]
    text = ", ".join("%s %d" % (names[h], total) for h, total in enumerate(unpack_totals(code, hands)))
    won = unpack_winners(code, hands)
    winners = tuple(said(WINNERS, w, lang) for w in won)
    bank = tuple(said(BANK, w, lang) for w in won)
    if hands == 2:
        return text + _RESULT[lang][0] + winners[0] + _BANK[lang][0] % bank
    return text + _RESULT[lang][1] % winners + _BANK[lang][1] % bank
