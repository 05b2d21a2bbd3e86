"""The verifier's findings in French, for the inspector's report. sabot.rules and sabot.journalfile say them in
English for `sabot log verify`; here each is said again from what it is about, not translated from its words:
the rule findings from (requirement ID, the record they stand at: its type, disposition and condition, and its
fields), the integrity findings (J-TAMPER) from journalfile.ISSUES' templates, whose values they read. A finding
this catalogue does not know yet still reads in French: its requirement's title and the record it stands at."""

import re

from firmware import games, records
from firmware.format import words
from firmware.record_names import unpack_hand
from sabot import _frames
from sabot.journalfile import CARD, CODE, CONDITION, DISPOSITION, ISSUES, POSITION, TAILLE, TYPE, Unusable
from sabot.report.cardwords import short
from sabot.report.regulation import TITLES

GAMES = ("G-CF", "G-DTL", "G-DTO")
TABLEAUX = ("T-CF", "T-DT")

# J-TAMPER: the reader's issues, by the C core's code (journalfile.ISSUES gives the English and the values' names).
ISSUES_FR = {
    _frames.ALTERED: "%(name)s : enregistrement à l'octet %(offset)s modifié (CRC)",
    _frames.SEQUENCE: "la numérotation saute de %(before)s à %(seq)s : enregistrements supprimés, dupliqués ou "
                      "réordonnés",
    _frames.UNLINKED: "chaîne rompue avant le n° %(seq)s : un enregistrement supprimé, inséré ou déplacé ; la suite "
                      "de %(name)s ne peut être authentifiée",
    _frames.FORGED: "l'enregistrement n° %(seq)s ne porte pas une étiquette HMAC valide : modifié ou fabriqué",
    _frames.TIME_BACK: "l'heure recule au n° %(seq)s",
}
# J-TAMPER: what the reader says of segment headers and of the journal's ends (sabot.journalfile.Reader).
SEGMENTS_FR = (
    (r"(?P<name>\S+): segment header altered \(CRC\)", "%(name)s : en-tête de segment modifié (CRC)"),
    (r"(?P<name>\S+): segment header fails its HMAC", "%(name)s : l'en-tête de segment ne porte pas une étiquette "
                                                      "HMAC valide"),
    (r"(?P<name>\S+): written under another element \(key id (?P<theirs>\w+)\); the public key given has key id "
     r"(?P<mine>\w+)", "%(name)s : écrit sous un autre élément sécurisé, d'identifiant %(theirs)s ; la clé publique "
     "fournie a l'identifiant %(mine)s : ses signatures ne peuvent être vérifiées, fournir celle du sabot"),
    (r"(?P<name>\S+): written under another key \(key id (?P<id>\w+)\)", "%(name)s : écrit sous une autre clé "
                                                                        "(identifiant %(id)s)"),
    (r"^(?P<first>\S+) to (?P<last>\S+) \((?P<n>\d+) segments\) written under another key \(key id "
     r"(?P<theirs>\w+)\); the key given has key id (?P<mine>\w+)", "segments %(first)s à %(last)s (%(n)s) écrits "
     "sous une autre clé, d'identifiant %(theirs)s ; la clé fournie a l'identifiant %(mine)s : leurs étiquettes ne "
     "peuvent être vérifiées, fournir la clé du sabot (--key)"),
    (r"^(?P<name>\S+) written under another key \(key id (?P<theirs>\w+)\); the key given has key id "
     r"(?P<mine>\w+)", "segment %(name)s écrit sous une autre clé, d'identifiant %(theirs)s ; la clé fournie a "
     "l'identifiant %(mine)s : ses étiquettes ne peuvent être vérifiées, fournir la clé du sabot (--key)"),
    (r"(?P<name>\S+): the journal's first segments are missing \(segment (?P<n>\d+), after seq (?P<seq>\d+)\)",
     "%(name)s : les premiers segments du journal manquent (segment %(n)s, après le n° %(seq)s)"),
    (r"(?P<name>\S+): segments (?P<a>\d+) to (?P<b>\d+) are missing", "%(name)s : les segments %(a)s à %(b)s "
                                                                      "manquent"),
    (r"(?P<name>\S+): does not continue segment (?P<other>\S+)", "%(name)s ne fait pas suite au segment %(other)s "
                                                                 "(enregistrements supprimés ou remplacés)"),
    (r"(?P<name>\S+): segment (?P<other>\S+) was (?P<a>\d+) bytes long when this one began, now (?P<b>\d+)",
     "%(name)s : le segment %(other)s faisait %(a)s octets quand celui-ci a commencé, %(b)s maintenant"),
    (r"journal truncated: (?P<n>\d+) bytes after seq (?P<seq>\d+)", "journal tronqué : %(n)s octets après le n° "
                                                                    "%(seq)s ne forment pas un enregistrement entier"),
)

