"""`sabot report`: the approver's report on a journal, one self-contained HTML file (H-EXPORT, H-VERIFY).

The shoe and its firmware, each séance and taille coup by coup with a chart, the stop card check, the
verifier's findings with the regulation's own words, and the journal's integrity. French by default, the
approver's and the articles' language. Nothing is fetched: CSS and SVG are inline, so the file reads and
prints the same wherever it is opened or archived. The findings are verify.check's, not re-derived here, so
the report and `sabot log verify` never disagree.
"""

import html
import sys
from pathlib import Path

from boards.sim import names
from boards.sim.devkey import DEVELOPMENT_KEY
from firmware import cards, games, record_names
from firmware.records import (
    DEALT,
    END_TABLEAU,
    FORCED,
    R_ALARM,
    R_BOOT,
    R_CARD,
    R_CLEAR,
    R_COUP_END,
    R_FINDING,
    R_LOAD,
    R_NO_MORE_BETS,
    R_RECOVERY,
    R_RELEASE,
    R_RESULT,
    R_SEANCE,
    R_STAND,
)
from sabot.journalfile import (
    CARD,
    CODE,
    CONDITION,
    COUP,
    DISPOSITION,
    POSITION,
    SEANCE,
    TAILLE,
    TYPE,
    Unusable,
)
from sabot.logview import hand_name, iso_time
from sabot.rules import ARTICLES
from sabot.verify import check, firmware_name, journals_of, read_key

# The regulation's own words for each requirement (../shared/regulation/casino-games-articles-58-62.fr.txt):
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
for _rid in ("J-EVERY", "J-DURABLE", "J-TAMPER", "J-EVENTS", "H-SIM", "H-VERIFY", "H-EXPORT", "H-FIRMWARE"):
    QUOTES[_rid] = _APPROVED_MODEL

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
    "J-EVENTS": ("événements au journal", "events journalled"),
}

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
# French words for the controller's, keyed by boards.sim.names' English words: a word added there shows in
# English until it is translated here.
WORDS_FR = {
    "boot": "mise sous tension", "seance": "séance ouverte", "load": "sabot chargé", "closed": "sabot fermé après "
    "le coup de la carte d'arrêt", "recovery": "reprise après coupure", "seance_close": "séance close",
    "alarm": "alarme", "clear": "alarme levée par le superviseur", "finding": "constat du sabot",
    "forced extraction": "extraction forcée", "double feed": "sortie double", "jam": "bourrage : aucune carte "
    "sortie", "journal cannot be written": "journal impossible à écrire", "journal flash nearly full":
    "mémoire du journal presque pleine", "interrupt events lost": "événements perdus", "firmware differs from the "
    "approved release": "logiciel différent de la version agréée", "stop card misplaced (S-STOPPOS)": "carte "
    "d'arrêt mal placée (S-STOPPOS)", "identity over the deck count (S-COUNT)": "carte au-delà du nombre de jeux "
    "(S-COUNT)", "coup under the game's minimum": "coup sous le minimum du jeu", "coup end pressed": "fin de coup "
    "annoncée", "maximum reached": "maximum atteint", "no hand may draw": "aucune main ne peut tirer",
    "forced": "forcée", "double_feed": "sortie double", "stands": "reste", "torn bytes cut": "octets coupés",
    "release uncertain": "libération incertaine : on ne sait pas si une carte est sortie",
}
GAME_NAMES = ("chemin de fer", "baccara à deux tableaux, banque limitée", "baccara à deux tableaux, banque ouverte")
RED_SUITS = "HD"
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _e(text):
    return html.escape(str(text), quote=True)


class Words:
    """The report's words in one language."""

    def __init__(self, lang):
        self.lang = lang
        self.text = TEXT[lang]

    def __getitem__(self, key):
        return self.text[key]

    def of(self, english):
        """A controller word (boards.sim.names) in the report's language."""
        return WORDS_FR.get(english, english) if self.lang == "fr" else english.replace("_", " ")

    def title(self, rid):
        pair = TITLES.get(rid)
        return pair[self.lang != "fr"] if pair else ""


def _word(table, index):
    return table[index] if 0 <= index < len(table) else "code %d" % index


def _game_name(game):
    return GAME_NAMES[game] if 0 <= game < len(GAME_NAMES) else "game %d" % game


# The journal as the report tells it: séances, tailles, their coups and what happened between them.

