"""Settings for development and `make run`.

Everything is read from the environment with an embedded default, so a bare machine runs the
platform with SQLite, an in-memory channel layer and Celery tasks executed eagerly. Real services
are used as soon as they are configured:

- ``DATABASE_URL`` (e.g. ``postgres://postgres@127.0.0.1:5432/test``) selects PostgreSQL;
- ``REDIS_URL`` (e.g. ``redis://127.0.0.1:6379/0``) selects channels-redis and makes Redis the
  Celery broker and result backend (tasks then run in a worker, not eagerly).
"""

import logging
import os
from pathlib import Path

import dj_database_url
from environs import Env
from marshmallow.validate import Range
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

BASE_DIR = Path(__file__).resolve().parent.parent.parent

# Every variable is read through environs, one way for all: a value it cannot read (DJANGO_DEBUG=maybe,
# DATABASE_POOL_MAX_SIZE=ten) stops the start with an error naming the variable, never a silent default.
env = Env()

# The port `make run` serves on (and the demo's printed addresses use).
PORT = env.int("PORT", 8000, validate=Range(min=1, max=65535))
SECRET_KEY = env.str("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = env.bool("DJANGO_DEBUG", True)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS: list[str] = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "learning",
    "lexicons",
    "games",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    "axes.middleware.AxesMiddleware",
]

# Everything from this site only ('self' covers its own ws:/wss: sockets); no inline script or style anywhere.
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