_RECEIPT = r"receipt (?P<label>.+?) \(seq (?P<at>\d+)\)"
_RECEIPT_FR = "le reçu %(label)s (n° %(at)s)"
_EXPECTED_FR = {  # sabot.rules' words for a record the shoe must write next
    "its alarm": "son alarme", "its finding": "son constat", "the shoe closed (S-STOP)": "la fermeture du sabot",
    "the coup's result": "le résultat du coup", "the coup's end": "la fin du coup",
    "the recovery record": "l'enregistrement de reprise", "the next record": "l'enregistrement suivant",
    "the rest of the authority change": "la suite du changement d'autorité",
}
# Findings whose words carry what a record's fields do not (the receipts', the shoe's own faults, the state the
# verifier expected): read back from the English of sabot.rules, sabot.receipts and sabot.journalfile.
_POINT = r"checkpoint (?P<i>\d+) \(counter (?P<c>\d+)\)"
_POINT_FR = "le point de contrôle %(i)s (compteur %(c)s)"
MESSAGES_FR = tuple((re.compile(pattern), french) for pattern, french in (
    # sabot.checkpoints: the signed checkpoints, checked with the element's public key.
    (r"^no checkpoint file with the journal", "aucun fichier de points de contrôle avec le journal, alors que "
     "l'élément sécurisé du sabot les signe : ses points de contrôle ont été supprimés"),
    (r"^checkpoint (?P<i>\d+): damaged \(CRC\)", "le point de contrôle %(i)s est endommagé (CRC)"),
    (r"^" + _POINT + " is not signed by the shoe's element", _POINT_FR + " n'est pas signé par l'élément sécurisé du "
     "sabot : fabriqué ou modifié"),
    (r"^" + _POINT + r" is sabot (?P<n>\d+)'s", _POINT_FR + " est celui du sabot %(n)s, pas de ce journal"),
    (r"^coup (?P<coup>\d+) of taille (?P<taille>\d+), opened under checkpoint (?P<i>\d+) \(counter (?P<c>\d+)\), has "
     r"no signed end", "le coup %(coup)s de la taille %(taille)s, ouvert sous le point de contrôle %(i)s (compteur "
     "%(c)s), n'a pas de fin signée : ses enregistrements ont été coupés ou remplacés"),
    (r"^" + _POINT + r" does not hold the hash of the entry before it: entries", _POINT_FR + " ne porte pas "
     "l'empreinte du point de contrôle qui le précède : points de contrôle supprimés, insérés ou réécrits"),
    (r"^" + _POINT + r" does not hold the hash of the entry before it: the file's first", _POINT_FR + " ne porte "
     "pas l'empreinte du point de contrôle qui le précède : les premiers points de contrôle du fichier supprimés"),
    (r"^" + _POINT + r" does not follow counter (?P<b>\d+)", _POINT_FR + " ne suit pas le compteur %(b)s : points "
     "de contrôle remis ou réordonnés"),
    (r"^" + _POINT + r" follows counter (?P<b>\d+): (?P<n>\d+) checkpoint\(s\) missing \(of (?P<m>\d+)",
     _POINT_FR + " suit le compteur %(b)s : %(n)s point(s) de contrôle manquent (sur %(m)s que les enregistrements du "
     "sabot disent consommés sans point de contrôle)"),
    (r"^" + _POINT + r" follows counter (?P<b>\d+): (?P<n>\d+) checkpoint", _POINT_FR + " suit le compteur %(b)s : "
     "%(n)s point(s) de contrôle manquent"),
    (r"^" + _POINT + r" follows counter (?P<b>\d+): the shoe's records between them say (?P<n>\d+)",
     _POINT_FR + " suit le compteur %(b)s : les enregistrements du sabot entre les deux disent %(n)s valeur(s) du "
     "compteur consommée(s) hors de l'écart"),
    (r"^" + _POINT + r" goes back to seq (?P<a>\d+) after seq (?P<b>\d+)", _POINT_FR + " revient au n° %(a)s après "
     "le n° %(b)s"),
    (r"^the checkpoint file ends in (?P<n>\d+) bytes", "le fichier des points de contrôle se termine par %(n)s "
     "octets qui ne forment pas une entrée entière"),
    (r"^" + _POINT + r" ends at seq (?P<q>\d+), before receipt (?P<label>.+?) \(seq (?P<at>\d+), counter "
     r"(?P<d>\d+)\)", _POINT_FR + " finit au n° %(q)s, avant le reçu %(label)s (n° %(at)s, compteur %(d)s), que "
     "l'élément a signé plus tôt : le journal du sabot est revenu en arrière après ce relevé"),
    (r"^" + _POINT + " begins a journal", _POINT_FR + " commence un journal que celui-ci ne commence pas"),
    (r"^" + _POINT + r" names segment (?P<s>\d+), seq (?P<q>\d+)", _POINT_FR + " désigne le segment %(s)s, n° "
     "%(q)s, que le journal ne contient pas : des enregistrements ont été coupés ou supprimés"),
    (r"^" + _POINT + r": the chain at seq (?P<q>\d+)", _POINT_FR + " : la chaîne au n° %(q)s n'est pas celle du "
     "journal : des enregistrements ont été modifiés ou remplacés"),
    (r"^no receipt from the shoe", "aucun reçu du sabot : des enregistrements coupés à la fin du journal ne peuvent "
                                   "être exclus"),
    (r"^" + _RECEIPT + " does not verify under the key", _RECEIPT_FR + " ne se vérifie pas sous la clé"),
    (r"^" + _RECEIPT + r" is sabot (?P<n>\d+)'s", _RECEIPT_FR + " est celui du sabot %(n)s, pas de ce journal"),
    (r"^" + _RECEIPT + " is not signed by the shoe's element, though", _RECEIPT_FR + " n'est pas signé par "
     "l'élément sécurisé du sabot, qui en a un : sa clé se lit sur le sabot"),
    (r"^" + _RECEIPT + " is not signed by the shoe's element: forged", _RECEIPT_FR + " n'est pas signé par "
     "l'élément sécurisé du sabot : fabriqué ou modifié"),
    (r"^" + _RECEIPT + " answers another nonce", _RECEIPT_FR + " répond à un autre défi que celui que pull-log a "
     "émis (pull.json) : un reçu plus ancien mis à sa place"),
    (r"^receipt (?P<label>.+?) \(seq (?P<at>\d+), counter (?P<c>\d+)\) does not end after receipt (?P<other>.+?) "
     r"\(seq (?P<b>\d+), counter (?P<d>\d+)\)", "le reçu %(label)s (n° %(at)s, compteur %(c)s) ne finit pas après le "
     "reçu %(other)s (n° %(b)s, compteur %(d)s), dont le compteur n'est pas plus élevé : le journal du sabot est "
     "revenu en arrière entre les deux relevés"),
    (r"^the journal does not reach the end the shoe signed in " + _RECEIPT, "le journal n'atteint pas la fin que le "
     "sabot a signée dans " + _RECEIPT_FR + " : des enregistrements ont été coupés à la fin"),
    (r"^the journal does not extend " + _RECEIPT, "le journal ne prolonge pas " + _RECEIPT_FR + " : un journal plus "
     "ancien rejoué, ou le sabot ramené en arrière"),
    (r"^the journal goes on past the end the shoe signed in " + _RECEIPT, "le journal continue après la fin que le "
     "sabot a signée dans " + _RECEIPT_FR),
    (r"^no stop card by position (?P<p>\d+)", "pas de carte d'arrêt à la position %(p)s, où elle doit sortir : le "
     "sabot se ferme après ce coup (carte d'arrêt virtuelle)"),
    (r"^the shoe found its journal behind", "au démarrage, le sabot a trouvé son journal en deçà de son dernier point "
     "de contrôle signé, ou ses points de contrôle en deçà du compteur de son élément sécurisé : des "
     "enregistrements ont été coupés, supprimés ou remis dans un état antérieur sur le sabot"),
    (r"^the secure element's fault with no record", "le défaut de l'élément sécurisé sans l'enregistrement du "
     "compteur qu'il a consommé"),
    (r"^a secure element record of unknown cause (?P<n>\d+)", "un enregistrement de l'élément sécurisé de cause "
     "inconnue %(n)s"),
    (r"^a secure element's counter found ahead at power-up by no value", "un compteur de l'élément sécurisé trouvé "
     "en avance à la mise sous tension, de zéro valeur"),
    (r"^a secure element record of (?P<n>\d+) values spent before counter (?P<c>\d+)", "un enregistrement de "
     "l'élément sécurisé de %(n)s valeurs consommées avant le compteur %(c)s"),
    (r"^the shoe found firmware files", "le sabot a trouvé des fichiers de micrologiciel différents de la version "
     "approuvée"),
    (r"^(?P<where>\S+( to \S+)?) written by a development build \((?P<name>[^)]+)\) after the approved image",
     "%(where)s écrit(s) par une version de développement (%(name)s) après l'image approuvée : son code, pas celui "
     "approuvé, a fait tourner le sabot, sa mémoire flash et son élément sécurisé à sa portée"),
    (r"^a board under the public development key", "un sabot sous la clé publique de développement : n'importe qui "
     "a pu écrire son journal"),
    (r"^the firmware fault cleared with no power-up", "défaut de micrologiciel effacé sans redémarrage depuis qu'il a "
     "été levé : seul un démarrage qui retrouve les fichiers approuvés permet au superviseur de l'effacer"),
    (r"^the development key's fault cleared", "défaut de la clé de développement effacé : aucune clé de superviseur "
     "ne l'efface, le sabot doit avoir sa propre clé"),
    (r"^a release was under way when events were lost", "une libération était en cours quand des événements ont été "
     "perdus : on ne sait pas si une carte est sortie"),
    (r"^(?P<least>at least )?(?P<n>\d+) torn bytes cut at power-up", "%(n)s octets déchirés coupés au démarrage : "
     "l'enregistrement en cours d'écriture à la coupure est perdu"),
    (r"^a new sabot number while an alarm or fault stood uncleared",
     "un nouveau numéro du sabot alors qu'une alarme ou un défaut n'était pas levé : le sabot le refuse"),
    (r"^a new sabot number while a séance was open",
     "un nouveau numéro du sabot pendant une séance ouverte : le sabot le refuse"),
    (r"^a new casino key while an alarm or fault stood uncleared",
     "une nouvelle clé du casino alors qu'une alarme ou un défaut n'était pas levé : le sabot le refuse"),
    (r"^a new casino key while a séance was open",
     "une nouvelle clé du casino pendant une séance ouverte : le sabot le refuse"),
    (r"^the registry (?P<path>\S+) holds sabot (?P<n>\d+) under (?P<k>\d+) elements \(key ids (?P<ids>[^)]+)\)",
     "le registre %(path)s tient le sabot n° %(n)s sous %(k)s éléments (identifiants %(ids)s) : deux sabots sous un "
     "numéro, ou un remplacement non consigné (sabot number set --replace)"),
    (r"^the registry (?P<path>\S+) records sabot (?P<n>\d+)'s element \(key id (?P<old>[\w?]+)\) replaced by key id "
     r"(?P<new>[\w?]+), and nobody vouches for it", "le registre %(path)s consigne le remplacement de l'élément du "
     "sabot n° %(n)s (identifiant %(old)s) par l'identifiant %(new)s, et personne ne le garantit (registre non signé, "
     "ou aucun signataire de confiance donné) : une clé ajoutée comme remplacement ferait vérifier n'importe quel "
     "journal"),
    (r"^a journal of sabot (?P<n>\d+)'s element key id (?P<old>\w+), which the registry (?P<path>\S+) records "
     r"replaced on (?P<when>\S+) by key id (?P<new>[\w?]+), runs to (?P<end>\S+): a retired element",
     "un journal de l'élément du sabot n° %(n)s d'identifiant %(old)s, que le registre %(path)s dit remplacé le "
     "%(when)s par l'identifiant %(new)s, court jusqu'au %(end)s : un élément retiré qui signe encore"),
    (r"^the registry (?P<path>\S+) records sabot (?P<n>\d+)'s element key id (?P<old>\w+) replaced with no readable "
     r"date \((?P<date>.*)\)", "le registre %(path)s dit l'élément du sabot n° %(n)s d'identifiant %(old)s remplacé "
     "sans date lisible (%(date)s) : on ne peut dire si son journal court au-delà du remplacement"),
    (r"^the clock set more than a day ahead without --force", "l'horloge avancée de plus d'un jour sans --force : le "
     "sabot le refuse"),
    (r"^an authority record", "un enregistrement de changement d'autorité incomplet ou inconnu"),
    (r"^an authority change begun before", "un changement d'autorité commencé avant la fin du précédent"),
    (r"^the journal ends on a release", "le journal finit sur une libération : on ne sait pas si une carte est "
     "sortie (courant coupé avant la relève, ou journal coupé)"),
    (r"^the clock went back (?P<back>[\d.]+ s )?at the power-up of seq (?P<seq>\d+)", "l'horloge est revenue en "
     "arrière au démarrage du n° %(seq)s : l'horloge du sabot a été remise à zéro ou reculée pendant qu'il était "
     "éteint"),
    (r"^sabot (?P<n>\d+) assigned to table (?P<t>\d+) in (?P<k>\d+) consecutive séances", "sabot n° %(n)s affecté "
     "à la table %(t)s pendant %(k)s séances de suite : les mêmes sabots ne doivent pas aller systématiquement "
     "aux mêmes tables"),
    (r"^a coup opened outside an open séance", "coup ouvert hors séance : le sabot n'était affecté à aucune table"),
    (r"^shoe loaded outside an open séance", "sabot chargé hors séance : il n'était affecté à aucune table"),
    (r"^séance closed when none was open", "séance fermée alors qu'aucune n'était ouverte"),
    (r"^séance of table (?P<a>\d+) closed as table (?P<b>\d+)", "la séance de la table %(a)s fermée comme celle de "
     "la table %(b)s"),
    (r"^(?P<name>\S+): sabot number (?P<n>\d+), where the journal's segments before it are sabot (?P<m>\d+)",
     "%(name)s : sabot n° %(n)s, alors que les segments précédents du journal sont du sabot %(m)s"),
    (r"^(?P<n>\d+) bytes after the last record of (?P<name>\S+) that no recovery", "%(n)s octets après le dernier "
     "enregistrement de %(name)s, qu'aucune reprise au démarrage n'a coupés : ajoutés après son écriture"),
    (r"^segment (?P<n>\d+)'s header holds a shoe state", "l'en-tête du segment %(n)s contient un état du sabot que "
     "les enregistrements précédents ne donnent pas"),
    (r"^the shoe wrote no record of (?P<what>.+?)( \(code \d+\))? before this one", "le sabot n'a pas écrit "
     "%(what)s avant cet enregistrement"),
    (r"^the journal ends before (?P<what>.+?): cut", "le journal finit avant %(what)s : coupé, ou courant perdu "
     "entre les enregistrements d'une même étape"),
))


