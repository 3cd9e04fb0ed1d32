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
# The suite on pytest-xdist workers. The slow tests mostly wait on gunicorn, PostgreSQL or
# Chromium, so `make test` takes 4 workers on 2 cores; the rest are mostly in-process work, where
# 3 measured fastest, so `make test-quick` takes 3 (docs/how-to/develop.md; either can be set:
# `make test-quick TEST_WORKERS=4`). loadfile keeps each test file on one worker:
# its module fixtures (a server, a browser, nginx) start once and its tests run in their order.
# The slow files start first (conftest.py sorts them first; --no-loadscope-reorder keeps that
# order, where xdist would start the files with most tests first and a few minute-long tests
# last). `make test TEST_WORKERS=0`: one process.
TEST_WORKERS ?= 4
PYTEST = $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder
# `make constraints` compiles constraints.txt with this pip-tools (pip-compile).
PIP_TOOLS := pip-tools==7.6.2
LEXICONS := $(LEXICON_DIR)/.built
RECIPES := $(wildcard lexicon_sources/*.toml)

export ADJUDICATOR_LEXICON_DIR := $(abspath $(LEXICON_DIR))

.PHONY: install lexicons serve test test-quick docs openapi constraints lint format bench clean

install: $(INSTALLED_TEST)
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
$(INSTALLED): pyproject.toml constraints.txt | $(VENV)/bin/python
	@echo "make: installing the runtime dependencies into $(VENV), pinned by constraints.txt (a minute or two the first time)"
	$(PIP) -e .
	touch $@
$(INSTALLED_TEST): $(INSTALLED)
	@echo "make: installing the test extra into $(VENV): pytest, playwright, schemathesis, ruff, ... (a minute or two the first time)"
	$(PIP) -e '.[test]'
	touch $@

lexicons: $(LEXICONS)
$(LEXICONS): $(INSTALLED) $(RECIPES) $(wildcard lexicon_sources/languages/*.toml) \
		$(wildcard lexicon_sources/open/*/*) $(wildcard lexicon_sources/updates/*) $(wildcard compiler/*.py) $(wildcard lexicon/*.py)
	@echo "make: compiling the bundled lexicons into $(LEXICON_DIR)"
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
	$(BIN)/mkdocs build --strict --quiet
	$(PYTEST)

# The quick loop while working: the same set-up, every test but those marked `slow`.
test-quick: TEST_WORKERS = 3
test-quick: $(LEXICONS) $(INSTALLED_TEST)
	tools/debian-packages
	$(BIN)/ruff check .
	$(PYTEST) -m 'not slow'

# The documentation site (mkdocs.yml, docs/) into build/site; strict, so a broken link or a
# generator that fails stops the build. `make test` builds it too.
docs: $(INSTALLED_TEST)
	$(BIN)/mkdocs build --strict

# openapi.json's paths from the routes' declarations (@operation, adjudicator/web/contract.py) with
# their prose from adjudicator/openapi-prose.yaml, its request-body schemas from their pydantic
# models (adjudicator/api/bodies.py) and its problem codes from adjudicator/problems.py; a test
# fails while the committed document differs. PyYAML comes with the test extra.
openapi: $(INSTALLED_TEST)
	$(BIN)/python tools/openapi.py

# constraints.txt from pyproject.toml's dependencies and its test extra. pip-compile keeps the
# versions constraints.txt already pins wherever they still fit; delete a line to upgrade that
# package, or run `make constraints UPGRADE=--upgrade` for all.
constraints: | $(VENV)/bin/python
	@echo "make: compiling constraints.txt with $(PIP_TOOLS)"
	$(PIP) '$(PIP_TOOLS)'
	CUSTOM_COMPILE_COMMAND='make constraints' $(BIN)/pip-compile --quiet --extra test \
		--strip-extras --no-emit-index-url --no-emit-find-links $(UPGRADE) \
		--output-file constraints.txt pyproject.toml

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
	$(BIN)/python benchmarks/validation_cost.py
	$(BIN)/python benchmarks/ruling_cost.py --gunicorn
	$(BIN)/python benchmarks/ruling_cost.py --synchronous NORMAL
	$(BIN)/python benchmarks/machinery.py
	$(BIN)/python benchmarks/driver_sql.py

clean:
	rm -rf $(VENV) instance build *.egg-info
