"""What a journal shows of the rules (H-VERIFY): the shoe's whole state machine re-derived from the records on the
host, written from docs/requirements.md, docs/tableau.md and docs/journal-format.md ("What the shoe writes"),
never from the controller, so that a controller that broke a rule cannot also hide it. Every journal the
specified controller could not have written gets a finding with its requirement's ID.

One module per record family (cards, coups, alarms, seances), each a set of transitions on the shoe's state
(state.State); machine.Rules dispatches each record to its transition. Cython compiles each module with its
.pxd (setup.py)."""

from sabot.rules.games import ARTICLES, GAME_IDS
from sabot.rules.machine import Rules

__all__ = ["ARTICLES", "GAME_IDS", "Rules"]
