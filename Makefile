# aspuzzles: every target installs what it needs into .venv on first use.
PYTHON  ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PUZZLE  ?= haunted
INSTANCE ?=
ARGS    ?=

.PHONY: solve test bench lint format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

solve: $(STAMP)
	$(BIN)/aspuzzles solve $(PUZZLE) $(if $(INSTANCE),"$(INSTANCE)") $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/run.py $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

format: $(STAMP)
	$(BIN)/ruff check --fix src tests bench
	$(BIN)/ruff format src tests bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
