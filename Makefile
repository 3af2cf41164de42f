# Two entry points on a fresh machine: `make run` (the app, offline recordings by default)
# and `make test` (the test suite). Each builds .venv from the requirement files when needed.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run test bench clean

$(VENV)/.run-installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(VENV)/.run-installed $@

run: $(VENV)/.run-installed
	$(PY) -m streamlit run app.py --server.port $(PORT)

test: $(VENV)/.dev-installed
	$(PY) -m pytest

bench: $(VENV)/.dev-installed
	$(PY) bench/collect.py
	$(PY) bench/persona.py

clean:
	rm -rf $(VENV) .pytest_cache
