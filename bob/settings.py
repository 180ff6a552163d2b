"""Settings for BoB, read from the environment.

Nothing is required: with no variables set BoB runs on a SQLite file with in-process
tasks (the embedded default). A deployment sets ``DATABASE_URL`` (PostgreSQL),
``REDIS_URL`` (Celery broker and cache), ``SECRET_KEY``, ``DEBUG=0`` and
``ALLOWED_HOSTS`` (README, "Run an event"). Without ``REDIS_URL`` the cache is a directory of
files shared by every process of the machine (``var/cache``, or ``BOB_CACHE_DIR``): see
docs/decisions.md.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_number(name: str, default: float, kind: type = int):
    """The variable as a number of ``kind`` (int or float); a clear error if it is not one."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return kind(value)
    except ValueError:
        from django.core.exceptions import ImproperlyConfigured

        what = "a whole number" if kind is int else "a number"
        raise ImproperlyConfigured(f"{name} must be {what}, not {value!r}.") from None


DEBUG = env_bool("DEBUG", True)
_DEV_SECRET = "bob-development-only-secret-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "django_htmx",
    "tournaments",
    "table",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # (WhiteNoise, serving the static files, is inserted here when DEBUG is off.)
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # An empty 405 becomes a page in the reader's language (a JSON error on the API).
    "bob.method_not_allowed.MethodNotAllowedPageMiddleware",
]

if not DEBUG:
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "bob.urls"
WSGI_APPLICATION = "bob.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "bob.context_processors.mail",
            ],
            # {% url %} reversing each URL once per process (bob/url_tag.py).
            "builtins": ["bob.url_tag"],
        },
    },
]

