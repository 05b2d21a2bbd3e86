# Static types for Cython, which compiles rules.py (setup.py): the fold runs once a record of a journal of
# millions. rules.py stays plain Python, the one source of the rules.
cimport cython

from sabot.tableau_oracle cimport Hands

# The names rules.py imports, held as C ints (no other module imports them from here).
cdef int SEQ, TYPE, TIME, SEANCE, TAILLE, COUP, POSITION, CARD, DISPOSITION, CONDITION, CODE
cdef int ALARM_FORCED, BURNED, DEALT, DOUBLE_FEED, END_MAXIMUM, END_TABLEAU, F_FOREIGN_CARD
cdef int F_SHORT_COUP, F_STOP_POSITION, F_NO_STOP, FAULT_DOUBLE_FEED, FAULT_JAM, FAULT_FIRMWARE, FAULT_ROLLBACK
cdef int FAULT_DEVKEY, FORCED, NORMAL, ALARM_MAX, SNAPSHOT_FIXED, SNAPSHOT_HANDS, RELEASED_SHIFT
cdef int R_ALARM, R_BOOT, R_CARD, R_CLEAR, R_CLOSED, R_COUP_END, R_FINDING, R_LOAD, R_NO_MORE_BETS, R_RECOVERY
cdef int R_RELEASE, R_RESULT, R_SEANCE, R_SEANCE_CLOSE, R_STAND, REL_BURN, REL_DEAL, STOP_CARD, STOP, UNKNOWN
cdef int CHOOSES, OVER, _LIMITEE, _ANY, _RELEASED
cdef long USES_CARD, USES_DISPOSITION, USES_CONDITION, NO_CODE
cdef tuple SNAPSHOT_FIELDS
cdef tuple _DECKS, _STOP_BEFORE, _COUP_MIN, _COUP_MAX, _TAILLES


cdef class Rules:
    cdef public list findings, seances, expect
    cdef public object types
    cdef public Hands hands
    cdef public bytearray counts
    cdef public int last, seance, taille, coup, position, table, tailles_in_seance, game, coup_dealt, alarms
    cdef public int release, decks, stop_before, coup_min, coup_max, last_card
    cdef public bint seance_open, loaded, in_coup, dealing, closed, stop_seen, released_card, started, firmware_unchecked

    @cython.locals(rtype=cython.int, kind=cython.int)
    cdef _record(self, tuple f)
    cpdef fold(self, list rows)
    @cython.locals(want=cython.int, code=cython.int)
    cdef _expected(self, int rtype, int got, long seq)
    @cython.locals(seq=cython.long, card=cython.int, disposition=cython.int, condition=cython.int, code=cython.int,
                   position=cython.int, kind=cython.int, behind=cython.int, counts=bytearray, hands=Hands, expect=list,
                   got_seance=cython.int, got_taille=cython.int, got_coup=cython.int, got_position=cython.int)
    cdef _card(self, tuple f)
    cdef _release(self, tuple f)
    cdef _release_state(self, long seq, int kind)
    @cython.locals(expected=cython.int, hands=Hands)
    cdef _deal(self, long seq, int card, int hand)
    @cython.locals(seance=cython.int, taille=cython.int, coup=cython.int, position=cython.int,
                   got_seance=cython.int, got_taille=cython.int, got_coup=cython.int, got_position=cython.int)
    cdef _fields(self, tuple f, int rtype)
    cdef _coup_must_end(self, int how)
    cdef bint _pop(self, int rtype)
    cpdef _game(self, int game)
