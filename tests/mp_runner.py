"""Runs the firmware test modules inside the MicroPython VM: each test_* function, one line per result.

    micropython tests/mp_runner.py tests.core.test_shoe_rules [...]

micropython-lib's unittest is not installable from PyPI, and these tests need no more than assert.
"""

import sys


def _module(name):
    module = __import__(name)
    for part in name.split(".")[1:]:
        module = getattr(module, part)
    return module


def _forget(name):
    """A module let go once its tests ran: on a board's heap (the emulated Pico's 234 KB, tests/host/test_pico_core.py)
    the code of every test module kept loaded leaves too little room to the ones after it."""
    del sys.modules[name]
    parent, _, leaf = name.rpartition(".")
    if parent:
        delattr(sys.modules[parent], leaf)


def main(names, skipped=()):
    """skipped: test names not run, each said SKIP (a port too slow for them: tests/host/test_pico_core.py)."""
    passed = failed = 0
    for name in names:
        try:
            module = _module(name)
        except Exception as e:  # noqa: BLE001 - a module that cannot load fails its own tests, not the ones after it
            failed += 1
            print("FAIL %s (import)" % name)
            sys.print_exception(e)
            continue
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            if attr in skipped:
                print("SKIP %s::%s" % (name, attr))
                continue
            try:
                getattr(module, attr)()
            except Exception as e:  # noqa: BLE001 - report every failure, then go on
                failed += 1
                print("FAIL %s::%s" % (name, attr))
                sys.print_exception(e)
            else:
                passed += 1
                print("PASS %s::%s" % (name, attr))
        _forget(name)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