class Coup:
    def __init__(self, number):
        self.number = number
        self.cards = []  # (hand, card code) of the cards dealt, in order
        self.result = None  # the result record's fields
        self.end = None  # the coup end record's code
        self.lines = []  # what else happened while it was open: (css class, text or [card codes])


class Between:
    """What happened between two coups: burned cards, alarms, a boot..."""

    def __init__(self):
        self.lines = []  # (css class, text or [card codes])


INCIDENTS = ("alarm", "finding", "power")  # the css classes of lines that make a coup's bar stand out


class Taille:
    def __init__(self, number, game, record):
        self.number = number
        self.game = game
        self.record = record
        self.items = []  # Coup and Between, in the order they came
        self.coup = None  # the coup open now
        self.last_coup = 0
        self.out = 0  # items out of the shoe
        self.dealt = 0
        self.burned = 0
        self.stop = None  # the stop card's record
        self.stop_after = False  # a coup opened or a card dealt after the stop card's coup (S-STOP)
        self.findings = []
        self.marks = []  # chart markers: (x in coup slots, kind, tooltip)

    def x(self):
        """Where the chart marks what happens now: on the coup's bar, or in the gap after the last coup."""
        return self.coup.number if self.coup else self.last_coup + 0.5

    def lines(self):
        if self.coup:
            return self.coup.lines
        if not self.items or not isinstance(self.items[-1], Between):
            self.items.append(Between())
        return self.items[-1].lines

    def note(self, css, text, seq, mark=None):
        if mark:
            self.marks.append((self.x(), mark, "%s (seq %d)" % (text, seq)))
        self.lines().append((css, "%s · seq %d" % (text, seq)))

    def burn(self, card):
        lines = self.lines()
        if not lines or lines[-1][0] != "burn":
            lines.append(("burn", []))
        lines[-1][1].append(card)


class Seance:
    def __init__(self, number, table, employee, record):
        self.number = number
        self.table = table
        self.employee = employee
        self.record = record
        self.tailles = []


def build(records, findings, w):
    """(séances, lines before any taille) from the records and the verifier's findings."""
    by_seq = {}
    for f in findings:
        by_seq.setdefault(f.seq, []).append(f)
    seances, preamble = [], []
    seance = taille = None
    for record in records:
        f = record.fields
        kind = f[TYPE]
        if kind == R_SEANCE:
            seance = Seance(f[SEANCE], f[CODE], f[DISPOSITION] | f[CONDITION] << 8, record)
            seances.append(seance)
            taille = None
        elif kind == R_LOAD:
            if seance is None:
                seance = Seance(f[SEANCE], None, 0, record)
                seances.append(seance)
            taille = Taille(f[TAILLE], f[CODE], record)
            seance.tailles.append(taille)
        elif taille is not None:
            _feed(taille, record, w)
        elif kind not in (R_RELEASE, R_NO_MORE_BETS):
            preamble.append("%s · seq %d" % (_event_words(f, w), record.seq))
        for finding in by_seq.get(record.seq, ()):
            if taille is not None:
                taille.findings.append(finding)
                taille.note("finding", "%s — %s" % (finding.id, finding.message), record.seq, "finding")
    return seances, preamble


def _event_words(f, w):
    kind, code = f[TYPE], f[CODE]
    word = w.of(_word(record_names.RECORD_NAMES, kind))
    if kind in (R_ALARM, R_CLEAR):
        return w["colon"].join((word, w.of(_word(names.ALARMS, code))))
    if kind == R_FINDING:
        return w.of(_word(names.FINDINGS, code))
    if kind == R_RECOVERY:
        text = "%s, %d %s" % (word, code, w.of("torn bytes cut"))
        return text + ("; " + w.of("release uncertain") if f[CONDITION] else "")
    return word


