# The README's two promises: `make serve` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LEXICON_DIR := instance/lexicons
INSTALLED := $(VENV)/.installed
LEXICONS := $(LEXICON_DIR)/.built
RECIPES := $(wildcard lexicon_sources/*.toml)

export ADJUDICATOR_LEXICON_DIR := $(abspath $(LEXICON_DIR))

.PHONY: install lexicons serve test lint format bench clean

install: $(INSTALLED)
$(INSTALLED): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	touch $@

lexicons: $(LEXICONS)
$(LEXICONS): $(INSTALLED) $(RECIPES) $(wildcard lexicon_sources/languages/*.toml) \
		$(wildcard lexicon_sources/open/*/*) $(wildcard lexicon_sources/updates/*) $(wildcard compiler/*.py) $(wildcard lexicon/*.py)
	$(BIN)/lexicon build $(RECIPES) --out $(LEXICON_DIR)
	touch $@

serve: $(LEXICONS)
	$(BIN)/adjudicator db upgrade
	$(BIN)/gunicorn -c deploy/gunicorn.conf.py adjudicator.wsgi:app

test: $(LEXICONS)
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(INSTALLED)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(LEXICONS)
	$(BIN)/python benchmarks/compile.py
	$(BIN)/python benchmarks/api.py
	$(BIN)/python benchmarks/moves.py

clean:
	rm -rf $(VENV) instance build *.egg-info