def _message(message):
    for pattern, french in MESSAGES_FR:
        found = pattern.search(message)
        if found:
            values = found.groupdict()
            if "what" in values:
                values["what"] = _EXPECTED_FR.get(values["what"], "l'enregistrement attendu (%s)" % values["what"])
            return french % values
    return None


def _pattern(template):
    """A regular expression reading the values back from a journalfile.ISSUES template."""
    parts = re.split(r"%\((\w+)\)([sd])", template)
    out = []
    for at, part in enumerate(parts):
        if at % 3 == 0:
            out.append(re.escape(part))
        elif at % 3 == 1:
            out.append("(?P<%s>%s)" % (part, r"\d+" if parts[at + 1] == "d" else ".*?"))
    return re.compile("^" + "".join(out) + "$")


_INTEGRITY = [(_pattern(ISSUES[code]), french) for code, french in ISSUES_FR.items() if code in ISSUES]
_INTEGRITY += [(re.compile(pattern), french) for pattern, french in SEGMENTS_FR]


def _integrity(message):
    for pattern, french in _INTEGRITY:
        found = pattern.search(message)
        if found:
            return french % found.groupdict()
    return None


def _hand(game, number):
    return words.hand(game, number)


def _rule(rid, f, game):
    """A rule finding in French from its requirement and the record it stands at; None when unknown."""
    kind = f[TYPE]
    row = games.GAMES[game] if game < len(games.GAMES) else games.GAMES[0]
    card = short(f[CARD], "fr") if kind == records.R_CARD else ""
    if kind == records.R_CARD:
        condition, disposition = f[CONDITION], f[DISPOSITION]
        if rid == "S-ONE" and condition == records.DOUBLE_FEED:
            return "sortie double : la carte %s est sortie avec la précédente" % card
        if rid == "S-FORCED" and condition == records.FORCED:
            if disposition == records.DEALT:
                return "carte %s extraite de force, sabot verrouillé, puis donnée au lieu d'être brûlée" % card
            return "carte %s extraite de force, sabot verrouillé (brûlée)" % card
        if rid == "S-COUNT":
            return "carte %s de trop dans un sabot de %d jeux : carte étrangère" % (card, row[games.DECKS])
        if rid == "S-STOPPOS":
            return "carte d'arrêt sortie en position %d : %d cartes derrière elle au lieu de %d" % (
                f[POSITION], games.shoe_size(game) - f[POSITION] if game < len(games.GAMES) else 0,
                row[games.STOP_BEFORE])
        if rid == "S-STOP":
            return "carte %s donnée après le coup de la carte d'arrêt" % card
        if rid == "S-LOCK":
            return "carte %s donnée alors que le sabot était verrouillé (enjeux non arrêtés)" % card
        if rid in GAMES:
            return "carte %s au-delà du maximum de %d cartes par coup" % (card, row[games.COUP_MAX])
        if rid in TABLEAUX:
            return "carte %s tirée pour %s contre la règle du tableau (faux tirage)" % (
                card, _hand(game, unpack_hand(f[CODE])))
    if kind == records.R_NO_MORE_BETS and rid == "S-STOP":
        return "coup ouvert après le coup de la carte d'arrêt"
    if kind == records.R_COUP_END and rid in GAMES:
        return "coup terminé sous le minimum de %d cartes du jeu" % row[games.COUP_MIN]
    if kind == records.R_LOAD and rid == "G-DTL":
        return "second sabot chargé dans la séance : des cartes neuves à chaque séance aux deux tableaux"
    if kind == records.R_LOAD and rid in GAMES:
        return "taille %d dans la séance : %d au plus en banque ouverte" % (f[TAILLE], row[games.TAILLES_PER_SEANCE])
    if kind == records.R_STAND and rid in TABLEAUX:
        return "%s reste alors que le tableau ne laisse pas le choix" % _hand(game, f[CODE])
    if kind == records.R_RESULT and rid in TABLEAUX:
        return "le résultat enregistré ne correspond pas aux cartes données"
    if kind == records.R_RECOVERY and rid == "J-DURABLE":
        return "une libération était en cours lors d'une coupure de courant : on ne sait pas si une carte est sortie"
    return None


