"""S-IDENT across journals, from the séances each journal's rules saw (sabot.rules' Rules.seances): what
`sabot log verify` checks over the journals it is given, and `sabot fleet ingest` over each one it stores."""

from sabot.journalfile import Finding


def assignment_findings(journals, limit):
    """S-IDENT across journals: a shoe assigned to the same table in `limit` consecutive séances (Article 58:
    the same shoes must not systematically go to the same tables). journals: (label, sabot, seances)."""
    by_shoe = {}
    for order, (label, sabot, seances) in enumerate(journals):
        by_shoe.setdefault(sabot, []).extend((time, order, seq, table, label) for time, table, seq in seances)
    found = []
    for sabot, seances in sorted(by_shoe.items()):
        run = 0
        previous = None
        for _time, _order, seq, table, label in sorted(seances):  # same times: the journals' order given
            run = run + 1 if table == previous else 1
            previous = table
            if run == limit:
                found.append((label, Finding("S-IDENT", seq, "sabot %d assigned to table %d in %d consecutive "
                                             "séances" % (sabot, table, limit))))
    return found
