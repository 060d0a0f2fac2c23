"""cardleague settings: everything from environment variables, with defaults that
need no server at all (SQLite and an embedded Celery broker on a SQLite file).

Production shape (docker/compose.yaml): DATABASE_URL=postgres://…,
CELERY_BROKER_URL=redis://…, SECRET_KEY, DEBUG=0, ALLOWED_HOSTS. A local copy's own `.env`
(written by `make install`: DEBUG=1 and a generated SECRET_KEY) is read first; the environment wins.
"""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def read_local_settings(path: str | os.PathLike | None) -> None:
    """This copy's own settings file, ``KEY=VALUE`` lines (``#`` comments, an optional ``export``):
    ``make install`` writes ``.env`` at the project's root with ``DEBUG=1`` and a ``SECRET_KEY``
    generated once, so that every ``manage.py`` command works in any shell. The environment always
    wins. Git and the Docker image leave the file out; ``CARDLEAGUE_ENV_FILE`` names another file
    (empty: none)."""
    if not path or not os.path.isfile(path):
        return
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _sep, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        os.environ.setdefault(name.strip(), value)


read_local_settings(os.environ.get("CARDLEAGUE_ENV_FILE", BASE_DIR / ".env"))
VAR_DIR = Path(os.environ.get("CARDLEAGUE_VAR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# Off unless asked for: a local copy asks in its `.env` (make install writes it), production leaves it off.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off (a local copy: `make install` writes "
                           "DEBUG=1 and a SECRET_KEY into .env)")
    SECRET_KEY = "dev-only-insecure-key-change-me"
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

# Static files, served by the web process itself through WhiteNoise (`collectstatic` first; in DEBUG from the
# apps' folders). Django runs synchronously under ASGI too (cardleague/asgi.py), so WhiteNoise's file iterators
# suit every server.

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    # django-ninja's own Swagger UI files, served from here: /api/docs works under the site's CSP (no CDN)
    "ninja",
    "pgtrigger",
    "axes",
    "csp",
    "games",
    "league",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "cardleague.middleware.PersonLanguageMiddleware",
    "cardleague.middleware.ApiJsonBodiesMiddleware",
    "cardleague.middleware.ReaderTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # a page's rate limit (sign-ups) answers 429 with Retry-After (RATELIMIT_VIEW), not a 403
    "django_ratelimit.middleware.RatelimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # last, as django-axes asks: it turns a locked-out login into its lockout response
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "cardleague.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]
WSGI_APPLICATION = "cardleague.wsgi.application"
ASGI_APPLICATION = "cardleague.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'cardleague.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", False):
    # A psycopg pool per process (what an ASGI server needs: its requests' threads share the pool,
    # where a persistent connection would be opened and closed per request). DB_POOL_MAX per process.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2, "max_size": int(os.environ.get("DB_POOL_MAX", "10")), "timeout": 10}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent web + worker processes on one SQLite file: wait for locks, take
    # the write lock at BEGIN so a row lock means what it says.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE",
                                       "init_command": "PRAGMA journal_mode=WAL;"}
    # A file, not memory, so that a test's Celery worker process sees the same database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-cardleague.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# PostgreSQL roles the application connects as, when they are not the tables' owner: the events
# migration revokes UPDATE, DELETE and TRUNCATE on the events table from them.
CARDLEAGUE_DB_APP_ROLES = [r.strip() for r in os.environ.get("CARDLEAGUE_DB_APP_ROLES", "").split(",") if r.strip()]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a login while its username and address are locked out
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("lv", _("Latvian")), ("lt", _("Lithuanian")),
             ("ru", _("Russian")), ("uk", _("Ukrainian"))]
# The site's own catalogues first (makemessages writes them), then locale/thirdparty: the words Django, its
# admin and django-axes leave in English in our languages (written by hand; makemessages never touches them).
# Both win over Django's and the apps' own catalogues, so locale/thirdparty holds only what those lack (a test).
LOCALE_DIR = Path(os.environ.get("CARDLEAGUE_LOCALE_DIR", BASE_DIR / "locale"))
LOCALE_PATHS = [LOCALE_DIR, LOCALE_DIR / "thirdparty"]
# The club's time zone: the default for every reader, and for e-mails and the worker. Each reader sees
# times in their own (static/js/tz.js keeps the browser's zone in a cookie: ReaderTimeZoneMiddleware).
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Riga")
USE_I18N = True
USE_TZ = True
# English dates as the clubs read them (day before month, a 24-hour clock), like the other languages'.
FORMAT_MODULE_PATH = ["cardleague.formats"]

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