def _feed(t, record, w):
    f = record.fields
    kind, seq = f[TYPE], record.seq
    if kind == R_NO_MORE_BETS:
        if t.coup is None or t.coup.number != f[COUP]:
            t.coup = Coup(f[COUP])
            t.last_coup = f[COUP]
            t.items.append(t.coup)
            t.stop_after = t.stop_after or t.stop is not None and t.stop.fields[COUP] < f[COUP]
    elif kind == R_CARD:
        _card(t, record, w)
    elif kind == R_RESULT:
        if t.coup:
            t.coup.result = f
    elif kind == R_COUP_END:
        if t.coup:
            t.coup.end = f[CODE]
        t.coup = None
    elif kind == R_STAND:
        if t.coup:
            t.coup.lines.append(("", "%s %s" % (hand_name(t.game, f[CODE]), w.of("stands"))))
    elif kind == R_ALARM:
        t.note("alarm", _event_words(f, w), seq, "alarm")
    elif kind in (R_CLEAR, R_FINDING):
        t.note("alarm" if kind == R_FINDING else "", _event_words(f, w), seq)
    elif kind in (R_RECOVERY, R_BOOT):
        t.note("alarm" if f[CONDITION] else "power", _event_words(f, w), seq, "power")
    elif kind != R_RELEASE:
        t.note("", _event_words(f, w), seq)


def _card(t, record, w):
    f = record.fields
    card, disposition, condition = f[CARD], f[DISPOSITION], f[CONDITION]
    t.out = max(t.out, f[POSITION])
    if card == cards.STOP:
        t.stop = record
        t.marks.append((t.x(), "stop", "%s (%s)" % (w["legend_stop"], w["card_n"] % f[POSITION])))
        t.lines().append(("stop", "%s · %s · seq %d" % (w["legend_stop"], w["card_n"] % f[POSITION], record.seq)))
    if condition:
        what = w.of(_word(record_names.CONDITION_NAMES, condition))
        t.note("alarm", "%s %s" % (cards.name(card), what), record.seq, "forced" if condition == FORCED else "double")
    if disposition == DEALT and condition != FORCED:
        t.dealt += 1
        if t.coup:
            t.coup.cards.append((f[CODE] - 1, card))
        else:
            t.stop_after = t.stop_after or t.stop is not None
            t.note("alarm", cards.name(card), record.seq)
    elif card != cards.STOP:
        t.burned += 1
        if not condition:
            t.burn(card)


def stop_check(t):
    """(text key, position, cards behind it, cards expected) of a taille's stop card (S-STOPPOS)."""
    expected = games.GAMES[t.game][games.STOP_BEFORE] if t.game < len(games.GAMES) else 0
    if t.stop is None:
        return "stop_none", t.out, None, expected
    position = t.stop.fields[POSITION]
    behind = games.shoe_size(t.game) - position if t.game < len(games.GAMES) else 0
    return ("stop_ok" if behind == expected else "stop_bad"), position, behind, expected


# HTML.

CSS = """
@page { size: A4; margin: 14mm 12mm 16mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif; color: #1a1a1a;
  background: #fff; margin: 0 auto; max-width: 1000px; padding: 24px 28px; font-size: 14px; line-height: 1.4; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 2px solid #1a1a1a; }
h3 { font-size: 16px; margin: 20px 0 8px; }
.sub { color: #555; margin: 0 0 16px; }
.verdicts { display: flex; gap: 12px; margin: 16px 0; flex-wrap: wrap; }
.verdict { border: 2px solid; border-radius: 6px; padding: 8px 14px; min-width: 200px; }
.verdict b { display: block; font-size: 18px; }
.ok { border-color: #2e7d32; color: #1b5e20; }
.bad { border-color: #c62828; color: #b71c1c; }
.warn { border-color: #b26a00; color: #7a4a00; }
.t-ok { color: #1b5e20; } .t-bad { color: #b71c1c; font-weight: bold; } .t-warn { color: #7a4a00; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 14px; }
th, td { border: 1px solid #bbb; padding: 4px 7px; text-align: left; vertical-align: top; }
th { background: #eef1f5; font-weight: bold; }
tr { break-inside: avoid; }
table.ident th { width: 30%; }
.mono { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 12px; }
.card { display: inline-block; min-width: 2.1em; padding: 0 3px; margin: 1px 1px; border: 1px solid #999;
  border-radius: 3px; text-align: center; font-weight: bold; background: #fff; }
.card.red { color: #c62828; }
.hand { white-space: nowrap; margin-right: 10px; }
.hand i { color: #555; font-size: 12px; font-style: normal; }
.notes > span { display: block; font-size: 12px; }
.notes .alarm, .notes .finding { color: #b71c1c; }
.notes .finding { font-weight: bold; }
.notes .stop { color: #1b5e20; font-weight: bold; }
.notes .end, .notes .burn { color: #666; }
tr.between td { background: #fafafa; }
td.num { white-space: nowrap; }
.coups .c1 { width: 7%; } .coups .c2 { width: 43%; } .coups .c3 { width: 22%; } .coups .c4 { width: 28%; }
tr.between td.num { font-size: 11px; font-style: italic; color: #666; }
tr.incident td.num { border-left: 4px solid #e08a1e; }
.finding-group { border: 1px solid #bbb; border-left: 5px solid #c62828; padding: 8px 12px; margin: 12px 0;
  break-inside: avoid; }
.finding-group h3 { margin: 0 0 6px; }
blockquote { margin: 6px 0 8px; padding: 4px 12px; border-left: 3px solid #888; font-style: italic; }
blockquote cite { font-style: normal; color: #555; margin-left: 8px; white-space: nowrap; }
blockquote .gloss { display: block; font-style: normal; color: #555; font-size: 12.5px; margin-top: 3px; }
.check { border: 2px solid; border-radius: 6px; padding: 6px 12px; margin: 8px 0 12px; }
.taille { break-before: page; }
.chart { width: 100%; height: auto; border: 1px solid #ddd; margin: 6px 0 12px; }
footer { margin-top: 30px; color: #666; font-size: 12px; border-top: 1px solid #ccc; padding-top: 8px; }
@media print {
  body { padding: 0; max-width: none; font-size: 11.5px; }
  h2 { break-after: avoid; }
  thead { display: table-header-group; }
  a { color: inherit; text-decoration: none; }
}
"""


