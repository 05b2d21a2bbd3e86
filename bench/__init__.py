"""Benchmarks and budgets: what a card costs on the MicroPython VM, in instructions, time, heap and flash, and
the checks that keep the deterministic figures inside bench/budgets.json (`make bench`, `make bench-check`)."""
