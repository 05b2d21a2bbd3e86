# Static types for Cython (setup.py; state.pxd says why).
cimport cython

from sabot.rules.cards cimport on_card, release_state
from sabot.rules.state cimport State

cdef int R_BOOT, R_CARD, R_RELEASE, SEQ, TYPE, CARD, DISPOSITION, CONDITION, CODE
cdef int _ANY, _RELEASED_SHIFT, _RELEASED
cdef long _USES_CARD, _USES_DISPOSITION, _USES_CONDITION, _NO_CODE
cdef tuple TRANSITIONS


cdef class Rules(State):
    @cython.locals(rtype=cython.int, kind=cython.int)
    cdef _record(self, tuple f)
    cpdef fold(self, list rows)
    @cython.locals(want=cython.int, code=cython.int)
    cdef _expected(self, int rtype, int got, long seq)
