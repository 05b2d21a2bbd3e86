# Static types for Cython, which compiles rules.py (setup.py): the fold runs once a record of a journal of
# millions. rules.py stays plain Python, the one source of the rules.
cimport cython

from firmware.tableau cimport Coup

# The names rules.py imports, held as C ints (no other module imports them from here).
cdef int SEQ, TYPE, TIME, POSITION, CARD, DISPOSITION, CONDITION, CODE
cdef int DEALT, DOUBLE_FEED, FORCED, R_CARD, R_COUP_END, R_LOAD, R_NO_MORE_BETS, R_RECOVERY, R_RESULT, R_SEANCE
cdef int R_STAND, STOP, NONE, OPTIONAL


cdef class Rules:
    cdef public list findings
    cdef public int game, decks, coup_max, tailles_in_seance, coup_dealt
    cdef public object row, types
    cdef public bint in_coup, stop_seen, closed
    cdef public list seances, counts
    cdef public Coup coup
    cdef dict _by_type

    @cython.locals(seq=cython.int, card=cython.int, disposition=cython.int, condition=cython.int,
                   hand=cython.int, expected=cython.int, counts=list, coup=Coup)
    cpdef _card(self, tuple f)
    cpdef fold(self, rows)
