"""The cagnotte's words for people, French first, and its sums and rates as people read them: the commands'
lines and the carnet take them from here."""

from decimal import Decimal

_CENTS = Decimal("0.01")
FR, EN = 0, 1
LANGS = {"fr": FR, "en": EN}
WORDS = {  # (French, English)
    "coup": ("Séance %d, taille %d, coup %d", "Séance %d, taille %d, coup %d"),
    "tableau": ("tableau %d %s", "tableau %d %s"),
    "bank": ("banque %s", "bank %s"),
    "stakes": ("mises %s", "stakes %s"),
    "due": ("prélèvement dû %s (%s %%%s)", "levy due %s (%s %%%s)"),
    "case": (", article 62 %s", ", Article 62 %s"),
    "total": ("Total dû : %s sur %d coups gagnés par la banque, %d coups en tout",
              "Total due: %s on %d coups the bank won, %d coups in all"),
    "no_stakes": ("pas de mises pour ce coup dans %s", "no stakes for this coup in %s"),
    "not_in_journal": ("Séance %d, taille %d, coup %d : dans %s mais pas dans le journal",
                       "Séance %d, taille %d, coup %d: in %s but not in the journal"),
    "broken": ("journal non intègre : %d constat(s) de sabot log verify ; ce calcul ne vaut pas preuve",
               "the journal is not intact: %d finding(s) of sabot log verify; this is no proof"),
    "devkey": ("journal lu sous la clé de développement : ce n'est pas celui d'un sabot en service (--key, ou "
               "--allow-development-key pour un journal de simulation)",
               "the journal was read under the development key: it is no shoe's in service (--key, or "
               "--allow-development-key for a sim's journal)"),
}


def word(key, lang):
    return WORDS[key][LANGS[lang]]


def cents(amount):
    """A sum as a decimal string with its cents: "12.30"."""
    return str(amount.quantize(_CENTS))


def money(amount, lang="fr"):
    """A sum for people: 1\u202f000,00 € in French (a narrow no-break space between thousands), 1,000.00 € in
    English."""
    text = format(amount.quantize(_CENTS), ",f") + " €"
    return text.replace(",", "\u202f").replace(".", ",") if lang == "fr" else text


def percent(rate, lang="fr"):
    """1.25 % said 1,25 in French."""
    text = format((rate * 100).normalize(), "f")
    return text.replace(".", ",") if lang == "fr" else text