#: Seconds a process keeps its database connection open between requests (0: one connection
#: per request). A kept connection is checked before a request uses it, so one the server
#: closed meanwhile (PostgreSQL restarted, the connection terminated) is replaced, not a 500.
CONN_MAX_AGE = env_number("CONN_MAX_AGE", 0)
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=CONN_MAX_AGE,
        conn_health_checks=CONN_MAX_AGE > 0,
    )
}
#: PostgreSQL plans a statement once per connection, not on every run: each statement a
#: process has run five times on a kept connection is prepared (psycopg's threshold; the
#: server binds the parameters, as a prepared statement needs). Off (0) behind a pooler that
#: hands one client's statements to other connections (PgBouncer in transaction mode).
DATABASE_PREPARED_STATEMENTS = env_bool("DATABASE_PREPARED_STATEMENTS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and (
    DATABASE_PREPARED_STATEMENTS
):
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 5}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded database takes its write lock when a transaction begins, and a request
    # that finds it taken waits for it (up to 20 s): a transaction that only read at first
    # then wrote while another wrote failed at once with "database is locked" (a 500), e.g.
    # the advance's dice check (a dry run) beside the close itself.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "bob.password_validation.MinimumLengthValidator"},  # its message translated
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Italian by default (the community's language); the test suite runs in English.
LANGUAGE_CODE = os.environ.get("BOB_LANGUAGE", "it")
LANGUAGES = [("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["bob.formats"]  # English dates day first, on a 24-hour clock
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Rome")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# With DEBUG off the app serves its own static files (WhiteNoise): `collectstatic` writes
# them compressed (gzip) under content-hashed names, served with a one-year cache.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

LOGIN_URL = "tournaments:login"


def file_cache(directory: str | Path) -> dict:
    """The embedded default's cache: files in ``directory``, shared by every process on the
    machine (web server, management commands, runserver's reloader child), so a tournament's
    cache generation bumped by one is seen by all (tournaments/caching/generations.py)."""
    return {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(directory),
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }


# Tasks and cache: Redis when REDIS_URL is given, in-process tasks and a file cache otherwise.
# "local" is each process's own memory, only for entries whose key says when they go stale
# (a tournament's generation, tournaments/web/page_cache.py).
REDIS_URL = os.environ.get("REDIS_URL", "")
LOCAL_CACHE = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "bob-local",
    "OPTIONS": {"MAX_ENTRIES": 50},
}
#: Seconds to wait for Redis before giving up on it (the cache, a task being queued).
REDIS_TIMEOUT_SECONDS = env_number("REDIS_TIMEOUT_SECONDS", 1.0, float)
#: Seconds a process leaves Redis alone after one of its uses failed (timed out, could not
#: connect): the cache, queueing tasks and heartbeats all take their fallback at once, so a
#: request waits for a Redis that hangs at most once (tournaments/caching/redis_cooldown.py).
REDIS_COOLDOWN_SECONDS = max(env_number("REDIS_COOLDOWN_SECONDS", 5.0, float), 0.0)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CACHES = {
        # Redis errors are logged and read as misses (bob/cache.py): pages fall back to
        # the database while Redis is away and use it again as soon as it answers.
        "default": {
            "BACKEND": "bob.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "bob"),
            "OPTIONS": {
                "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
                "socket_timeout": REDIS_TIMEOUT_SECONDS,
            },
        },
        "local": LOCAL_CACHE,
    }
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
    CACHES = {
        "default": file_cache(os.environ.get("BOB_CACHE_DIR") or BASE_DIR / "var" / "cache"),
        "local": LOCAL_CACHE,
    }
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# No task is lost or left waiting when a worker dies (docs/operations.md): a task is
# acknowledged only once it has run; a task whose pool process was killed goes back to the
# queue at once; a task whose whole worker died (its message taken but never acknowledged)
# is handed out again once the visibility timeout has passed. Every task is idempotent, so
# running one twice does no harm. A task must finish well within the visibility timeout.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_VISIBILITY_TIMEOUT_SECONDS = env_number("CELERY_VISIBILITY_TIMEOUT", 90)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT_SECONDS,
    # How often (seconds) a worker looks for messages whose visibility timeout has passed:
    # a dead worker's task is running again within the timeout plus this.
    "unacked_restore_interval": max(1, min(10, CELERY_VISIBILITY_TIMEOUT_SECONDS // 6)),
    "unacked_restore_throttle": 1,
    # A web process only publishes: a broker that hangs costs its request about this long.
    # A worker's connections wait longer (BOB_WORKER_REDIS_TIMEOUT_SECONDS, bob/celery.py).
    "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
    "socket_timeout": REDIS_TIMEOUT_SECONDS,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
    "socket_timeout": REDIS_TIMEOUT_SECONDS,
}
#: Seconds a worker's (and the scheduler's) broker connection waits for Redis's answer. A
#: timeout counts as a lost connection, on which a worker cancels its running tasks and has
#: them delivered again (CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS): a Redis
#: that pauses a moment (a save, a busy machine) must not do that, so workers wait longer
#: than a web request does.
BOB_WORKER_REDIS_TIMEOUT_SECONDS = max(
    REDIS_TIMEOUT_SECONDS, env_number("BOB_WORKER_REDIS_TIMEOUT_SECONDS", 5.0, float)
)
# A worker never gives up on the broker: it reconnects for as long as Redis is away (Celery's
# default gives up after 100 attempts, about 47 minutes), at start-up as later, and after a
# channel error too. A worker that stops all the same is started again by `make serve`
# (scripts/serve.py) or compose (restart: unless-stopped).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CHANNEL_ERROR_RETRY = True
# A web request queueing a task waits at most about REDIS_TIMEOUT_SECONDS for the broker,
# then falls back (tournaments/actions/task_queue.py), never a long hang, and not at all
# during the cool-down after a failure (REDIS_COOLDOWN_SECONDS).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 0}
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT_SECONDS
_NOTICE_SWEEP_SECONDS = env_number("BOB_NOTICE_SWEEP_SECONDS", 60.0, float)
_TURN_SWEEP_SECONDS = 30.0
# Each sweep expires when the next is due: with no worker running, they do not pile up in
# the queue, to be run one after another when a worker starts.
CELERY_BEAT_SCHEDULE = {
    # Notices whose task was never queued (broker down) or was lost are sent again.
    "send-pending-notices": {
        "task": "tournaments.tasks.send_pending_notices",
        "schedule": _NOTICE_SWEEP_SECONDS,
        "options": {"expires": _NOTICE_SWEEP_SECONDS},
    },
    # Alien turns whose task was lost (Redis restarted empty) are queued again
    # (table/turn_sweep.py).
    "requeue-lost-turns": {
        "task": "table.tasks.requeue_lost_turns",
        "schedule": _TURN_SWEEP_SECONDS,
        "options": {"expires": _TURN_SWEEP_SECONDS},
    },
}
#: Seconds between two heartbeats of a worker and of the scheduler (bob/heartbeat.py);
#: /healthz reports a part not heard of for three of them.
BOB_HEARTBEAT_SECONDS = max(env_number("BOB_HEARTBEAT_SECONDS", 10.0, float), 1.0)
# The scheduler gives its heartbeat from its loop, which wakes up at least once a heartbeat.
CELERY_BEAT_SCHEDULER = "bob.heartbeat:HeartbeatScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = BOB_HEARTBEAT_SECONDS

#: Seconds after which an Alien turn request not yet resolved is shown to the judge as
#: failed, with a button to run it again (the worker may be down or the task lost).
BOB_ALIEN_TURN_DEADLINE_SECONDS = env_number("BOB_ALIEN_TURN_DEADLINE_SECONDS", 120)

# Mail (the players' notices): an SMTP server when EMAIL_HOST is set, else the mails are only
# written to the log (the console backend) and the pages say that players are not emailed
# (bob/context_processors.py).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = env_number("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        "EMAIL_USE_TLS and EMAIL_USE_SSL are both on: set one of them (EMAIL_USE_TLS=1 for "
        "STARTTLS, usually port 587; EMAIL_USE_SSL=1 for SSL from the start, usually 465)."
    )
#: Seconds to wait for the mail server: one that hangs never holds a worker for ever (nor
#: a task past its visibility timeout: a session's few mails take well under it).
EMAIL_TIMEOUT = env_number("EMAIL_TIMEOUT", 10)
#: Seconds a process sends no mail after the mail server did not answer (timed out, could not
#: be reached): its notices wait for the next sweep instead of each waiting EMAIL_TIMEOUT
#: (tournaments/actions/mail_server.py). Shorter than the sweep's period, so that every sweep
#: tries the server once.
BOB_MAIL_COOLDOWN_SECONDS = max(env_number("BOB_MAIL_COOLDOWN_SECONDS", 30.0, float), 0.0)
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "bob@localhost")
# Domain of the calendar (.ics) event UIDs: set it to the site's own domain.
BOB_CALENDAR_DOMAIN = os.environ.get("BOB_CALENDAR_DOMAIN", "bob.invalid")


def _site_url(value: str) -> str:
    """The site's address as the players' devices reach it, without a final slash; a clear
    error when it is no http(s) address (a mail's links would lead nowhere)."""
    url = value.strip().rstrip("/")
    parts = urlsplit(url)
    if url and (parts.scheme not in {"http", "https"} or not parts.netloc or parts.query):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"BOB_SITE_URL must be the address the players open, such as "
            f"https://bob.example.org, not {value!r}."
        )
    return url


