"""`sabot cagnotte check`: the casino's ledger of levies against the journal, coup by coup. Each finding names its
requirement and article, in French first: a levy missing, taken on a coup the bank did not win, of a wrong amount
or rate; tickets that do not add up or more than three values of them at one table (Article 59); stakes that are
not whole euros at banque ouverte (Article 61); stakes no table takes: under the 1 € minimum (Article 58), nothing
against a bank that won at chemin de fer, a séance whose every coup the bank won levies 0.00 €; a coup on one side
only. The stakes' plausibility rules are docs/cagnotte.md's."""

from decimal import Decimal

from firmware import games
from sabot.cagnotte import levy

_VALUES_MOST = 3  # ticket values in service at one table at once (Article 59)
_ONE_EURO = Decimal(1)
_WON_LEAST = 5  # coups the bank won in a séance, each with 0.00 € due, that make its stakes implausible
_RATES = ("rate", "other")  # a finding's values that are rates

SAID = {  # (requirement, article, French, English)
    "no_levy": ("C-LEVY", "60, 62", "la banque a gagné ce coup, %(due)s dus, et rien n'a été prélevé",
                "the bank won this coup, %(due)s due, and nothing was levied"),
    "not_won": ("C-LEVY", "59, 62", "%(levy)s prélevés sur un coup que la banque n'a pas gagné",
                "%(levy)s levied on a coup the bank did not win"),
    "amount": ("C-LEVY", "59, 60, 62", "%(levy)s prélevés où %(due)s sont dus (%(rate)s %% de %(base)s)",
               "%(levy)s levied where %(due)s is due (%(rate)s %% of %(base)s)"),
    "rate": ("C-LEVY", "60", "%(levy)s prélevés : le taux de %(other)s %%, où le jeu est à %(rate)s %% (%(due)s dus)",
             "%(levy)s levied: the rate of %(other)s %%, where the game's is %(rate)s %% (%(due)s due)"),
    "tickets": ("C-TICKETS", "59", "les tickets détachés font %(tickets)s pour un prélèvement de %(levy)s",
                "the tickets detached add up to %(tickets)s for a levy of %(levy)s"),
    "values": ("C-TICKETS", "59", "tickets de %(count)d valeurs en service à la table %(table)d dans la séance "
               "(%(values)s), trois au plus", "tickets of %(count)d values in service at table %(table)d in the "
               "séance (%(values)s), three at most"),
    "stake": ("C-STAKES", "61", "à la banque ouverte, les mises sont de 1 € ou de multiples de 1 € : "
              "tableau %(tableau)d, %(stake)s", "at banque ouverte stakes are 1 € or whole multiples of it: "
              "tableau %(tableau)d, %(stake)s"),
    "minimum": ("C-STAKES", "58", "mise de %(stake)s%(fr)s : le minimum des enjeux ne saurait être inférieur à 1 €",
                "a stake of %(stake)s%(en)s: the minimum stake is never under 1 €"),
    "zero": ("C-STAKES", "58, 60", "la banque a gagné ce coup de chemin de fer et le registre déclare une mise de "
             "0 € : un coup n'est donné que contre un banco ou une suite, une mise d'au moins 1 € ; rien n'est "
             "prélevé", "the bank won this coup of chemin de fer and the ledger declares a stake of 0 €: a coup is "
             "dealt only against a banco or a suivi, a stake of at least 1 €; nothing is levied"),
    "nothing_due": ("C-STAKES", "59, 60", "la banque a gagné %(won)d coups à la table %(table)d dans la séance et "
                    "les mises déclarées n'y donnent à chacun qu'un prélèvement arrondi à 0,00 € : mises non "
                    "plausibles", "the bank won %(won)d coups at table %(table)d in the séance and the stakes "
                    "declared give each a levy rounded to 0.00 €: implausible stakes"),
    "no_entry": ("C-LEDGER", "59", "coup du journal absent du registre de la cagnotte",
                 "a coup of the journal missing from the cagnotte's ledger"),
    "no_coup": ("C-LEDGER", "59", "coup du registre que le journal n'a pas", "a coup of the ledger the journal lacks"),
}


