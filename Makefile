# pitwatch: every target does its own set-up on a fresh machine (venv, Python packages,
# Debian packages when root). Stamp files under .venv/.stamps keep repeated runs fast.
#
#   make demo    run the embedded demo (local broker + Faust worker + chDB + simulator)
#   make test    ruff + mypy, then the test suite (CI=true: unavailable servers fail, not skip)
#   make lint    only ruff + mypy
#   make bench   run the benchmarks
#   make reliability  the reliability run (about 12 min, not part of `make test`): a simulated
#                evening through broker, workers and ClickHouse 18.16 under malformed messages,
#                SIGKILLs, a ClickHouse outage, rebalances and kcat (RELIABILITY.md)
#   make setup   only the set-up (includes `make native`)
#   make native  compile the rules engine's fold with mypyc into build/native (pitwatch/native.py);
#                rebuilt when one of its sources changes, ignored by pitwatch while it is stale
#   make clean   remove the venv, the compiled fold and generated data

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMPS := $(VENV)/.stamps
PYTEST_ARGS ?=
# test files run on this many processes (pytest-xdist; each starts its own servers): three on two cores,
# as much of the suite waits on its servers and subprocesses (BENCHMARKS.md, session 14)
PYTEST_WORKERS ?= 3
RELIABILITY_ARGS ?=
APT_PACKAGES := clickhouse-server clickhouse-client kcat gcc chromium poppler-utils libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core
# the sources of the compiled fold (pitwatch.native.FINGERPRINTED)
NATIVE_SOURCES := $(shell find pitwatch/rules pitwatch/detectors pitwatch/schemas -name '*.py') \
	pitwatch/replay/__init__.py pitwatch/native.py pitwatch/catalogue.py

.PHONY: demo test lint bench reliability setup native sysdeps clean

demo: setup
	$(BIN)/pitwatch demo

test: setup lint
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile --durations=15 $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check pitwatch tests bench reliability
	$(BIN)/mypy

bench: setup $(STAMPS)/bench
	$(BIN)/python -m bench

# e.g. make reliability RELIABILITY_ARGS="--scenario b,d --hours 1"
reliability: setup
	$(BIN)/python -m reliability $(RELIABILITY_ARGS)

setup: $(STAMPS)/pip sysdeps native

native: build/native/manifest.json

build/native/manifest.json: $(NATIVE_SOURCES) $(STAMPS)/pip | sysdeps
	$(BIN)/pitwatch native build

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "pitwatch needs Python >= 3.11, $(PYTHON) is " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)

# Re-run when the project's dependencies change.
$(STAMPS)/pip: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[test,local]'
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/bench: pyproject.toml $(STAMPS)/pip
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[test,bench,local]'
	@mkdir -p $(STAMPS) && touch $@

# Debian packages the tests and the demo need: the ClickHouse 18.16 server, kcat, gcc (the
# compiled fold), chromium (the preview test), poppler-utils (the PDF tests) and the Pango
# libraries and fonts WeasyPrint draws PDFs with. Installed only
# when missing and only as root; otherwise a warning (the tests needing them skip, or fail
# under CI=true).
sysdeps:
	@missing=""; \
	for tool in clickhouse-server clickhouse-client kcat gcc chromium pdftoppm; do \
	  command -v $$tool >/dev/null 2>&1 || [ -x /usr/sbin/$$tool ] || [ -x /usr/bin/$$tool ] || missing="$$missing $$tool"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -q && apt-get install -y -q $(APT_PACKAGES); \
	  else \
	    echo "warning: missing$$missing; run as root or: sudo apt-get install -y $(APT_PACKAGES)" >&2; \
	  fi; \
	fi

clean:
	rm -rf $(VENV) build pitwatch-data .pytest_cache .hypothesis
