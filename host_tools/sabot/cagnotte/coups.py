"""The coups of a verified journal with the bank's result on each tableau, as the croupier announces them
(Article 62): what the shoe journalled in each R_RESULT."""

from firmware import games, records
from firmware.record_names import unpack_winners
from sabot.cagnotte.levy import EGALITE, GAGNANT, PERDANT
from sabot.journalfile import CODE, COUP, DISPOSITION, SEANCE, TAILLE, TYPE
from sabot.verify import check

FOR_THE_BANK = {records.WIN_BANQUE: GAGNANT, records.WIN_PONTE: PERDANT, records.WIN_EGALITE: EGALITE}


class Coup:
    __slots__ = ("key", "game", "results", "table", "seq")

    def __init__(self, key, game, results, table, seq):
        self.key, self.game, self.results, self.table, self.seq = key, game, results, table, seq


def read(paths, key):
    """([Coup] in the journal's order, the verifier's findings): a coup whose result the shoe journalled."""
    found = []
    _, _, findings = check(paths, key, found)
    game, table = games.CHEMIN_DE_FER, 0
    coups = []
    for record in found:
        f = record.fields
        if f[TYPE] == records.R_LOAD and f[CODE] < len(games.GAMES):
            game = f[CODE]
        elif f[TYPE] == records.R_SEANCE:
            table = f[CODE]
        elif f[TYPE] == records.R_RESULT:
            winners = unpack_winners(f[CODE], f[DISPOSITION])
            results = tuple(FOR_THE_BANK.get(w, "?") for w in winners)
            coups.append(Coup((f[SEANCE], f[TAILLE], f[COUP]), game, results, table, record.seq))
    return coups, findings