def french(finding, f, game):
    """The finding in French; f is the fields of the record at its seq (None when there is none: a header's)."""
    said = _message(finding.message)
    if said is None and finding.id == "J-TAMPER":
        said = _integrity(finding.message)
    if said is None and f is not None:
        said = _rule(finding.id, f, game)
    if said is None:
        title = TITLES.get(finding.id, ("", ""))[0] or finding.id
        said = "règle « %s » non respectée" % title
        if f is not None:
            said += ", à l'enregistrement « %s »" % words.said(words.RECORDS, f[TYPE], words.FR)
            if f[TYPE] == records.R_CARD:
                said += " (%s)" % short(f[CARD], "fr")
    return said


# An input verify cannot use, said in French with its English after it (the error's words, from journalfile,
# checkpoints, receipts and verify): the path first, then what it is.
_ERRORS_FR = [(re.compile(pattern + r"$"), words_fr) for pattern, words_fr in (
    (r"(?P<path>.+): no such file or folder", "%(path)s : aucun fichier ni dossier de ce nom"),
    (r"(?P<path>.+): sabot (?P<n>\d+) is not enrolled there: its public key is unknown",
     "%(path)s : le sabot %(n)s n'y est pas enrôlé : sa clé publique est inconnue"),
    (r"(?P<path>.+): no such registry", "%(path)s : aucun registre de ce nom"),
    (r"(?P<path>.+): not a registry of shoes .*", "%(path)s : pas un registre de sabots (sabot key enrol)"),
    (r"(?P<path>.+): no such public key file", "%(path)s : aucun fichier de clé publique de ce nom"),
    (r"(?P<path>.+): no such key file", "%(path)s : aucun fichier de clé de ce nom"),
    (r"(?P<path>.+): (No such file or directory|cannot read it.*)", "%(path)s : fichier introuvable ou illisible"),
    (r"(?P<path>.+): not a sabot journal .*", "%(path)s : pas un journal de sabot"),
    (r"(?P<path>.+): not a receipt.*", "%(path)s : pas un reçu de sabot (receipt.json de sabot pull-log)"),
)]


def error_fr(message):
    """An unusable input's message in French, its English after it; the English alone when no pattern knows it. An
    error that has its own French (a refused registry's, sabot.registry_signatures) says it."""
    if isinstance(message, Unusable) and message.fr:
        return "%s (%s)" % (message.fr, message)
    message = str(message)
    for pattern, words_fr in _ERRORS_FR:
        found = pattern.match(message)
        if found:
            return "%s (%s)" % (words_fr % found.groupdict(), message)
    return message
