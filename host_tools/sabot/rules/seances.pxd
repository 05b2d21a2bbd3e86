# Static types for Cython (setup.py; state.pxd says why).
from sabot.rules.state cimport State

cdef int SEQ, CODE, TIME, LIMITEE, OUVERTE
cdef tuple GAME_IDS, TAILLES

cdef _between_coups(State s, tuple f, str what)
cpdef on_load(State s, tuple f)
cpdef on_seance(State s, tuple f)
cpdef on_seance_close(State s, tuple f)
