"""The few names that differ between MicroPython and CPython, so the core runs unchanged on both."""

try:
    from micropython import const
except ImportError:  # CPython: const() is only an optimisation hint on the device.

    def const(value):  # type: ignore[misc]
        return value


__all__ = ("const",)
