"""The coups of a verified journal with the bank's result on each tableau, as the croupier announces them
(Article 62): what the shoe journalled in each R_RESULT."""

from firmware import games, records
from firmware.record_names import unpack_employee, unpack_winners
from sabot.cagnotte.levy import EGALITE, GAGNANT, PERDANT
from sabot.journalfile import CARD, CODE, CONDITION, COUP, DISPOSITION, SEANCE, TAILLE, TYPE
from sabot.verify import check

FOR_THE_BANK = {records.WIN_BANQUE: GAGNANT, records.WIN_PONTE: PERDANT, records.WIN_EGALITE: EGALITE}


class Seance:
    """A séance as the carnet and the declaration give it: its table, the sabot assigned to it (Article 58's
    column 3), who assigned it, when it opened (its record's seq) and closed (None while open), and the games it
    was opened for or had a shoe of loaded."""

    __slots__ = ("number", "table", "sabot", "employee", "opened_ms", "seq", "closed_ms", "games")

    def __init__(self, record):
        f = record.fields
        self.number, self.table, self.sabot = f[SEANCE], f[CODE], record.segment.sabot
        self.employee = unpack_employee(f[DISPOSITION], f[CONDITION])
        self.opened_ms, self.seq, self.closed_ms = record.time_ms, record.seq, None
        self.games = {f[CARD]}


class Coup:
    __slots__ = ("key", "game", "results", "table", "seq")

    def __init__(self, key, game, results, table, seq):
        self.key, self.game, self.results, self.table, self.seq = key, game, results, table, seq


def read(paths, key, seances=None):
    """([Coup] in the journal's order, the verifier's findings): a coup whose result the shoe journalled. A dict given
    as seances receives each séance by its number."""
    found = []
    _, _, findings = check(paths, key, found)
    game, table, current = games.CHEMIN_DE_FER, 0, None
    coups = []
    seances = {} if seances is None else seances
    for record in found:
        f = record.fields
        if f[TYPE] == records.R_LOAD and f[CODE] < len(games.GAMES):
            game = f[CODE]
            if current:
                current.games.add(game)
        elif f[TYPE] == records.R_SEANCE:
            table = f[CODE]
            current = seances[f[SEANCE]] = Seance(record)
        elif f[TYPE] == records.R_SEANCE_CLOSE and f[SEANCE] in seances:
            seances[f[SEANCE]].closed_ms = record.time_ms
        elif f[TYPE] == records.R_RESULT:
            winners = unpack_winners(f[CODE], f[DISPOSITION])
            results = tuple(FOR_THE_BANK.get(w, "?") for w in winners)
            coups.append(Coup((f[SEANCE], f[TAILLE], f[COUP]), game, results, table, record.seq))
    return coups, findings
