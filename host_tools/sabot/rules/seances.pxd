# Static types for Cython (setup.py; state.pxd says why).
from sabot.rules.row cimport Row
from sabot.rules.state cimport State

cdef int LIMITEE, OUVERTE
cdef tuple GAME_IDS, TAILLES

cdef _between_coups(State s, Row f, str what)
cpdef on_load(State s, Row f)
cpdef on_seance(State s, Row f)
cpdef on_seance_close(State s, Row f)