# E-mail: the console in a local copy, SMTP in production (EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER,
# EMAIL_HOST_PASSWORD, EMAIL_USE_TLS); SITE_URL makes the links in e-mails.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or ("django.core.mail.backends.console.EmailBackend" if DEBUG else
                                                    "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "cardleague <noreply@localhost>")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Sessions read from the cache (written through to the database): a page's or a poll's session costs
# no query.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# A cache shared by every process on this machine by default (a directory under var/), Redis in
# production (CACHE_URL=redis://…): the API's throttles and the rate limits count in it.
CACHE_URL = os.environ.get("CACHE_URL", "")
# With Redis down or hung the site keeps working: sessions come from the database and the rate limits
# fail open, with a line in the log and on /readyz (cardleague/cache.py).
CACHES = {"default": {"BACKEND": "cardleague.cache.ForgivingRedisCache", "LOCATION": CACHE_URL}
          if CACHE_URL.startswith(("redis://", "rediss://")) else
          {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(VAR_DIR / "cache")}}

# Celery: an embedded broker on a SQLite file by default (no server needed).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "cardleague")
# Every task does bounded work (CARDLEAGUE_BOT_MOVES_PER_TASK moves, then it hands on), so no task
# runs near the time limit; the broker gives an unacknowledged task (its worker died) to another
# worker after the visibility timeout, which must exceed the longest task.
CELERY_TASK_SOFT_TIME_LIMIT = int(os.environ.get("CELERY_TASK_SOFT_TIME_LIMIT", "120"))
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 30
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", str(CELERY_TASK_TIME_LIMIT + 30))),
    # a hung broker costs a request at most this, once (games/dispatch.py), never a hang
    "socket_timeout": float(os.environ.get("CELERY_BROKER_SOCKET_TIMEOUT", "2")),
    "socket_connect_timeout": float(os.environ.get("CELERY_BROKER_SOCKET_TIMEOUT", "2")),
} if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else {}
# The embedded broker is a table its worker polls: kombu's default is once a second, so a bot answered a
# person's move up to a second late and a bot tournament's worker idled at each hand-over. An empty poll
# costs the idle worker about 2 ms of CPU: every 0.2 s, about 1% of a core. (Set on the transport in
# cardleague/celery.py: kombu's SQLAlchemy transport hands every transport option to SQLAlchemy's create_engine,
# which refuses this one.)
CARDLEAGUE_EMBEDDED_BROKER_POLL = float(os.environ.get("CARDLEAGUE_EMBEDDED_BROKER_POLL", "0.2"))
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Celery beat: the sweepers re-queue stalled work (games.sweep, league.sweep). `make run` starts beat inside its
# worker (-B); production runs one beat process (docker/compose.yaml).
CARDLEAGUE_SWEEP_EVERY = float(os.environ.get("CARDLEAGUE_SWEEP_EVERY", "15"))
CARDLEAGUE_STALL_SECONDS = float(os.environ.get("CARDLEAGUE_STALL_SECONDS", "30"))
# Clocks: how often due deadlines are looked for (games.clocks; twin: manage.py clocks_run).
CARDLEAGUE_CLOCKS_EVERY = float(os.environ.get("CARDLEAGUE_CLOCKS_EVERY", "2"))
CELERY_BEAT_SCHEDULE = {
    "games-sweep": {"task": "games.sweep", "schedule": CARDLEAGUE_SWEEP_EVERY},
    "games-clocks": {"task": "games.clocks", "schedule": CARDLEAGUE_CLOCKS_EVERY},
    "league-sweep": {"task": "league.sweep", "schedule": CARDLEAGUE_SWEEP_EVERY},
    # drafted rounds released at their scheduled start (Round.starts_at)
    "league-release-due": {"task": "league.release_due", "schedule": CARDLEAGUE_SWEEP_EVERY},
    "league-entries": {"task": "league.entries_sweep", "schedule": CARDLEAGUE_SWEEP_EVERY},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# Live streams (Server-Sent Events) fan out through Redis pub/sub; without it the pages poll.
CARDLEAGUE_STREAMS_URL = os.environ.get("STREAMS_URL") or next(
    (url for url in (CACHE_URL, CELERY_BROKER_URL) if url.startswith(("redis://", "rediss://"))), "")


def streams_prefix(url: str, given: str | None) -> str:
    """The streams' channel prefix: STREAMS_PREFIX, or "cardleague:<the Redis database number>" — Redis
    pub/sub ignores database numbers, so two deployments sharing one Redis on different databases would
    otherwise hear each other's notices. Two deployments on the same database need their own
    STREAMS_PREFIX."""
    if given:
        return given
    from urllib.parse import urlsplit

    path = urlsplit(url).path.strip("/") if url else ""
    return f"cardleague:{path if path.isascii() and path.isdigit() else '0'}"


CARDLEAGUE_STREAMS_PREFIX = streams_prefix(CARDLEAGUE_STREAMS_URL, os.environ.get("STREAMS_PREFIX"))
CARDLEAGUE_STREAM_HEARTBEAT = float(os.environ.get("CARDLEAGUE_STREAM_HEARTBEAT", "15"))
# Without Redis, how often each web process reads the new stream notices (one query for all its streams).
CARDLEAGUE_STREAM_POLL = float(os.environ.get("CARDLEAGUE_STREAM_POLL", "0.25"))
# Database reads the open streams of one server process make at the same time (each a short visit).
CARDLEAGUE_STREAM_DB_READS = int(os.environ.get("CARDLEAGUE_STREAM_DB_READS", "8"))
# Under ASGI (cardleague/asgi.py) the threads on which one process runs Django's pages and API: reads (GET,
# HEAD, OPTIONS) and, on threads of their own, writes (moves, forms), so that no move waits behind reads.
CARDLEAGUE_WEB_THREADS = int(os.environ.get("CARDLEAGUE_WEB_THREADS", "8"))
CARDLEAGUE_WEB_WRITE_THREADS = int(os.environ.get("CARDLEAGUE_WEB_WRITE_THREADS", "4"))
# Open streams one account / one address may hold (a 429 beyond), this process (0: three quarters of its
# file limit, RLIMIT_NOFILE; a 503 beyond), and how long one stream lasts before the client reconnects.
CARDLEAGUE_STREAMS_PUBLISH_TIMEOUT = float(os.environ.get("CARDLEAGUE_STREAMS_PUBLISH_TIMEOUT", "0.25"))
CARDLEAGUE_STREAMS_PER_ACCOUNT = int(os.environ.get("CARDLEAGUE_STREAMS_PER_ACCOUNT", "20"))
CARDLEAGUE_STREAMS_PER_ADDRESS = int(os.environ.get("CARDLEAGUE_STREAMS_PER_ADDRESS", "200"))
CARDLEAGUE_STREAMS_PER_PROCESS = int(os.environ.get("CARDLEAGUE_STREAMS_PER_PROCESS", "0"))
CARDLEAGUE_STREAM_MAX_SECONDS = float(os.environ.get("CARDLEAGUE_STREAM_MAX_SECONDS", "1800"))
CARDLEAGUE_STREAM_RETRY_AFTER = int(os.environ.get("CARDLEAGUE_STREAM_RETRY_AFTER", "30"))

# Event store: a snapshot of the folded state every N events bounds replay cost.
CARDLEAGUE_SNAPSHOT_EVERY = int(os.environ.get("CARDLEAGUE_SNAPSHOT_EVERY", "200"))
# Bots: moves one task plays before handing on to a fresh task.
CARDLEAGUE_BOT_MOVES_PER_TASK = int(os.environ.get("CARDLEAGUE_BOT_MOVES_PER_TASK", "400"))
# Bots: moves played in memory and recorded in one transaction (a person's move waits for it).
CARDLEAGUE_BOT_STRETCH = int(os.environ.get("CARDLEAGUE_BOT_STRETCH", "200"))
# ... or this much thinking, whichever comes first (the events are the same either way)
CARDLEAGUE_BOT_STRETCH_SECONDS = float(os.environ.get("CARDLEAGUE_BOT_STRETCH_SECONDS", "1.0"))
# People at the table: no bot catches a person's missed LIVOL!/UNO! call (nor closes the window by
# moving on) within this many seconds of the person's card; the bot that plays a seat after a
# timeout or a resignation; timeouts in a row after which a seat is abandoned (it resigns).
CARDLEAGUE_CALL_GRACE_SECONDS = float(os.environ.get("CARDLEAGUE_CALL_GRACE_SECONDS", "3"))
CARDLEAGUE_STAND_IN_POLICY = os.environ.get("CARDLEAGUE_STAND_IN_POLICY", "greedy")
CARDLEAGUE_ABANDON_AFTER = int(os.environ.get("CARDLEAGUE_ABANDON_AFTER", "3"))

# Guessing and flooding. Logins: django-axes locks a username at an address out after 5 failures
# for 15 minutes (429). The API: per-address and per-user request rates (django-ninja throttles);
# wrong bearer tokens are counted per address; moves have their own per-user rate (API and pages).
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "0.25"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Reverse proxies in front of the web server (their X-Forwarded-For gives the client's address).
CARDLEAGUE_PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))
AXES_IPWARE_PROXY_COUNT = CARDLEAGUE_PROXY_COUNT or None
NINJA_NUM_PROXIES = CARDLEAGUE_PROXY_COUNT
AXES_VERBOSE = False
# Matches one account may hold open (waiting or running), and challenges waiting for one account.
CARDLEAGUE_MAX_OPEN_MATCHES = int(os.environ.get("CARDLEAGUE_MAX_OPEN_MATCHES", "30"))
CARDLEAGUE_MAX_INCOMING_CHALLENGES = int(os.environ.get("CARDLEAGUE_MAX_INCOMING_CHALLENGES", "20"))
# Outside bot accounts one person may own (their requests count against the owner's limits too).
CARDLEAGUE_BOT_ACCOUNTS_PER_PERSON = int(os.environ.get("CARDLEAGUE_BOT_ACCOUNTS_PER_PERSON", "5"))
CARDLEAGUE_RATES = {
    "api_anon": os.environ.get("RATE_API_ANON", "60/m"),
    "api_user": os.environ.get("RATE_API_USER", "3000/m"),
    "moves": os.environ.get("RATE_MOVES", "600/m"),
    "token_failures": os.environ.get("RATE_TOKEN_FAILURES", "20/m"),
    "signups": os.environ.get("RATE_SIGNUPS", "10/h"),
    # attempts to start a match or challenge, per account (refused ones too)
    "new_matches": os.environ.get("RATE_NEW_MATCHES", "60/h"),
}
RATELIMIT_VIEW = "games.web.views.rate_limited"
# A move is a few hundred bytes; an API body beyond this is refused with 413 before it is parsed.
CARDLEAGUE_MAX_BODY = int(os.environ.get("CARDLEAGUE_MAX_BODY", str(64 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = CARDLEAGUE_MAX_BODY

# Content-Security-Policy (django-csp): scripts only from this site (htmx and our static files;
# no inline script, no eval); inline style attributes are allowed (the boards position cards
# with CSS variables), <style> elements are not needed.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    # a stream refused by a server without streams is expected (the client polls): not an error line
    "filters": {"expected_refusals": {"()": "cardleague.log_filters.ExpectedRefusals"}},
    "loggers": {"django.request": {"filters": ["expected_refusals"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Production (DEBUG off): secure cookies, HSTS, HTTPS redirects behind a proxy that sets
# X-Forwarded-Proto. A local production-shaped run over plain HTTP (docker/compose.yaml on
# localhost) turns them off with SECURE_SSL_REDIRECT=0 SESSION_COOKIE_SECURE=0 CSRF_COOKIE_SECURE=0.
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_HTTPONLY = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
