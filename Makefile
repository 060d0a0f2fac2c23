# cardleague — `make run` sets everything up and plays; `make test` runs the whole suite.
VENV   ?= .venv
PY     := $(VENV)/bin/python
PYTHON ?= python3
HOST   ?= 127.0.0.1
PORT   ?= 8000
MESSAGES_ARGS = -l lv -l lt -l ru -l uk --no-obsolete --ignore '.venv/*' --ignore 'var/*' --ignore 'staticfiles/*' \
	--ignore 'tests/*' --ignore 'clients/*'
# A local copy runs with DEBUG on (its .env says so for every command, in any shell); production sets
# DEBUG=0 and a SECRET_KEY in its environment (docs/production.md).
export DEBUG ?= 1

.PHONY: install migrate demo run worker test test-fast test-django bench club-night messages clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q -U pip
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $@

# Compiled translation catalogues (.mo), with polib: pure Python, no GNU gettext needed.
$(VENV)/.messages: $(VENV)/.installed $(wildcard locale/*/LC_MESSAGES/django.po) \
		$(wildcard locale/thirdparty/*/LC_MESSAGES/*.po)
	$(PY) manage.py messages_compile -v 0
	touch $@

# This copy's own settings, read by cardleague/settings.py (the environment wins): DEBUG on and a secret key
# generated once and kept, so that every `manage.py` command of the README works as written. Git and the
# Docker image leave it out (.gitignore, .dockerignore).
.env:
	@umask 077 && key=$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))') && printf '%s\n' \
	  "# cardleague: this copy's own settings, written once by make install (git and the Docker image leave" \
	  "# this file out). The environment wins over it. Production: DEBUG=0 and its own SECRET_KEY." \
	  "DEBUG=1" "SECRET_KEY=$$key" > $@
	@echo "wrote $@ (DEBUG=1 and a new SECRET_KEY for this copy)"

install: $(VENV)/.installed $(VENV)/.messages .env

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo_data

## The web server (uvicorn, ASGI) and a Celery worker with its beat (sweepers, clocks), with demo data;
## Ctrl-C stops both.
run: demo
	@$(PY) manage.py collectstatic --noinput -v 0
	@echo ""
	@echo "  cardleague is running at http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/)"
	@echo ""
	@$(VENV)/bin/celery -A cardleague worker -B -l warning --concurrency 2 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(VENV)/bin/uvicorn cardleague.asgi:application --host $(HOST) --port $(PORT) --log-level warning \
	  --timeout-graceful-shutdown 5

worker: install
	$(VENV)/bin/celery -A cardleague worker -l info

## Three test tiers (docs/index.md gives their times). The whole suite, as CI runs it (.ci/run): engine,
## Django, slow, Celery-worker, PostgreSQL and browser tests. DATABASE_URL / CELERY_BROKER_URL pick the services.
test: install
	$(VENV)/bin/pytest

## The engine's tests in under a minute: one seed per protocol case instead of six, on every core.
test-fast: install
	PROTOCOL_SEEDS=1 $(VENV)/bin/pytest tests/engine -n auto -p no:cacheprovider

## Games, league, the project package, the clients and the root checks in under 3 minutes on two cores: on
## SQLite with no service configured, without the slow, browser, Celery-worker and PostgreSQL tests.
DJANGO_TESTS = tests/games tests/league tests/cardleague tests/clients tests/test_docs.py tests/test_layers.py \
	tests/test_types.py
test-django: install
	unset DATABASE_URL DB_POOL CACHE_URL CELERY_BROKER_URL CELERY_RESULT_BACKEND STREAMS_URL \
	  CARDLEAGUE_REQUIRE_SERVICES; \
	$(VENV)/bin/pytest $(DJANGO_TESTS) -m "not slow and not browser and not celery_worker and not postgres" \
	  -n 2 -p no:cacheprovider

## Benchmarks: they print figures, they do not pass or fail.
bench: install
	$(PY) -m tests.bench.engine_throughput
	$(PY) -m tests.bench.iota_speed
	$(PY) -m tests.bench.move_submit_cost
	$(PY) -m tests.bench.board_cost
	$(PY) -m tests.bench.tournament_bench
	$(PY) -m tests.bench.search_time
	$(PY) -m tests.bench.bot_ladder --all --matches 2 --levels random,greedy,search-easy,search

## The club night (locust): people at tables and watchers, against the production shape started here
## (uvicorn, a Celery worker, PostgreSQL and Redis on 127.0.0.1). PEOPLE=200 TABLES=50 DURATION=180.
PEOPLE ?= 200
TABLES ?= 50
DURATION ?= 180
club-night: install
	$(VENV)/bin/pip install -q -e '.[bench]'
	$(PY) -m tests.bench.club_night --people $(PEOPLE) --tables $(TABLES) --duration $(DURATION)

## Extract the site's strings into the catalogues (needs GNU gettext's xgettext); translate, then commit.
messages: install
	$(PY) manage.py makemessages $(MESSAGES_ARGS)

## The documentation site (mkdocs.yml, docs/) into var/site; --strict fails on a broken link or anchor.
.PHONY: docs
docs: install
	$(VENV)/bin/mkdocs build --strict -d var/site

clean:
	rm -rf var staticfiles .pytest_cache
