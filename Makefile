# aspuzzles: every target installs what it needs into .venv on first use; solving
# needs only the package, the tests and the linters bring their own tools.
PYTHON  ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
RUN     := $(VENV)/.installed-run
TEST    := $(VENV)/.installed-test
LINT    := $(VENV)/.installed-lint
PUZZLE  ?= haunted
INSTANCE ?=
ARGS    ?=

.PHONY: solve test test-fast bench bench-peers lint format clean bytecode native digests gallery-pictures

$(RUN): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[fast,distributed,web]'
	touch $(RUN)

$(TEST): $(RUN)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(TEST)

$(LINT): $(RUN)
	$(BIN)/pip install --quiet -e '.[lint]'
	touch $(LINT)

# Python reads compiled modules even where PYTHONDONTWRITEBYTECODE=1 stops it writing
# them, so the package is compiled here (only what changed since): a command then
# starts in about 0.19 s instead of 0.26 s on such a machine.
bytecode: $(RUN)
	@$(BIN)/python -m compileall -q src

# The dice sweeps' tiling search (first tilings and counts) compiled ahead of time (a
# few seconds, once per change of its source): a sweep or census then loads no
# compiler (0.6 s and 120 MB a process saved). Where it cannot be built, one line says
# why and numba compiles it.
native: $(RUN)
	@$(BIN)/python -m aspuzzles.kit.dice_native

solve: bytecode native
	$(BIN)/aspuzzles solve $(PUZZLE) $(if $(INSTANCE),"$(INSTANCE)") $(ARGS)

# The whole suite (what CI runs).
test: bytecode native $(TEST)
	$(BIN)/python -m pytest $(ARGS)

# Everything but the tests marked slow, on two processes: a minute or less, for running
# often. (The whole suite runs in one process: its time limits and Ctrl-C tests measure.)
test-fast: bytecode native $(TEST)
	$(BIN)/python -m pytest -m "not slow" -n 2 $(ARGS)

# The gallery's pictures (docs/gallery.md): docs/gallery/GENRE--INSTANCE.svg is the
# instance solved, as `aspuzzles solve GENRE INSTANCE --format svg` draws it today
# (tests/test_gallery_pictures.py says when one is out of date).
gallery-pictures: bytecode
	@for picture in docs/gallery/*--*.svg; do \
	  name=$$(basename $$picture .svg); \
	  $(BIN)/aspuzzles solve $${name%%--*} $${name#*--} --format svg -o $$picture || exit 1; \
	done

bench: bytecode native $(TEST)
	$(BIN)/python bench/run.py $(ARGS)

# What the benchmarks compare against, installed only when asked (never a dependency of
# the tool or its tests): Tatham's puzzles, whose Undead generator the generate
# benchmark runs beside ours, and CP-SAT's Undead (PyPI's multi-puzzle-solver) in an
# environment of its own, .venv-peers, for the peers benchmark. sqlite3 comes with Python.
PEERS := .venv-peers
bench-peers: $(PEERS)/.installed $(PEERS)/undead-solve $(PEERS)/singles-generate
	apt-get install -y sgt-puzzles || echo "bench-peers: could not install sgt-puzzles (apt-get needs root)"

# Tatham's own Undead solver, timed in-process by bench/tatham/undead_solve.c, and his
# Singles (Hitori) generator, which made bench/data/singles-graded.tsv
# (bench/tatham/generate.c): built from the upstream sources Debian packages (the same
# release as its sgt-puzzles), checked against their published digest. Where they
# cannot be had, the benchmark says so.
SGT := sgt-puzzles_20230122.806ae71
SGT_SHA256 := 6e236301b0ef756b9f421c8cdb50edc5510a6e5f6f7f1d3b8384dfd3d5204a99
$(PEERS)/sgt/puzzles.h:
	mkdir -p $(PEERS)/sgt
	curl -fsSL -o $(PEERS)/sgt/$(SGT).orig.tar.xz \
		http://deb.debian.org/debian/pool/main/s/sgt-puzzles/$(SGT).orig.tar.xz \
	&& echo "$(SGT_SHA256)  $(PEERS)/sgt/$(SGT).orig.tar.xz" | sha256sum -c --quiet - \
	&& tar -xJf $(PEERS)/sgt/$(SGT).orig.tar.xz -C $(PEERS)/sgt --strip-components=1 \
	|| echo "bench-peers: Tatham's sources not fetched"

$(PEERS)/undead-solve: bench/tatham/undead_solve.c $(PEERS)/sgt/puzzles.h
	cd $(PEERS)/sgt && $(CC) -O2 -I. -o ../undead-solve $(CURDIR)/$< \
		undead.c misc.c malloc.c random.c nullfe.c -lm \
	|| echo "bench-peers: Tatham's Undead solver not built (sources or compiler missing)"

$(PEERS)/singles-generate: bench/tatham/generate.c $(PEERS)/sgt/puzzles.h
	cd $(PEERS)/sgt && $(CC) -O2 -I. -o ../singles-generate $(CURDIR)/$< singles.c \
		latin.c tree234.c matching.c misc.c malloc.c random.c nullfe.c dsf.c -lm \
	|| echo "bench-peers: Tatham's Singles generator not built (sources or compiler missing)"

$(PEERS)/.installed:
	$(PYTHON) -m venv $(PEERS)
	$(PEERS)/bin/pip install --quiet multi-puzzle-solver cpmpy
	touch $@

lint: $(LINT)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy src

format: $(LINT)
	$(BIN)/ruff check --fix src tests bench
	$(BIN)/ruff format src tests bench

clean:
	rm -rf $(VENV) $(PEERS) .pytest_cache .ruff_cache .mypy_cache
	rm -f src/aspuzzles/kit/_dice_native_*

# The digests of the shipped encodings: a puzzle's Python accelerators serve the
# encoding whose digest is listed (see docs/encodings.md). Rerun after changing one.
digests: $(RUN)
	$(BIN)/python -c "from pathlib import Path; from aspuzzles.driver.loading import DIGESTS, digest_lines; from aspuzzles.registry import module_puzzles; DIGESTS.write_text(digest_lines(Path('encodings'), module_puzzles()))"
