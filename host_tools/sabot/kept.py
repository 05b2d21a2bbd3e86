"""Journals a shoe kept aside and the one it began after (issue 38): a new number (or a new element) sets the journal
aside on the shoe as journal.N, which `sabot pull-log` pulls beside the journal, and begins a new one, whose first
checkpoint ("journal begun") the element counts right after the kept journal's last. Given them together, `sabot log
verify` checks that each journal begun so starts where the one before it ends: a counter value between them no
journal accounts for is a journal missing or cut, a finding; a kept journal whose end its last checkpoint covers
and the next one continues needs no receipt of its own (the shoe gives one for its journal alone)."""

from firmware.format import checkpoint as cp
from sabot.journalfile import Finding


def linked(journals):
    """journals: (label, key id, checkpoints Result) of each journal verify checked. (findings as (label, Finding),
    the labels of kept journals whose end the next one vouches for). Only checkpoints checked with a public key
    count: without one, nothing is said of them."""
    chains = {}
    for label, key_id, result in journals:
        entries = result.entries
        if result.checked and len(entries):
            first, last = entries[0], entries[len(entries) - 1]
            chains.setdefault(key_id, []).append((first.counter, last.counter, first.reason, label, result.after))
    found, vouched = [], set()
    for group in chains.values():
        group.sort()
        for before, after in zip(group, group[1:]):
            if after[2] != cp.BEGUN:
                continue  # not a journal begun by setting the one before aside
            if after[0] != before[1] + 1:
                found.append((after[3], Finding("J-TAMPER", 0, "journal %s begins at the element's counter %d, but "
                                                "the journal kept before it, %s, ends at counter %d: %d checkpoint(s) "
                                                "between them no journal given accounts for (a journal missing, or "
                                                "cut)" % (after[3], after[0], before[3], before[1],
                                                          after[0] - before[1] - 1))))
            elif before[4] == 0:
                vouched.add(before[3])
    return found, vouched