def card_html(card):
    name = cards.name(card)
    if card >= cards.STOP:
        return '<span class="card" title="%s">%s</span>' % (_e(name), _e(name))
    rank = "10" if name[0] == "T" else name[0]
    red = " red" if name[1] in RED_SUITS else ""
    return '<span class="card%s" title="%s">%s%s</span>' % (red, _e(name), _e(rank), SUIT_SIGNS[name[1]])


def _result_parts(f, game, w):
    """(the hands' totals, who won) in words: in English logview's, the words `sabot log show` prints."""
    if w.lang == "en":
        totals, _, said = names.result(f[CODE], f[DISPOSITION]).partition("; ")
        return totals, said
    hands, code = f[DISPOSITION], f[CODE]
    totals = ", ".join("%s %d" % (hand_name(game, h), code >> 4 * h & 15) for h in range(hands))
    winners = [_word(names.WINNERS, code >> 12 + 2 * t & 3) for t in range(max(hands - 1, 1))]
    return totals, w["winner"] % winners[0] if hands <= 2 else w["winners"] % tuple(winners[:2])


def _lines_html(lines, w):
    out = []
    for css, text in lines:
        if css == "burn":
            out.append('<span class="burn">%s %s</span>' % (_e(w["burn_row"]), "".join(card_html(c) for c in text)))
        else:
            out.append('<span class="%s">%s</span>' % (css, _e(text)))
    return "".join(out)


def _coup_html(coup, game, w):
    if coup.result is not None:
        parts = []
        for h in range(coup.result[DISPOSITION]):
            dealt = "".join(card_html(c) for hand, c in coup.cards if hand == h)
            parts.append('<span class="hand"><i>%s</i> %s</span>' % (_e(hand_name(game, h)), dealt))
        cells = " ".join(parts)
        result = "%s<br><b>%s</b>" % tuple(map(_e, _result_parts(coup.result, game, w)))
    else:
        cells = "".join(card_html(c) for _, c in coup.cards)
        result = ""
    lines = list(coup.lines)
    if coup.end is not None and (coup.result is None or coup.end != END_TABLEAU):
        lines.append(("end", w.of(_word(names.ENDS, coup.end))))
    cls = ' class="incident"' if any(css in INCIDENTS for css, _ in coup.lines) else ""
    return '<tr%s><td class="num">%d</td><td>%s</td><td>%s</td><td class="notes">%s</td></tr>' % (
        cls, coup.number, cells, result, _lines_html(lines, w))


def _between_html(between, w):
    return '<tr class="between"><td class="num">%s</td><td colspan="3" class="notes">%s</td></tr>' % (
        _e(w["between"]), _lines_html(between.lines, w))


