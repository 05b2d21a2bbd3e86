# Static types for Cython (setup.py; state.pxd says why).
cimport cython

from sabot.rules.row cimport Row
from sabot.rules.state cimport State

cdef int _ANY
cdef int ALARM_FORCED, ALARM_MAX, BOOT_WATCHDOG, EL_CUT, EL_FAULT, FAULT_DEVKEY, FAULT_DOUBLE_FEED, FAULT_ELEMENT
cdef int FAULT_FIRMWARE, FAULT_JAM, FAULT_ROLLBACK
cdef int R_ALARM, R_BOOT, R_RECOVERY

cpdef on_alarm(State s, Row f)
cpdef on_clear(State s, Row f)
cpdef on_boot(State s, Row f)
cpdef on_recovery(State s, Row f)
cpdef on_burst(State s, Row f)
@cython.locals(counter=cython.long)
cpdef on_element(State s, Row f)
