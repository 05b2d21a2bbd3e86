"""`sabot fleet check`: the checks across shoes that no single journal can show, each a SQL file both engines run
(sql/check_*.sql), its rows turned here into findings in French, each with its requirement ID, its article and
the casinos, sabots and séances concerned. The results' counts come from SQL; their exact binomial tests from
sabot.fleet.stats, on the same integers whichever engine counted them."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from sabot.fleet import schema, stats, store

ARTICLES = {"F-ASSIGN": "Article 58", "F-INVENTORY": "Article 58", "F-RESULTS": "Article 59",
            "F-REPEAT": "Article 58", "F-DEAL": "Article 58", "F-LEVY": "Articles 59, 60",
            "F-OUVERTE": "Article 61"}
DEFAULTS = schema.DEFAULTS
_EPOCH = datetime(2020, 1, 1, tzinfo=UTC)
_WHO = {"banque": "la banque gagnante", "ponte": "le ponte gagnant", "egalite": "égalité"}
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def nombre(value, decimals=None):
    """A number as French writes it: a decimal comma, a narrow no-break space between thousands; decimals None:
    two significant digits, a small one as a power of ten (1,2 × 10⁻⁷)."""
    if decimals is not None:
        return "{:,.{}f}".format(value, decimals).replace(",", "\u202f").replace(".", ",")
    text = "%.2g" % value
    if "e" not in text:
        return text.replace(".", ",")
    mantissa, exponent = text.split("e")
    return "%s\u00a0×\u00a010%s" % (mantissa.replace(".", ","), str(int(exponent)).translate(_SUPERSCRIPT))


def day(ms):
    """A record's time (ms since 2020-01-01 UTC) as its date."""
    return (_EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%d")


def moment(ms):
    """A record's time as its date, hour and minute (UTC)."""
    return (_EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%d à %H:%M")


def statement(name, **values):
    return schema.sql(name).format(**store.params(), **values)


def finding(rid, casino, where, message):
    """where: [(casino, sabot, séance or None)] concerned, the finding's own first."""
    return {"id": rid, "article": ARTICLES[rid], "casino": casino,
            "where": [{"casino": c, "sabot": s, "seance": n} for c, s, n in where], "message": message}


def assignment(engine, same_table):
    return [finding("F-ASSIGN", casino, [(casino, sabot, first)],
                    "sabot %d affecté à la table %d lors de %d séances consécutives (séances %d à %d, du %s au %s)" % (
                        sabot, table, seances, first, last, day(first_ms), day(last_ms)))
            for casino, sabot, table, seances, first, last, first_ms, last_ms in engine.query(
                statement("check_assignment", same_table=int(same_table)))]


def silent(engine, silent_days):
    return [finding("F-INVENTORY", casino, [(casino, sabot, last_seance)],
                    "sabot %d muet depuis le %s : aucun enregistrement depuis %s jours, quand le casino en a "
                    "jusqu'au %s (%d séance(s), la dernière n° %d)" % (
                        sabot, day(last_ms), nombre((casino_ms - last_ms) / 86_400_000, 1), day(casino_ms), seances,
                        last_seance))
            for casino, sabot, last_ms, casino_ms, last_seance, seances in engine.query(
                statement("check_silent", silent_ms=int(silent_days * 86_400_000)))]


def results(engine, alarm):
    """Per sabot and per table, one Bonferroni family over the whole fleet."""
    groups = {}
    for casino, sabot, coups, banque, ponte, egalite in engine.query(statement(
            "check_results_sabot", chemin_de_fer=0)):
        groups[("sabot", casino, sabot)] = {"coups": coups, "banque": banque, "ponte": ponte, "egalite": egalite}
    for casino, table, coups, banque, ponte, egalite in engine.query(statement(
            "check_results_table", chemin_de_fer=0)):
        groups[("table", casino, table)] = {"coups": coups, "banque": banque, "ponte": ponte, "egalite": egalite}
    limit = stats.threshold(len(groups) * len(stats.OUTCOMES), alarm)
    found = []
    for (kind, casino, number), outcome, coups, count, expected, p in stats.outlying(groups, alarm):
        found.append(finding("F-RESULTS", casino, [(casino, number if kind == "sabot" else None, None)],
                             "%s %d : %s coups, %s %s fois pour %s attendues (p = %s, sous le seuil %s du "
                             "taux de fausse alerte de %s\u202f%% sur la flotte)" % (
                                 kind, number, nombre(coups, 0), _WHO[outcome], nombre(count, 0),
                                 nombre(expected, 1), nombre(p), nombre(limit), nombre(alarm * 100))))
    return found


def repeats(engine, window):
    window = int(window)
    return [finding("F-REPEAT", casino, [(casino, sabot, seance), (first_casino, first_sabot, first_seance)],
                    "taille %d (séance %d) du sabot %d du casino %s : %d cartes à la suite dans l'ordre de la "
                    "taille %d (séance %d) du sabot %d du casino %s, dès sa carte %d" % (
                        taille, seance, sabot, casino, windows + window - 1, first_taille, first_seance, first_sabot,
                        first_casino, at))
            for (casino, sabot, taille, seance, first_casino, first_sabot, first_taille, first_seance, windows, at,
                 _first_at) in engine.query(statement("check_repeats", window=window, following=window - 1))]


def deal(engine, max_burns):
    found = [finding("F-DEAL", casino, [(casino, sabot, seance)],
                     "taille %d (séance %d) du sabot %d : %d coup(s) hors des %d à %d cartes du jeu (de %d à %d "
                     "cartes), dès le coup %d" % (taille, seance, sabot, coups, low, high, fewest, most, first))
             for casino, sabot, taille, seance, coups, first, fewest, most, low, high in engine.query(
                 statement("check_coup_cards"))]
    found += [finding("F-DEAL", casino, [(casino, sabot, seance)],
                      "taille %d (séance %d) du sabot %d : %d cartes brûlées, plus de %d (%d distribuées)" % (
                          taille, seance, sabot, burned, int(max_burns), dealt))
              for casino, sabot, taille, seance, burned, dealt in engine.query(
                  statement("check_burns", max_burns=int(max_burns)))]
    return found


def levies(engine, ratio, least):
    """Each table and croupier of a casino's ledgers: its levied / due on the coups the bank won against the casino's
    (exact decimals, whichever engine summed them), out of line under `ratio` times it over at least `least` such
    coups; and any coup the bank won with nothing levied."""
    groups = engine.query(statement("check_levies"))
    casinos = {}
    for casino, kind, _group, _coups, _won, due, levied, _missing in groups:
        if kind == "table":
            total = casinos.setdefault(casino, [Decimal(0), Decimal(0)])
            total[0] += due
            total[1] += levied
    found = []
    for casino, kind, group, _coups, won, due, levied, missing in groups:
        name = "%s %d" % (kind, group)
        casino_due, casino_levied = casinos[casino]
        if won >= least and due and casino_due and levied * casino_due < Decimal(ratio) * due * casino_levied:
            found.append(finding("F-LEVY", casino, [(casino, None, None)],
                                 "%s : %s prélevés pour %s dus sur %d coups gagnés par la banque, soit %s\u202f%% "
                                 "du dû, quand le casino en prélève %s\u202f%% (seuil : %s fois celui du casino)" % (
                                     name, nombre(levied, 2), nombre(due, 2), won, nombre(100 * levied / due, 1),
                                     nombre(100 * casino_levied / casino_due, 1), nombre(Decimal(ratio), 2))))
        if missing:
            found.append(finding("F-LEVY", casino, [(casino, None, None)],
                                 "%s : %d coup(s) gagné(s) par la banque sans aucun prélèvement, sur %d" % (
                                     name, missing, won)))
    return found


def ouverte(engine):
    """Each casino day (06:00 to 06:00 UTC, as the shoe counts its séances) with séances at banque ouverte at more
    than one of a casino's tables: one finding naming the day, the tables and every séance."""
    days = {}
    for casino, day_no, table, sabot, seance, time_ms in engine.query(statement(
            "check_ouverte", ouverte=schema.OUVERTE, day_from_ms=schema.DAY_FROM_MS, day_ms=schema.DAY_MS)):
        days.setdefault((casino, day_no), []).append((table, sabot, seance, time_ms))
    return [finding("F-OUVERTE", casino, [(casino, sabot, seance) for _, sabot, seance, _ in seances],
                    "banque ouverte à %d tables le même jour (journée du %s, de 06:00 à 06:00 UTC) : %s ; "
                    "l'article 61 la permet à une seule table par casino" % (
                        len({s[0] for s in seances}), day(day_no * schema.DAY_MS),
                        ", ".join("table %d (séance %d du sabot %d, ouverte le %s UTC)" % (
                            table, seance, sabot, moment(time_ms)) for table, sabot, seance, time_ms in seances)))
            for (casino, day_no), seances in sorted(days.items())]


def run(engine, options=None):
    """Every check's findings, sorted: the same list from DuckDB and from Spark on the same files."""
    o = dict(DEFAULTS, **(options or {}))
    found = (assignment(engine, o["same_table"]) + silent(engine, o["silent_days"]) + results(engine, o["alarm"])
             + repeats(engine, o["window"]) + deal(engine, o["max_burns"])
             + levies(engine, o["levy_ratio"], o["levy_coups"]) + ouverte(engine))
    return sorted(found, key=lambda f: (f["id"], f["casino"], f["message"]))


def inventory(engine):
    """The carnet de prises en charge: {(casino, sabot): row} with its tables {table: séances}."""
    shoes = {}
    for row in engine.query(statement("inventory")):
        (casino, sabot, records, first_ms, last_ms, seances, first_seance, last_seance, first_seance_ms,
         last_seance_ms, tables) = row
        shoes[(casino, sabot)] = {"records": records, "first_ms": first_ms, "last_ms": last_ms, "seances": seances,
                                  "first_seance": first_seance, "last_seance": last_seance, "tables": {}}
    for casino, sabot, table, seances in engine.query(statement("inventory_tables")):
        shoes[(casino, sabot)]["tables"][table] = seances
    return shoes
