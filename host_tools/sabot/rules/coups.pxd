# Static types for Cython (setup.py; state.pxd says why).
from sabot.rules.row cimport Row
from sabot.rules.state cimport State

cdef int STOP, CHOOSES, OVER, _ANY
cdef int END_MAXIMUM, END_TABLEAU, F_FOREIGN_CARD, F_SHORT_COUP, F_STOP_POSITION
cdef int R_CLOSED, R_COUP_END, R_FINDING, R_RESULT
cdef tuple GAME_IDS, HANDS

cpdef coup_must_end(State s, int how)
cdef _button_end_follows(State s)
cpdef on_no_more_bets(State s, Row f)
cpdef on_coup_end(State s, Row f)
cpdef on_result(State s, Row f)
cpdef on_finding(State s, Row f)
cpdef on_stand(State s, Row f)
cpdef on_closed(State s, Row f)