def chart(t, w):
    """The taille as an inline SVG: one bar per coup (cards dealt), incidents marked above the bars."""
    row = games.GAMES[t.game] if t.game < len(games.GAMES) else games.GAMES[0]
    top, low = row[games.COUP_MAX], row[games.COUP_MIN]
    coups = [c for c in t.items if isinstance(c, Coup)]
    n = max([c.number for c in coups] + [t.last_coup, 1])
    stacks = {}
    placed = []
    for x, kind, tip in t.marks:
        if kind == "stop":
            continue
        level = stacks.get(x, 0)
        stacks[x] = level + 1
        placed.append((x, level, kind, tip))
    levels = max(stacks.values(), default=0)
    width, left, right = 960, 40, 14
    mark_top = 8
    plot_top = mark_top + 16 * max(levels, 1) + 10
    plot_h = 150
    axis_y = plot_top + plot_h
    legend, legend_rows = _legend(w, left, axis_y + 44, width - right)
    height = axis_y + 44 + 18 * legend_rows

    def sx(x):
        return left + (width - left - right) * x / (n + 1)

    def sy(v):
        return axis_y - plot_h * v / top

    out = ['<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" '
           'aria-label="%s">' % (width, height, _e(w["chart"])), "<title>%s</title>" % _e(w["chart"])]
    for v in range(top + 1):
        y = sy(v)
        colour = "#d6d6d6" if v not in (low, top) else "#7a7a7a"
        dash = ' stroke-dasharray="5 4"' if v in (low, top) and v else ""
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"%s/>' % (
            left, y, width - right, y, colour, dash))
        out.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end" fill="#444">%d</text>' % (
            left - 6, y + 4, v))
    slot = (width - left - right) / (n + 1)
    bar = max(2.0, min(18.0, slot * 0.7))
    for c in coups:
        dealt = len(c.cards)
        hit = any(css in INCIDENTS for css, _ in c.lines)
        fill = "#e08a1e" if hit else "#4f77b0"
        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %d: %s</title></rect>'
                   % (sx(c.number) - bar / 2, sy(dealt), bar, axis_y - sy(dealt), fill, _e(w["col_coup"]),
                      c.number, _e(w["cards_n"] % dealt)))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#1a1a1a"/>' % (left, axis_y, width - right, axis_y))
    step = 1 if n <= 25 else 5 if n <= 125 else 10
    for number in range(step, n + 1, step):
        out.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#444">%d</text>' % (
            sx(number), axis_y + 14, number))
    out.append('<text x="%d" y="%d" font-size="11" text-anchor="end" fill="#444">%s</text>' % (
        width - right, axis_y + 28, _e(w["chart_coups"])))
    for x, kind, tip in t.marks:
        if kind == "stop":
            out.append('<g class="mark stop"><title>%s</title><line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                       'stroke="#2e7d32" stroke-width="2" stroke-dasharray="6 3"/><text x="%.1f" y="%d" font-size="11" '
                       'fill="#2e7d32" font-weight="bold"%s>STOP</text></g>' % (
                           _e(tip), sx(x), plot_top - 4, sx(x), axis_y, sx(x) + (4 if sx(x) < width - 50 else -4),
                           plot_top + 8, "" if sx(x) < width - 50 else ' text-anchor="end"'))
    for x in stacks:
        if x % 1:  # between two coups: a guide down to the axis, between their bars
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#bbb" stroke-dasharray="2 3"/>' % (
                sx(x), plot_top - 6, sx(x), axis_y))
    for x, level, kind, tip in placed:
        cy = plot_top - 12 - 16 * level
        out.append(_symbol(kind, sx(x), cy, tip))
    if not coups:
        out.append('<text x="%d" y="%d" font-size="14" text-anchor="middle" fill="#777">%s</text>' % (
            width // 2, axis_y - plot_h // 2, _e(w["no_coup"])))
    out.append(legend)
    out.append("</svg>")
    return "".join(out)


def _symbol(kind, x, y, tip):
    return '<g class="mark %s"><title>%s</title>%s</g>' % (kind, _e(tip), _shape(kind, x, y))


def _shape(kind, x, y):
    if kind == "alarm":
        return '<path d="M%.1f %.1f l6 11 h-12 z" fill="#c62828"/>' % (x, y - 6)
    if kind == "finding":
        return '<path d="M%.1f %.1f l6 6 l-6 6 l-6 -6 z" fill="#6a1b9a"/>' % (x, y - 6)
    if kind == "forced":
        return '<path d="M%.1f %.1f l10 10 m0 -10 l-10 10" stroke="#1a1a1a" stroke-width="2.5"/>' % (x - 5, y - 5)
    if kind == "double":
        return ('<rect x="%.1f" y="%.1f" width="8" height="10" fill="#fff" stroke="#00695c" stroke-width="1.5"/>'
                '<rect x="%.1f" y="%.1f" width="8" height="10" fill="#fff" stroke="#00695c" stroke-width="1.5"/>'
                % (x - 6, y - 6, x - 2, y - 4))
    return '<circle cx="%.1f" cy="%.1f" r="5" fill="none" stroke="#555" stroke-width="2"/>' % (x, y)


def _legend(w, x, y, right):
    """The chart's legend in rows that fit its width: (svg, rows)."""
    start, rows = x, 1
    items = [("bar", w["legend_bar"]), ("incident", w["legend_incident"]), ("alarm", w["legend_alarm"]),
             ("finding", w["legend_finding"]), ("forced", w["legend_forced"]), ("double", w["legend_double"]),
             ("power", w["legend_power"]), ("stop", w["legend_stop"]), ("limits", w["legend_limits"])]
    out = ["<g font-size=\"11\" fill=\"#333\">"]
    for kind, text in items:
        size = 26 + int(6.6 * len(text))
        if x + size > right:
            x, y, rows = start, y + 18, rows + 1
        if kind in ("bar", "incident"):
            out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>' % (
                x, y - 9, "#4f77b0" if kind == "bar" else "#e08a1e"))
        elif kind == "stop":
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#2e7d32" stroke-width="2" '
                       'stroke-dasharray="4 2"/>' % (x + 5, y - 11, x + 5, y + 2))
        elif kind == "limits":
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#7a7a7a" stroke-dasharray="4 3"/>' % (
                x - 2, y - 4, x + 14, y - 4))
        else:
            out.append(_shape(kind, x + 5, y - 4))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 18, y, _e(text)))
        x += size
    out.append("</g>")
    return "".join(out), rows


