# The README's two promises: `make serve` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LEXICON_DIR := instance/lexicons
# Two stamps: `make serve` installs the runtime dependencies only; `make test` adds the test extra
# (pytest, playwright, ...). Both install the project editable, pinned by constraints.txt.
INSTALLED := $(VENV)/.installed-runtime
INSTALLED_TEST := $(VENV)/.installed-test
PIP := $(BIN)/pip install --quiet --disable-pip-version-check -c constraints.txt
LEXICONS := $(LEXICON_DIR)/.built
RECIPES := $(wildcard lexicon_sources/*.toml)

export ADJUDICATOR_LEXICON_DIR := $(abspath $(LEXICON_DIR))

.PHONY: install lexicons serve test lint format bench clean

install: $(INSTALLED_TEST)
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
$(INSTALLED): pyproject.toml constraints.txt | $(VENV)/bin/python
	$(PIP) -e .
	touch $@
$(INSTALLED_TEST): $(INSTALLED)
	$(PIP) -e '.[test]'
	touch $@

lexicons: $(LEXICONS)
$(LEXICONS): $(INSTALLED) $(RECIPES) $(wildcard lexicon_sources/languages/*.toml) \
		$(wildcard lexicon_sources/open/*/*) $(wildcard lexicon_sources/updates/*) $(wildcard compiler/*.py) $(wildcard lexicon/*.py)
	$(BIN)/lexicon build $(RECIPES) --out $(LEXICON_DIR)
	touch $@

serve: $(LEXICONS)
	$(BIN)/adjudicator db upgrade
	$(BIN)/adjudicator serve

# Chromium, PostgreSQL and nginx, which some tests run for real, come from Debian: installed
# here when missing and possible (root, apt-get), else those tests skip with advice.
test: $(LEXICONS) $(INSTALLED_TEST)
	tools/debian-packages
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: $(INSTALLED_TEST)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(INSTALLED_TEST)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(LEXICONS) $(INSTALLED_TEST)
	$(BIN)/python benchmarks/compile.py
	$(BIN)/python benchmarks/api.py
	$(BIN)/python benchmarks/moves.py
	$(BIN)/python benchmarks/verify_load.py
	$(BIN)/python benchmarks/ruling_cost.py --gunicorn

clean:
	rm -rf $(VENV) instance build *.egg-info
