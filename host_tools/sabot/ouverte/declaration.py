"""The declaration of each banque ouverte séance's exact start time to the authorities Article 61 names, in French,
from the shoe's journal: the séance's R_SEANCE record is when it began, signed into the journal's chain."""

from firmware import games
from sabot import times
from sabot.cagnotte import coups

# Article 61, as docs/regulation/ has it: "L'heure exacte du début de chaque séance doit être indiquée au commissaire
# de police, chef du service des renseignements généraux de la circulation, où se trouve le casino et au
# trésorier-payeur général ou son représentant ainsi qu'au comptable du Trésor, chef de poste."
RECIPIENTS = (
    "Monsieur le commissaire de police, chef du service des renseignements généraux de la circulation, où se "
    "trouve le casino",
    "Monsieur le trésorier-payeur général ou son représentant",
    "Monsieur le comptable du Trésor, chef de poste",
)
_DAYS = ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")
_MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre")


def seances(paths, key):
    """([Seance] at banque ouverte: opened for it, or a shoe of it loaded in it; verify's findings)."""
    opened = {}
    _, findings = coups.read(paths, key, opened)
    return [s for _, s in sorted(opened.items()) if games.DEUX_TABLEAUX_OUVERTE in s.games], findings


def when(time_ms):
    """'lundi 30 novembre 2026 à 09 h 00 min 00 s (heure de Paris, UTC+01:00)'."""
    at = times.moment(time_ms).astimezone(times.PARIS)
    offset = at.strftime("%z")
    return "%s %d %s %d à %02d h %02d min %02d s (heure de Paris, UTC%s:%s)" % (
        _DAYS[at.weekday()], at.day, _MONTHS[at.month - 1], at.year, at.hour, at.minute, at.second, offset[:3],
        offset[3:])


def text(opened, establishment, intact):
    lines = ["DÉCLARATION DE L'HEURE DE DÉBUT DES SÉANCES DE BACCARA À BANQUE OUVERTE",
             "(arrêté relatif aux jeux de cercle, article 61)", "",
             "Établissement : %s" % (establishment or "non renseigné"), "", "À l'attention de :"]
    lines += ["  - %s ;" % r for r in RECIPIENTS[:-1]] + ["  - %s." % RECIPIENTS[-1], ""]
    if not opened:
        lines.append("Le journal ne contient aucune séance de baccara à banque ouverte.")
    for s in opened:
        lines.append("Séance n° %d, table %d, sabot n° %d : début le %s ; affectation par l'employé n° %d "
                     "(journal du sabot, enregistrement n° %d)." % (s.number, s.table, s.sabot, when(s.opened_ms),
                                                                    s.employee, s.seq))
    lines += ["", "Heures relevées dans le journal du sabot, %s." % (
        "dont l'intégrité a été vérifiée" if intact else
        "DONT L'INTÉGRITÉ N'EST PAS ÉTABLIE (voir sabot log verify) : ces heures ne valent pas preuve")]
    return "\n".join(lines) + "\n"
