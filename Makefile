# aspuzzles: every target installs what it needs into .venv on first use.
PYTHON  ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PUZZLE  ?= haunted
INSTANCE ?=
ARGS    ?=

.PHONY: solve test bench lint format clean bytecode

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Python reads compiled modules even where PYTHONDONTWRITEBYTECODE=1 stops it writing
# them, so the package is compiled here (only what changed since): a command then
# starts in about 0.19 s instead of 0.26 s on such a machine.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q src

solve: bytecode
	$(BIN)/aspuzzles solve $(PUZZLE) $(if $(INSTANCE),"$(INSTANCE)") $(ARGS)

test: bytecode
	$(BIN)/python -m pytest

bench: bytecode
	$(BIN)/python bench/run.py $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

format: $(STAMP)
	$(BIN)/ruff check --fix src tests bench
	$(BIN)/ruff format src tests bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