def _quote_html(rid, w):
    article, french, english = QUOTES.get(rid, (ARTICLES.get(rid, ""), "", ""))
    if not french:
        return ""
    gloss = '<span class="gloss">%s%s</span>' % (_e(w["gloss"]), _e(english)) if w.lang != "fr" else ""
    return '<blockquote lang="fr">%s<cite>— %s</cite>%s</blockquote>' % (_e(french), _e(article), gloss)


def _where(seq, located):
    record = located.get(seq)
    if record is None:
        return "—"
    f = record.fields
    return "%d / %d / %d" % (f[SEANCE], f[TAILLE], f[COUP])


def _findings_html(findings, located, w):
    if not findings:
        return '<p class="check ok">%s</p>' % _e(w["no_findings"])
    groups = {}
    for f in findings:
        groups.setdefault(f.id, []).append(f)
    out = []
    for rid, group in groups.items():
        article = QUOTES.get(rid, (ARTICLES.get(rid, ""),))[0]
        title = w.title(rid)
        out.append('<div class="finding-group"><h3>%s%s — %s <small>(%s)</small></h3>%s' % (
            _e(rid), " · " + _e(title) if title else "", _e(article), _e(w["finding_count"] % len(group)),
            _quote_html(rid, w)))
        out.append("<table><thead><tr><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>" % (
            _e(w["col_seq"]), _e(w["col_where"]), _e(w["col_message"])))
        for f in group:
            out.append("<tr><td>%d</td><td>%s</td><td>%s</td></tr>" % (f.seq, _where(f.seq, located),
                                                                      _e(f.message)))
        out.append("</tbody></table></div>")
    return "".join(out)


def _stop_html(t, w):
    key, position, behind, expected = stop_check(t)
    text = w[key] % ((position,) if key == "stop_none" else (position, behind, expected))
    css = "ok" if key == "stop_ok" else "bad" if key == "stop_bad" else "warn"
    after = ""
    if t.stop_after:
        after = "<br>%s" % _e(w["stop_after"])
        css = "bad"
    return '<p class="check %s"><b>%s</b>%s%s</p>' % (css, _e(w["stop"] + " (S-STOPPOS, S-STOP)" + w["colon"]),
                                                     _e(text), after)


def _stop_short(t, w):
    key = stop_check(t)[0]
    return w[{"stop_ok": "stop_short", "stop_bad": "stop_short_bad", "stop_none": "stop_short_none"}[key]]