ROOT_URLCONF = "config.urls"

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
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASE_POOL_MAX_SIZE = env.int("DATABASE_POOL_MAX_SIZE", 10, validate=Range(min=1))
DATABASES = {"default": dj_database_url.parse(env.str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Row locks do not exist in SQLite; a generous timeout lets racing writers queue instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
else:
    # Under ASGI every request and every database_sync_to_async call may run on another thread, and a persistent
    # connection (CONN_MAX_AGE) stays with its thread: idle connections piled up until PostgreSQL refused new
    # clients. Instead each process keeps a pool of at most DATABASE_POOL_MAX_SIZE connections, shared by its
    # threads: a connection goes back to the pool when a request or call ends (a new one per move is too slow).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DATABASE_POOL_MAX_SIZE,
        "timeout": 10,  # seconds a request waits for a free connection before failing
    }
    # Django turns psycopg's prepared statements off (``prepare_threshold`` None), which also ignores an explicit
    # ``prepare=True``. The move path's two statements ask for it (games/services/table_rows.py): planned once per
    # pooled connection instead of once per move. The threshold is out of reach, so nothing else is prepared: the
    # ORM binds on the client, and its statements differ with every value.
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 2**31 - 1
# Threads of a server process that run the table consumer's database calls (config/dbthreads.py), each with a pooled
# connection while it runs; the rest of the pool serves requests and Channels' own database thread.
DATABASE_THREADS = env.int(
    "DATABASE_THREADS", max(1, min(4, DATABASE_POOL_MAX_SIZE - 2)), validate=Range(min=1, max=DATABASE_POOL_MAX_SIZE)
)

# A student's move is played on the server's event loop with psycopg's async connections (config/asyncdb.py,
# games/services/loop_moves.py), at most DATABASE_LOOP_CONNECTIONS per server process (a move holds one for its two
# round trips); false puts every move back on the database threads. Only with PostgreSQL: SQLite stays on a thread.
MOVES_ON_LOOP = env.bool("MOVES_ON_LOOP", True)
DATABASE_LOOP_CONNECTIONS = env.int("DATABASE_LOOP_CONNECTIONS", 4, validate=Range(min=1))
# The loop decides a move on its process's copy of the table's row and saves it in one round trip if the row has not
# changed since: at most this many tables' rows are kept per process (a Grabble table's is about 20 kB).
MOVE_TABLE_COPIES = env.int("MOVE_TABLE_COPIES", 2000, validate=Range(min=0))
# A server process collects its young objects once this many more have been made than freed (config/asgi.py; Python's
# default is 700). 0 would turn automatic collection off: refused.
GC_YOUNG_THRESHOLD = env.int("GC_YOUNG_THRESHOLD", 5000, validate=Range(min=100))

AUTH_USER_MODEL = "learning.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_ROOT = env.path("DJANGO_MEDIA_ROOT", BASE_DIR / "media")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Uploads (lexicons) are streamed to disk above this size rather than held in memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Request bodies (config/http_limits.py): refused with 413 before they are read. Forms are small; a lexicon
# upload may carry its files (the form refuses them past LEXICON_UPLOAD_MAX_BYTES with a clearer message).
LEXICON_UPLOAD_MAX_BYTES = 50 * 1024 * 1024
REQUEST_MAX_BYTES = 256 * 1024
REQUEST_BODY_LIMITS = [(r"^/lexicons/(upload|\d+/replace)/$", LEXICON_UPLOAD_MAX_BYTES + 1024 * 1024)]
# What a lexicon upload may expand to, checked while it is imported (README, "Limits"): its text once decompressed
# (all files together), one line, the forms of one Hunspell stem, the entries it writes, and the entries one teacher
# owns across all their lexicons.
LEXICON_MAX_TEXT_BYTES = 100 * 1024 * 1024
LEXICON_MAX_LINE_BYTES = 16 * 1024
LEXICON_MAX_FORMS_PER_STEM = 10_000
LEXICON_MAX_ENTRIES = 1_000_000
LEXICON_MAX_ENTRIES_PER_TEACHER = 2_000_000

REDIS_URL = env.str("REDIS_URL", "")


def redis_channel_layers(url: str, prefix: str) -> dict:
    """The channel layer on the Redis at ``url`` (a function, so that the fault tests run this very configuration
    against a Redis of their own that they stop and start).

    Redis pub/sub (channels-redis's ``RedisPubSubChannelLayer``, made safe across a Redis restart by
    ``config.channel_layer``), not its list-based ``RedisChannelLayer``: a group
    send is one PUBLISH that each server process receives once and hands to its own members, where the list layer
    runs a script writing the message once per member channel, which every process then pops with its own blocking
    read; bench/live measured the list layer at twice the CPU per broadcast, for the bare echo as for a move.
    Pub/sub keeps nothing for a process that is not listening, which costs us nothing: broadcasts are best effort,
    and a page that missed one catches up by its seq (docs/protocol.md)."""
    return {
        "default": {
            "BACKEND": "config.channel_layer.ChannelLayer",
            "CONFIG": {
                # health_check_interval: a connection idle that long is checked before use; and a publish that finds
                # its connection dead (Redis restarted since it was last used, however briefly) is retried on a new
                # connection. The pub/sub socket is reconnected by its receive task alone (config.channel_layer), so
                # the first connect after a restart is admitted, not refused. redis-py 8's default 5 s socket timeout
                # is raised so a slow moment of Redis is not taken for a dead one. RESP2, not redis-py 8's default
                # RESP3: there every pub/sub message arrives as a push notification, which redis-py formats whole into
                # a debug line whether debug logging is on or not: a move's 9 kB message cost 150-170 µs of CPU to hear
                # against 80-95 µs in RESP2, in every process with a seat at the table (bench/live/pubsub_read.py).
                "hosts": [
                    {
                        "address": url,
                        "protocol": 2,
                        "socket_timeout": 30,
                        "health_check_interval": 5,
                        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
                        "retry_on_error": [RedisConnectionError],
                    }
                ],
                "prefix": prefix,
            },
        }
    }


if REDIS_URL:
    CHANNEL_LAYERS = redis_channel_layers(REDIS_URL, env.str("CHANNELS_PREFIX", "asgi"))
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache holds throttle counts (learning/throttle.py): in Redis, shared by every process, when configured.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Guessable codes (join, rejoin): at most this many failures per client and per code in the window (seconds).
CODE_GUESS_LIMIT = (20, 10 * 60)
# Behind a reverse proxy that sets X-Forwarded-For (and strips what clients send), throttle by its last address.
TRUST_X_FORWARDED_FOR = env.bool("DJANGO_TRUST_X_FORWARDED_FOR", False)

# Teacher log-in: django-axes locks a username from an address after AXES_FAILURE_LIMIT failures, for an hour.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# Robot players (games.services.robots): how a robot's move is run — "celery" (a task with a countdown, on a worker),
# "thread" (a timer thread in the server process: the default while Celery runs eagerly, so a robot's delay never
# blocks a request) or "manual" (the test suite runs them itself); and the human-like delay before a robot acts.
ROBOTS_RUN = env.str("ROBOTS_RUN", "thread" if CELERY_TASK_ALWAYS_EAGER else "celery")
ROBOT_DELAY_MIN = env.float("ROBOT_DELAY_MIN", 1.0)
ROBOT_DELAY_MAX = env.float("ROBOT_DELAY_MAX", 2.5)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker's processes: one more than the machine has cores (Celery's own default is one a core), so that with
# BACKGROUND_JOBS_AT_ONCE long jobs (imports, reports) running, one is still free for play's short tasks (robot
# turns, the recording of a move's words). The worker is niced (CELERY_WORKER_NICE): play goes first all the same.
CELERY_WORKER_CONCURRENCY = env.int(
    "CELERY_WORKER_CONCURRENCY", (os.cpu_count() or 1) + 1, validate=Range(min=2, max=64)
)
# At most this many long jobs run at once, across every worker (config/yielding.py); one that finds them all taken
# stays queued and tries again BACKGROUND_SLOT_WAIT seconds later. At most one fewer than a worker's processes.
BACKGROUND_JOBS_AT_ONCE = env.int(
    "BACKGROUND_JOBS_AT_ONCE", CELERY_WORKER_CONCURRENCY - 1, validate=Range(min=1, max=CELERY_WORKER_CONCURRENCY - 1)
)
BACKGROUND_SLOT_WAIT = 5
# How much a worker lowers its CPU priority (0: not at all): live play on the same machine goes first.
CELERY_WORKER_NICE = env.int("CELERY_WORKER_NICE", 10, validate=Range(min=0, max=19))
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
# Jobs record their progress and outcome on their own rows; nobody reads a task's result. Keeping results would also
# make every publish wait on the result backend: while Redis is down, about 20 s of retries per publish (a request
# asking for a report hung that long) instead of failing at once and leaving the job queued for the sweep.
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
# While tables are playing (a move within LIVE_PLAY_WINDOW seconds), long jobs (imports, reports) work at most this
# share of the time, pausing between batches (config/yielding.py): their database writes slow every move's commit.
BACKGROUND_SHARE_DURING_PLAY = env.float(
    "BACKGROUND_SHARE_DURING_PLAY", 0.25, validate=Range(min=0, max=1, min_inclusive=False)
)
LIVE_PLAY_WINDOW = 60
# Time limits of the long jobs, in seconds: past them the job is stopped and marked failed with a message.
LEXICON_IMPORT_TIME_LIMIT = 20 * 60
REPORT_TIME_LIMIT = 10 * 60
# A running job whose worker has not reported for this long (seconds) is dead: marked failed, its rows cleaned up.
IMPORT_HEARTBEAT_TIMEOUT = 120
REPORT_HEARTBEAT_TIMEOUT = 120
# A job still queued this long after it was asked for (its message lost while the broker was down) is sent again.
JOB_RESEND_AFTER = 30
# Redis redelivers a message whose worker died after this long: longer than any job may run.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": LEXICON_IMPORT_TIME_LIMIT + 10 * 60}

# Websocket conventions shared by every consumer (config/websocket.py).
WEBSOCKET_MAX_MESSAGE_BYTES = 16 * 1024
WEBSOCKET_RATE_LIMIT = (20, 5.0)  # at most 20 messages in any 5 seconds per connection
WEBSOCKET_USER_RATE_LIMIT = (40, 5.0)  # and 40 per user across all their connections (per server process)
WEBSOCKET_MAX_SOCKETS_PER_PAGE = 4  # open sockets of one user to one page (per server process)
WEBSOCKET_MAX_DEPTH = 16  # how deeply a message's arrays and objects may nest

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "refusals_without_tracebacks": {"()": "config.logging.RefusalsWithoutTracebacks"},
        "closing_channel_cleanup": {"()": "config.logging.ClosingChannelCleanup"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["refusals_without_tracebacks", "closing_channel_cleanup"],
        }
    },
    "root": {"handlers": ["console"], "level": env.log_level("LOG_LEVEL", logging.INFO)},
    "loggers": {"daphne": {"level": "WARNING"}},
}
