# Two entry points on a fresh machine: `make run` (the app, offline recordings by default)
# and `make test` (the test suite). Each builds .venv from the requirement files when needed.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8501

CHROMIUM ?= /usr/bin/chromium

.PHONY: run dev test bench docs screenshots clean chromium postgresql nginx

$(VENV)/.run-installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(VENV)/.run-installed $@

# `make run` serves a room: .streamlit/config.toml sets server.fileWatcherType = "none" (no source
# watcher walking sys.modules after each run) and runner.postScriptGC = false (no gc.collect(2) after
# each run). `make dev` turns both back on, with server.runOnSave, to reload the app on every edit.
DEV_FLAGS := --server.fileWatcherType auto --runner.postScriptGC true --server.runOnSave true

run: $(VENV)/.run-installed
	$(PY) -m streamlit run serve.py --server.port $(PORT)

dev: $(VENV)/.dev-installed
	$(PY) -m streamlit run serve.py --server.port $(PORT) $(DEV_FLAGS)

# The browser smoke test drives Debian's chromium through Playwright (no browser download).
chromium:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "Chromium is needed for the browser test: sudo apt-get install chromium"; exit 1; fi; }

# The room's storage tests also run on PostgreSQL: they start a throwaway cluster with Debian's server
# binaries (tests/evallib/room/conftest.py) and are skipped, saying why, when those are absent.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	  else echo "The room's PostgreSQL tests will be skipped: sudo apt-get install postgresql"; fi; }

# Two app processes behind nginx (tests/test_browser_multi_process.py; skipped, saying why, without it).
nginx:
	@test -x /usr/sbin/nginx || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; \
	  else echo "The two-process test will be skipped: sudo apt-get install nginx"; fi; }

# Two workers (this machine has two cores; most browser tests wait on a server): the suite ran in
# 23.5 min with them where it took over an hour without. A test file's tests stay on one worker
# (--dist loadfile), so a module's app server and browser are started once.
test: $(VENV)/.dev-installed chromium postgresql nginx
	$(PY) -m pytest -n 2 --dist loadfile

bench: $(VENV)/.dev-installed
	$(PY) bench/collect.py
	$(PY) bench/persona.py
	$(PY) bench/agreement.py
	$(PY) bench/trigger.py
	$(PY) bench/gnss.py
	$(PY) bench/gnss_stations.py
	$(PY) bench/judge.py
	$(PY) bench/sessions.py
	$(PY) bench/cluster_coverage.py
	$(PY) bench/coverage.py
	$(PY) bench/pages.py
	$(PY) bench/room_attempts.py
	$(PY) bench/room.py
	$(PY) bench/board_readings.py
	$(PY) bench/room_sessions.py
	$(PY) bench/live_failures.py

# The docs site from docs/ (mkdocs.yml): strict, so a broken link or anchor fails; into site/, which git ignores.
docs: $(VENV)/.dev-installed
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

# The pictures of the README and the docs, taken from the running app in headless Chromium (docs/img/).
screenshots: $(VENV)/.dev-installed chromium
	CHROMIUM=$(CHROMIUM) $(PY) -m docs.screenshots

clean:
	rm -rf $(VENV) .pytest_cache site