def _taille_html(seance, t, w):
    row = games.GAMES[t.game] if t.game < len(games.GAMES) else None
    head = "%s — %s, %s — %s" % (w["taille"] % t.number, w["seance"] % seance.number,
                                 w["table"] % (seance.table if seance.table is not None else "—"), _game_name(t.game))
    out = ['<section class="taille"><h2>%s</h2>' % _e(head)]
    if row:
        out.append('<p class="sub">%s · %s %s %s</p>' % (
            _e(w["decks"] % (row[games.DECKS], row[games.STOP_BEFORE], row[games.COUP_MIN], row[games.COUP_MAX])),
            _e(iso_time(t.record)[:19].replace("T", " ")), _e(w["utc"]), "· seq %d" % t.record.seq))
    out.append(_stop_html(t, w))
    out.append("<h3>%s</h3>%s" % (_e(w["chart"]), chart(t, w)))
    out.append('<table class="coups"><colgroup><col class="c1"><col class="c2"><col class="c3"><col class="c4">'
               "</colgroup><thead><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>" % (
        _e(w["col_coup"]), _e(w["col_cards"]), _e(w["col_result"]), _e(w["col_notes"])))
    for item in t.items:
        out.append(_coup_html(item, t.game, w) if isinstance(item, Coup) else _between_html(item, w))
    out.append("</tbody></table></section>")
    return "".join(out)


def render(segments, reader, records, findings, key, key_file, paths, lang="fr"):
    """The whole report as one HTML string."""
    w = Words(lang)
    seances, preamble = build(records, findings, w)
    located = {r.seq: r for r in records}
    intact = not any(f.id == "J-TAMPER" for f in findings)
    sabots = sorted({s.sabot for s in segments})
    title = w["title"] % ", ".join(map(str, sabots))
    out = ['<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8">' % w["lang"],
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<title>%s</title><style>%s</style></head><body>" % (_e(title), CSS),
           "<h1>%s</h1>" % _e(title)]
    if records:
        out.append('<p class="sub">%s%s — %s %s</p>' % (
            _e(w["period"] + w["colon"]), _e(iso_time(records[0])[:19].replace("T", " ")),
            _e(iso_time(records[-1])[:19].replace("T", " ")), _e(w["utc"])))
    development = key == DEVELOPMENT_KEY
    out.append('<div class="verdicts"><div class="verdict %s"><b>%s</b>%s</div>' % (
        "ok" if intact else "bad", _e(w["integrity"] + w["colon"] + (w["intact"] if intact else w["broken"])),
        _e(w["seq"] % (reader.first_seq, reader.seq))))
    out.append('<div class="verdict %s"><b>%s</b>%s</div>' % (
        "ok" if not findings else "bad", _e(w["finding_count"] % len(findings)), _e(w["findings"])))
    if development:
        out.append('<div class="verdict warn"><b>%s</b>%s</div>' % (_e(w["key"]), _e(w["key_dev"])))
    out.append("</div>")
    out.append(_identity_html(segments, reader, key_file, development, paths, w))
    out.append("<h2>%s</h2><p class=\"check %s\"><b>%s</b> — %s. %s%d, %s.</p>" % (
        _e(w["integrity"]), "ok" if intact else "bad", _e(w["intact"] if intact else w["broken"]),
        _e(w["intact_words"] if intact else w["broken_words"]), _e(w["records"] + w["colon"]), reader.records,
        _e(w["seq"] % (reader.first_seq, reader.seq))))
    out.append(_summary_html(seances, w))
    out.append("<h2>%s</h2>%s" % (_e(w["findings"]), _findings_html(findings, located, w)))
    if preamble:
        out.append('<h3>%s</h3><p class="notes">%s</p>' % (_e(w["before"]), _lines_html(
            [("", text) for text in preamble], w)))
    for seance in seances:
        for t in seance.tailles:
            out.append(_taille_html(seance, t, w))
    out.append("<footer>%s</footer></body></html>\n" % _e(w["footer"]))
    return "".join(out)


