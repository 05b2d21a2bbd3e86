# Static types for Cython (setup.py; state.pxd says why).
cimport cython

from sabot.rules.coups cimport coup_must_end
from sabot.rules.row cimport Row
from sabot.rules.state cimport State
from sabot.tableau_oracle cimport Hands

cdef int ALARM_FORCED, BURNED, DEALT, DOUBLE_FEED, END_MAXIMUM, END_TABLEAU, F_FOREIGN_CARD, F_NO_STOP
cdef int F_STOP_POSITION, FAULT_DOUBLE_FEED, FORCED, NORMAL, R_ALARM, R_CLOSED, R_FINDING, R_RELEASE
cdef int REL_BURN, REL_DEAL, STOP_CARD, STOP, UNKNOWN, OVER
cdef tuple GAME_IDS

cpdef on_release(State s, Row f)
cpdef release_state(State s, long seq, int kind)
@cython.locals(seq=cython.long, card=cython.int, disposition=cython.int, condition=cython.int, code=cython.int,
               position=cython.int, kind=cython.int, behind=cython.int, counts=bytearray, hands=Hands, expect=list,
               got_seance=cython.int, got_taille=cython.int, got_coup=cython.int, got_position=cython.int)
cpdef on_card(State s, Row f)
@cython.locals(expected=cython.int, hands=Hands)
cdef _deal(State s, long seq, int card, int hand)
cdef _locked_why(State s, int kind)
cdef _misdrawn(State s, long seq, int card, int hand, int expected)