#: The site's address for the links of the players' mails and their calendar files, which
#: are written outside any request (empty: the mails carry no links).
BOB_SITE_URL = _site_url(os.environ.get("BOB_SITE_URL", ""))

# Log-in throttle (tournaments/web/login_throttle.py): failed log-ins counted in the
# database per account and client address, per account and per client address.
BOB_LOGIN_ATTEMPTS = env_number("BOB_LOGIN_ATTEMPTS", 5)
BOB_LOGIN_ACCOUNT_ATTEMPTS = env_number("BOB_LOGIN_ACCOUNT_ATTEMPTS", 20)
BOB_LOGIN_ADDRESS_ATTEMPTS = env_number("BOB_LOGIN_ADDRESS_ATTEMPTS", 30)
BOB_LOGIN_WINDOW_SECONDS = env_number("BOB_LOGIN_WINDOW_SECONDS", 15 * 60)
#: Reverse proxies in front of BoB that add the client's address to X-Forwarded-For
#: (0: clients connect directly, the address is REMOTE_ADDR).
BOB_TRUSTED_PROXIES = env_number("BOB_TRUSTED_PROXIES", 0)

# Security headers, in development too so a page that breaks them shows at once: no inline
# script or style anywhere (scripts and styles are files under static/).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING: dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "timed": {"format": "[{asctime}] {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"bob": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}

# Production hardening: on whenever DEBUG is off, so `check --deploy` is clean. BOB_HTTPS=0
# serves plain HTTP (a venue's own network with no certificate): no HTTPS redirect, no
# HTTPS-only cookies, no HSTS.
if not DEBUG:
    _HTTPS = env_bool("BOB_HTTPS", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _HTTPS)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = _HTTPS
    CSRF_COOKIE_SECURE = _HTTPS
    if _HTTPS:
        SECURE_HSTS_SECONDS = env_number("SECURE_HSTS_SECONDS", 31536000)
        SECURE_HSTS_INCLUDE_SUBDOMAINS = True
        SECURE_HSTS_PRELOAD = True
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
    # Django's warnings and errors go to the console (stderr: the server's log) beside BoB's,
    # each line with its time (with DEBUG on Django prints them itself): a page that failed
    # (500) with its traceback, a host name not in ALLOWED_HOSTS, a CSRF failure, a database
    # error. From django.request only the errors: Gunicorn's access log has every 404.
    LOGGING["handlers"]["console"]["formatter"] = "timed"
    LOGGING["loggers"]["django"] = {"handlers": ["console"], "level": "WARNING"}
    LOGGING["loggers"]["django.request"] = {"level": "ERROR"}
