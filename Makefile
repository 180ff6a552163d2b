# BoB: two commands for a fresh machine.
#   make demo   install, migrate, load the demo tournament and serve it on http://127.0.0.1:8000
#   make test   run every test (PostgreSQL + Redis with a real Celery worker, then SQLite)
# and one for an event (README, "Run an event"):
#   make serve  migrate, collect the static files, then the web server, a Celery worker and
#               the scheduler against DATABASE_URL / REDIS_URL until Ctrl-C

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1:8000

.PHONY: demo serve test test-services test-sqlite lint bench messages install browser-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP) messages

# Translations are compiled from locale/*/LC_MESSAGES/django.po (needs gettext's msgfmt).
messages: $(STAMP)
	@command -v msgfmt >/dev/null || scripts/apt-install.sh gettext
	$(PY) manage.py compilemessages --ignore='.venv' -v 0

demo: install
	$(PY) manage.py migrate --no-input -v 0
	$(PY) manage.py load_demo --base-url http://$(HOST)
	$(PY) manage.py runserver $(HOST)

serve: install
	$(PY) scripts/serve.py

browser-deps:
	@test -x /usr/bin/chromium || scripts/apt-install.sh chromium

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# Every test: first on PostgreSQL and Redis (throwaway servers unless DATABASE_URL and
# REDIS_URL are given), then the database-backed tests again on the SQLite default.
# Both runs spread the tests over one pytest-xdist worker per core, each with its own test
# database, Redis database and cache directory (tests/conftest.py); `make test XDIST=` runs
# them in one process, PYTEST_ARGS adds options (`PYTEST_ARGS=--durations=15`).
XDIST ?= -n auto --dist worksteal
PYTEST_ARGS ?=
PYTEST := $(PY) -m pytest -p no:cacheprovider $(XDIST) $(PYTEST_ARGS)

test: install browser-deps lint
	BOB_REQUIRE_SERVICES=1 scripts/with-services.sh $(MAKE) --no-print-directory test-services
	$(MAKE) --no-print-directory test-sqlite

test-services:
	$(PYTEST)

test-sqlite:
	env -u DATABASE_URL -u REDIS_URL $(PYTEST) \
		-m 'not services and not browser' --ignore=tests/engine --ignore=tests/test_translations.py

# Every benchmark, each printing what it measures and the goals it checks
# (docs/performance.md): on DATABASE_URL / REDIS_URL when given, else on throwaway embedded
# ones; the database benchmarks at 243 and 2,187 players (BENCH_PLAYERS="243" for fewer).
bench: install
	@for script in benchmarks/*.py; do echo "== $$script"; \
		BENCH_PLAYERS="$(BENCH_PLAYERS)" $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 var staticfiles test-artifacts
