# Two commands on a fresh machine: `make run` and `make test`. Both are idempotent.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Biome (the linter of static/) comes from npm, pinned by package-lock.json, into ./node_modules.
NODE_STAMP := node_modules/.installed
export DJANGO_SETTINGS_MODULE ?= config.settings.base
# `make run PORT=8001` serves on another port.
export PORT ?= 8000

.PHONY: run test lint chromium migrate bench port-free

$(STAMP): requirements/base.txt requirements/dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements/dev.txt
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

# Fail at once on a busy port, before the minute of loading lexicons (the server itself would wait silently).
port-free:
	@python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', $(PORT)))" 2>/dev/null || \
		{ echo "Port $(PORT) is busy: stop what uses it, or choose another: make run PORT=8001" >&2; exit 1; }

run: port-free migrate
	$(PY) manage.py load_bundled_lexicons
	$(PY) manage.py demo
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# Real-browser tests need Debian's Chromium (no browser download: Playwright drives /usr/bin/chromium).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "Installing Debian's chromium for the browser tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi

# The suite on two pytest-xdist workers, one a core of the project's 2-core machines: 10.5 minutes against 16 on the
# slowest of them, where one process left a core idle while it waited on browsers and servers; `make test
# PYTEST_ARGS=` runs it in one. Each worker has its own test database and its own channel-layer and cache prefixes
# (config/settings/test.py); a fault test starts a Redis of its own.
PYTEST_ARGS ?= -n 2

test: lint chromium
	DJANGO_SETTINGS_MODULE=config.settings.test $(PY) -m pytest $(PYTEST_ARGS)

# Every static check: Python lint and format, the import contracts (the engine, the rules and the text tools stay
# free of Django, Channels and Celery), types (mypy with Django's stubs), and Biome on the browser code.
lint: $(STAMP) $(NODE_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	node_modules/.bin/biome lint static
	node_modules/.bin/biome format static

bench: $(STAMP)
	@echo "See bench/README.md for each benchmark's command."
