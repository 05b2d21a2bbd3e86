# Static types for Cython (setup.py; state.pxd says why).
from sabot.rules.state cimport State

cdef int SEQ, CODE, CONDITION, _ANY
cdef int ALARM_FORCED, ALARM_MAX, BOOT_WATCHDOG, FAULT_DEVKEY, FAULT_DOUBLE_FEED, FAULT_FIRMWARE, FAULT_JAM, FAULT_ROLLBACK
cdef int R_ALARM, R_BOOT, R_RECOVERY

cpdef on_alarm(State s, tuple f)
cpdef on_clear(State s, tuple f)
cpdef on_boot(State s, tuple f)
cpdef on_recovery(State s, tuple f)
