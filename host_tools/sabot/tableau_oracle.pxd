# Static types for Cython, which compiles tableau_oracle.py (setup.py): the verifier re-deals every coup of a
# journal of millions of records. The .py stays the one source of the verifier's tableau.
cimport cython

cdef int _OVER, _STANDS, _DRAWS, _CHOOSES, _PONTE_STOOD, _COLUMNS
cdef bytes BANKER, PONTE

@cython.locals(rank=cython.int)
cpdef int points(int card)


cdef class Hands:
    cdef public bytearray cards, total, third, stood
    cdef public int count
    cdef public bint followed
    cpdef start(self, int count)
    cpdef int dealt(self)
    @cython.locals(p=cython.int)
    cpdef give(self, int hand, int card)
    cpdef bint natural(self, int hand)
    @cython.locals(t=cython.int, banker=cython.int)
    cpdef int choice(self, int hand)
    cpdef bint may_draw(self, int hand)
    @cython.locals(n=cython.int, banker=cython.int, hand=cython.int)
    cpdef int next(self)
    @cython.locals(mine=cython.int, his=cython.int)
    cpdef int winner(self, int tableau)
    @cython.locals(code=cython.int)
    cpdef int result_code(self)
    cpdef int counts_code(self)