def _identity_html(segments, reader, key_file, development, paths, w):
    rows = [(w["sabot"], ", ".join(str(s) for s in sorted({s.sabot for s in segments})))]
    firmwares = []
    for s in segments:
        words = firmware_name(s.firmware), s.firmware.hex(" ")
        if not firmwares or firmwares[-1][0] != words:
            firmwares.append((words, [s.number]))
        else:
            firmwares[-1][1].append(s.number)
    for (name, hexed), numbers in firmwares:
        where = " (segments %d–%d)" % (numbers[0], numbers[-1]) if len(firmwares) > 1 else ""
        rows.append((w["firmware"] + where, '%s<br><span class="mono">%s</span>' % (_e(name), _e(hexed)), True))
    key_words = w["key_dev"] if development else w["key_given"] % key_file
    ids = w["key_id"] % reader.key_id.hex()
    others = sorted({s.key_id.hex() for s in segments} - {reader.key_id.hex()})
    if others:
        ids += "; " + w["other_keys"] % ", ".join(others)
    rows.append((w["key"], '%s<br><span class="mono">%s</span>' % (_e(key_words), _e(ids)), True))
    rows.append((w["segments"], "%d%s%s" % (len(segments), w["colon"], ", ".join(s.path.name for s in segments))))
    rows.append((w["journal"], " ".join(str(p) for p in paths)))
    out = ["<h2>%s</h2><table class=\"ident\"><tbody>" % _e(w["identity"])]
    for item in rows:
        value = item[1] if len(item) == 3 else _e(item[1])
        out.append("<tr><th>%s</th><td>%s</td></tr>" % (_e(item[0]), value))
    out.append("</tbody></table>")
    return "".join(out)


def _summary_html(seances, w):
    out = ["<h2>%s</h2><table><thead><tr>" % _e(w["summary"])]
    for key in ("col_seance", "col_table", "col_taille", "game", "coups", "dealt", "burned", "stop", "findings"):
        out.append("<th>%s</th>" % _e(w[key]))
    out.append("</tr></thead><tbody>")
    for seance in seances:
        table = str(seance.table) if seance.table is not None else "—"
        if seance.employee:
            table += " (%s)" % (w["by"] % seance.employee)
        if not seance.tailles:
            out.append("<tr><td>%d</td><td>%s</td><td colspan=\"7\">—</td></tr>" % (seance.number, _e(table)))
        for t in seance.tailles:
            coups = sum(1 for c in t.items if isinstance(c, Coup))
            key = stop_check(t)[0]
            css = ' class="%s"' % ("t-ok" if key == "stop_ok" and not t.stop_after else "t-bad" if key == "stop_bad"
                                   or t.stop_after else "t-warn")
            out.append("<tr><td>%d</td><td>%s</td><td>%d</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td>"
                       "<td%s>%s</td><td>%s</td></tr>" % (
                           seance.number, _e(table), t.number, _e(_game_name(t.game)), coups, t.dealt, t.burned,
                           css, _e(_stop_short(t, w)), _e(", ".join(sorted({f.id for f in t.findings})) or "—")))
    out.append("</tbody></table>")
    return "".join(out)


def report(paths, output, lang="fr", key_file=None):
    """Write the report; 0 when written, 2 when the journal cannot be read or the file written."""
    try:
        if len(journals_of(paths)) > 1:
            raise Unusable("one journal per report: give one journal folder, or segment files of one journal "
                           "(sabot log verify checks several journals together)")
        key = read_key(key_file)
        records = []
        segments, reader, findings = check(paths, key, records)
    except Unusable as e:
        print("sabot report: error: %s" % e, file=sys.stderr)
        return 2
    page = render(segments, reader, records, findings, key, key_file, paths, lang)
    try:
        Path(output).write_text(page, encoding="utf-8")
    except OSError as e:
        print("sabot report: error: cannot write %s: %s" % (output, e.strerror), file=sys.stderr)
        return 2
    print("report written to %s (%s): %d records, %d finding(s)" % (output, lang, reader.records, len(findings)))
    return 0


def add_arguments(parser):
    """`sabot report`'s arguments, for cli.py."""
    parser.add_argument("paths", nargs="+", metavar="JOURNAL", help="a journal folder, or segment files of one journal")
    parser.add_argument("-o", "--output", required=True, help="the HTML file to write")
    parser.add_argument("--lang", choices=("fr", "en"), default="fr", help="the report's language (default fr)")
    parser.add_argument("--key", help="the shoe's key file (hexadecimal); without it, the development key")


def main(args):
    return report(args.paths, args.output, args.lang, args.key)
