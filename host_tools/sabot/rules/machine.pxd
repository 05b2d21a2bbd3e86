# Static types for Cython (setup.py; state.pxd says why).
cimport cython

from sabot.rules.cards cimport on_card, release_state
from sabot.rules.row cimport Row
from sabot.rules.state cimport State

cdef int R_BOOT, R_CARD, R_RELEASE
cdef int _ANY, _RELEASED_SHIFT, _RELEASED
cdef long _USES_CARD, _USES_DISPOSITION, _USES_CONDITION, _NO_CODE
cdef tuple TRANSITIONS


cdef class Rules(State):
    cdef public Row row

    @cython.locals(rtype=cython.int, kind=cython.int)
    cdef _record(self, Row f)
    cpdef feed(self, fields)
    cpdef fold(self, list rows)
    @cython.locals(i=cython.Py_ssize_t, row=Row)
    cpdef fold_frames(self, const unsigned char[:] data, const unsigned int[:] picks)
    @cython.locals(want=cython.int, code=cython.int)
    cdef _expected(self, int rtype, int got, long seq)
