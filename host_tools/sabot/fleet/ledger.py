"""`sabot fleet ingest-ledger`: a sabot's cagnotte ledger (docs/cagnotte.md) into the fleet database, checked first
against that sabot's journal already ingested (verified then), as `sabot cagnotte check` checks it; each coup of
both kept in `levies` with its table, its croupier (the employee who opened the séance), its stakes, the levy due,
the levy taken and its tickets, so that the fleet's checks compare tables and croupiers across a casino (F-LEVY)."""

import sys
from decimal import Decimal

import pyarrow as pa

from firmware import games
from firmware.record_names import unpack_winners
from sabot.cagnotte import check, ledger, levy
from sabot.cagnotte.coups import FOR_THE_BANK, Coup
from sabot.cagnotte.stakes import BadStakes
from sabot.fleet import schema, store
from sabot.fleet.store import Unusable

_MONEY = pa.decimal128(12, 2)
_CENTS = Decimal("0.01")
_COLUMNS = (("casino", pa.string()), ("sabot", pa.int32()), ("seance", pa.int32()), ("taille", pa.int32()),
            ("coup", pa.int32()), ("table_no", pa.int32()), ("employee", pa.int32()), ("game", pa.int32()),
            ("stake_1", _MONEY), ("stake_2", _MONEY), ("due", _MONEY), ("levied", _MONEY), ("tickets", _MONEY),
            ("ticket_items", pa.string()))


def journal_coups(con, casino, sabot):
    """([Coup] of the sabot's ingested journal, {key: (table, employee)}); Unusable when it has none there."""
    if not con.execute("SELECT 1 FROM segments WHERE casino = ? AND sabot = ? LIMIT 1", [casino, sabot]).fetchone():
        raise Unusable("casino %s has no journal of sabot %d in the database: sabot fleet ingest it first" % (
            casino, sabot))
    rows = con.execute(schema.sql("ledger_coups").format(**store.params()),
                       {"casino": casino, "sabot": sabot}).fetchall()
    coups, where = [], {}
    for seance, taille, coup, seq, code, hands, game, table, employee in rows:
        game = game if game is not None and game < len(games.GAMES) else games.CHEMIN_DE_FER
        results = tuple(FOR_THE_BANK.get(w, "?") for w in unpack_winners(code, hands))
        coups.append(Coup((seance, taille, coup), game, results, table or 0, seq))
        where[(seance, taille, coup)] = (table or 0, employee or 0)
    return coups, where


def _items(tickets):
    return " ".join("%sx%d" % (value, count) for value, count in sorted(tickets.items(), reverse=True))


def rows(casino, sabot, coups, where, entries):
    """The levies' rows of the coups both the journal and the ledger have."""
    found = []
    for coup in coups:
        entry = entries.get(coup.key)
        if entry is None:
            continue
        stakes = tuple(s or Decimal(0) for s in (entry.stakes if len(coup.results) > 1 else entry.stakes[:1]))
        due = levy.due(coup.game, coup.results, stakes)[0]
        found.append((casino, sabot) + coup.key + where[coup.key] + (coup.game,) + tuple(
            None if s is None else s.quantize(_CENTS) for s in entry.stakes) + (
            due.quantize(_CENTS), entry.levy.quantize(_CENTS), entry.tickets_total().quantize(_CENTS),
            _items(entry.tickets)))
    return found


def store_rows(con, casino, sabot, found):
    """The sabot's levies replaced by these, in one transaction: a ledger ingested again replaces its earlier one."""
    table = pa.table({name: pa.array([r[i] for r in found], type=kind) for i, (name, kind) in enumerate(_COLUMNS)})
    with store.transaction(con):
        con.execute("DELETE FROM levies WHERE casino = ? AND sabot = ?", [casino, sabot])
        con.register("ledger_rows", table)
        con.execute("INSERT INTO levies SELECT * FROM ledger_rows")
        con.unregister("ledger_rows")


def _money(amount):
    return format(amount.quantize(_CENTS), "f").replace(".", ",") + "\u00a0€"


def _percent(rate):
    return format((rate * 100).normalize(), "f").replace(".", ",")


def ingest_ledger(path, db, casino, sabot, out=sys.stdout, err=sys.stderr):
    """Exit status: 0 the ledger agrees with the journal, 1 findings (each said, in French; the coups kept all the
    same), 2 unusable input (nothing written)."""
    try:
        store.casino_name(casino)
        entries = ledger.read(path)
        con = store.open_database(db, create=False)
    except (BadStakes, Unusable) as e:
        print("sabot fleet ingest-ledger: error: %s" % e, file=err)
        return 2
    try:
        try:
            coups, where = journal_coups(con, casino, sabot)
        except Unusable as e:
            print("sabot fleet ingest-ledger: error: %s" % e, file=err)
            return 2
        found = rows(casino, sabot, coups, where, entries)
        findings = check.check(coups, dict(entries))
        store_rows(con, casino, sabot, found)
    finally:
        con.close()
    for f in findings:
        requirement, article = check.SAID[f.what][:2]
        out.write("%-9s (art. %s) séance %d, taille %d, coup %d : %s\n" % (
            (requirement, article) + f.key + (f.said("fr", _money, _percent),)))
    out.write("%s : sabot %d, %d coup(s) du registre enregistré(s) ; %s\n" % (
        path, sabot, len(found), "aucune constatation" if not findings else "%d constatation(s)" % len(findings)))
    return 1 if findings else 0