class Finding:
    __slots__ = ("what", "key", "values")

    def __init__(self, what, key, **values):
        self.what, self.key, self.values = what, key, values

    def said(self, lang, money, percent):
        """In French or English, sums by money(amount), rates by percent(rate)."""
        text = SAID[self.what][2 if lang == "fr" else 3]
        return text % {k: _said(v, k, money, percent) for k, v in self.values.items()}


def _said(value, name, money, percent):
    if name in _RATES:
        return percent(value)
    if isinstance(value, tuple):
        return ", ".join(money(v) for v in value)
    return money(value) if isinstance(value, Decimal) else value


def check(coups, entries):
    """[Finding] in the journal's order, then the ledger's coups the journal lacks."""
    findings = []
    seances = {}  # (seance, table): the ticket values used
    won = {}  # (seance, table): [coups the bank won, of them with a levy due]
    for coup in coups:
        entry = entries.pop(coup.key, None)
        if entry is None:
            findings.append(Finding("no_entry", coup.key))
            continue
        findings += _coup(coup, entry, won.setdefault((coup.key[0], coup.table), [0, 0]))
        seances.setdefault((coup.key[0], coup.table), set()).update(entry.tickets)
    for (seance, table), values in sorted(seances.items()):
        if len(values) > _VALUES_MOST:
            findings.append(Finding("values", (seance, 0, 0), table=table, count=len(values),
                                    values=tuple(sorted(values))))
    findings += [Finding("nothing_due", (seance, 0, 0), table=table, won=count)
                 for (seance, table), (count, levied) in sorted(won.items()) if count >= _WON_LEAST and not levied]
    findings += [Finding("no_coup", key) for key in sorted(entries)]
    return findings


def _coup(coup, entry, won):
    """The coup's findings; won: its séance's [coups the bank won, of them with a levy due], counted on."""
    stakes = entry.stakes if len(coup.results) > 1 else entry.stakes[:1]
    stakes = tuple(s or Decimal(0) for s in stakes)
    due, base, case = levy.due(coup.game, coup.results, stakes)
    rate = levy.RATES[coup.game]
    won[0] += case is not None
    won[1] += bool(due)
    found = _stakes(coup, stakes, case)
    taken = entry.levy
    if due and not taken:
        found.append(Finding("no_levy", coup.key, due=due))
    elif taken and case is None:
        found.append(Finding("not_won", coup.key, levy=taken))
    elif taken != due:
        others = [r for r in levy.RATES.values() if r != rate and levy.rounded(base * r) == taken]
        if others:
            found.append(Finding("rate", coup.key, levy=taken, other=others[0], rate=rate, due=due))
        else:
            found.append(Finding("amount", coup.key, levy=taken, due=due, rate=rate, base=base))
    if entry.tickets_total() != taken:
        found.append(Finding("tickets", coup.key, tickets=entry.tickets_total(), levy=taken))
    return found


def _stakes(coup, stakes, case):
    """Stakes no table takes: at banque ouverte, under 1 € or not whole euros (Article 61); elsewhere under the 1 €
    minimum (Article 58), or none against a bank that won at chemin de fer."""
    if coup.game == games.DEUX_TABLEAUX_OUVERTE:
        return [Finding("stake", coup.key, tableau=t + 1, stake=s) for t, s in enumerate(stakes)
                if s and (s < _ONE_EURO or s != s.to_integral_value())]
    if coup.game == games.CHEMIN_DE_FER and case is not None and not stakes[0]:
        return [Finding("zero", coup.key)]
    tableaux = len(stakes) > 1
    return [Finding("minimum", coup.key, stake=s, fr=" au tableau %d" % (t + 1) if tableaux else "",
                    en=" on tableau %d" % (t + 1) if tableaux else "")
            for t, s in enumerate(stakes) if 0 < s < _ONE_EURO]
