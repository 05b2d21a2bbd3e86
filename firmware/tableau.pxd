# Static types for Cython, which compiles tableau.py for the host's verifier (setup.py), where a million cards'
# coups are re-dealt; MicroPython never reads this file, and the .py stays the one source of the rules.
cimport cython


cdef class Coup:
    cdef public bytearray counts, totals, third, stood
    cdef public int hands
    cdef public bint known
    cpdef int dealt(self)
    @cython.locals(points=cython.int)
    cpdef add(self, int hand, int card)
    @cython.locals(total=cython.int, column=cython.int)
    cpdef int rule(self, int hand)
    @cython.locals(dealt=cython.int, banker=cython.int, hand=cython.int)
    cpdef int next_hand(self)
    cpdef bint _natural(self, int hand)
