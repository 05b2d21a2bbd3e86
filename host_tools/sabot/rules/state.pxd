# Static types for Cython, which compiles state.py and each family module with the .pxd beside it (setup.py): the
# rules fold once a record of a journal of millions. The .py files stay plain Python, the one source of the rules.
cimport cython

from sabot.rules.row cimport Row
from sabot.tableau_oracle cimport Hands

# The names state.py imports, held as C values (no other module imports them from here).
cdef int ALARM_FORCED, R_LOAD, R_NO_MORE_BETS, R_SEANCE
cdef int _SNAPSHOT_COUNTS, _SNAPSHOT_HANDS
cdef tuple DECKS, STOP_BEFORE, COUP_MIN, COUP_MAX, HANDS, _SNAPSHOT_FIELDS
cdef dict HAND_NAMES, TABLEAU_IDS


cdef class State:
    cdef public list findings, seances, expect, candidates, elements, authorities, asked
    cdef public object types
    cdef public Hands hands
    cdef public bytearray counts
    cdef public int last, seance, taille, coup, position, table, tailles_in_seance, game, coup_dealt, alarms
    cdef public int release, decks, stop_before, coup_min, coup_max, last_card, o_day, o_rank, o_break
    cdef public long long o_closed
    cdef public bint seance_open, loaded, in_coup, dealing, closed, stop_seen, released_card, started, firmware_unchecked, o_open

    cpdef _game(self, int game)
    @cython.locals(seance=cython.int, taille=cython.int, coup=cython.int, position=cython.int,
                   got_seance=cython.int, got_taille=cython.int, got_coup=cython.int, got_position=cython.int)
    cdef _fields(self, Row f, int rtype)
    cdef bint _pop(self, int rtype)
    cpdef str _alarm_id(self)
    cpdef str _tableau_id(self)
    cpdef str _hand_name(self, int hand)
