# Static types for Cython (setup.py; state.pxd says why): a Row's fields are C numbers, read without an object.
cimport cython

cdef int SEQ_AT, BODY_AT, FRAME_SIZE, PICK_KIND_SHIFT, RELEASED_SHIFT, _SECONDS, _MS, _SEANCE, _CARD, _CODE
cdef unsigned int _PICK_OFFSET


cdef class Row:
    cdef public long long seq, time
    cdef public int type, seance, taille, coup, position, card, disposition, condition, code

    cpdef set(self, fields)
    @cython.locals(at=cython.Py_ssize_t, high=cython.ulonglong, seconds=cython.ulonglong)
    cdef read(self, const unsigned char[:] data, unsigned int pick)
